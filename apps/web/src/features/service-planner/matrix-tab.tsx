import { Button, Group, Modal, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarOff, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import {
  ASSIGNMENT_STATUSES,
  MATRIX_STATUS_LABELS,
  type MatrixEntry,
  type ScheduleMatrix as Matrix,
} from '@lampstand/api/schemas/service-planner';
import { matrixStatusOf } from '@lampstand/api/shared/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { EmptyState } from '../../ui/empty-state';
import { confirmDestructive } from '../../ui/confirm';
import { dayLabel } from './bits';
import { PLANNER_STALE_MS } from './planner-cache';
import { MatrixStatusBadge, ScheduleMatrix, type MatrixRow } from './schedule-matrix';
import { ScheduleAnyway, ServiceTimeSelect, serviceTimeLabel, useScheduleMember } from './team-section';
import { AutoScheduleButton } from './auto-schedule-modal';

type DatePlans = Matrix['dates'][number]['plans'];
type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** A status set by hand (an answer given in person), in the matrix's words. */
const STATUS_OPTIONS = ASSIGNMENT_STATUSES.map((value) => ({
  value,
  label: MATRIX_STATUS_LABELS[matrixStatusOf(value)],
}));

/**
 * The matrix's rows from the API's answer: each entry's position, time and status, and a last
 * 'Not filled' row with each slot nobody fills and why.
 */
export function matrixRows(matrix: Matrix): MatrixRow[] {
  const people: MatrixRow[] = matrix.people.map((p) => ({
    id: p.memberId,
    name: p.name,
    cells: p.cells.map((c, i) => ({
      away: c.away,
      awayReason: c.awayReason,
      entries: c.entries.map((e) => ({
        key: e.assignmentId,
        position: e.positionName ?? 'No position',
        time: serviceTimeLabel(
          matrix.dates[i]!.plans.find((pl) => pl.id === e.planId) ?? { serviceTimes: [] },
          e.serviceTime,
        ),
        status: e.status,
      })),
    })),
  }));
  if (matrix.unfilled.length === 0) return people;
  const notFilled: MatrixRow = {
    id: 0,
    name: 'Not filled',
    notFilled: true,
    cells: matrix.dates.map((d) => ({
      entries: [],
      unfilled: matrix.unfilled
        .filter((u) => u.date === d.date)
        .map((u) => ({
          position: d.plans.length > 1 ? `${u.positionName} (${u.planTitle})` : u.positionName,
          reason: u.reason,
        })),
    })),
  };
  return [...people, notFilled];
}

/** The everyday view of who serves: filter by team and dates, click a cell to change it. */
export function MatrixTab() {
  const [from, setFrom] = useState(() => dayjs().format('YYYY-MM-DD'));
  const [to, setTo] = useState(() => dayjs().add(8, 'week').format('YYYY-MM-DD'));
  const [teamId, setTeamId] = useState<string | null>(null);
  const [cell, setCell] = useState<{ row: MatrixRow; date: string } | null>(null);
  const input = { from, to, ...(teamId ? { teamId: Number(teamId) } : {}) };
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && to >= from;
  const matrix = trpc.servicePlanner.matrix.get.useQuery(input, { enabled: valid, staleTime: PLANNER_STALE_MS });
  const data = matrix.data;

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Select
          label="Team"
          placeholder="All teams"
          clearable
          data={(data?.teams ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          value={teamId}
          onChange={setTeamId}
          w={200}
        />
        <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={170} />
        <TextInput
          label="To"
          type="date"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          w={170}
          error={valid ? matrix.error?.message : 'To must be on or after From'}
        />
        <div style={{ marginLeft: 'auto' }}>
          <AutoScheduleButton />
        </div>
      </Group>
      {matrix.isLoading && valid ? (
        <Skeleton height={240} />
      ) : !data ? null : data.dates.length === 0 ? (
        <EmptyState icon={<IconCalendarOff size={24} />} title="No plans in these dates" />
      ) : (
        <ScheduleMatrix
          label="Scheduling matrix"
          dates={data.dates.map((d) => d.date)}
          rows={matrixRows(data)}
          onCellClick={(row, i) => setCell({ row, date: data.dates[i]!.date })}
        />
      )}
      {cell && data ? (
        <MatrixCellModal
          member={cell.row}
          date={cell.date}
          plans={data.dates.find((d) => d.date === cell.date)?.plans ?? []}
          entries={
            data.people.find((p) => p.memberId === cell.row.id)?.cells.find((c) => c.date === cell.date)?.entries ?? []
          }
          onClose={() => setCell(null)}
        />
      ) : null}
    </Stack>
  );
}

/** One cell: change or remove each assignment of the person that day, or assign a position. */
function MatrixCellModal({
  member,
  date,
  plans,
  entries,
  onClose,
}: {
  member: { id: number; name: string };
  date: string;
  plans: DatePlans;
  entries: MatrixEntry[];
  onClose: () => void;
}) {
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const { schedule, warning, setWarning, pending } = useScheduleMember(onClose);
  const refresh = (utils: SaveUtils) => [
    utils.servicePlanner.matrix.invalidate(),
    utils.servicePlanner.plans.invalidate(),
  ];
  const update = useSave(trpc.servicePlanner.assignments.update, {
    success: 'Assignment changed',
    errorTitle: 'Failed to update assignment',
    invalidate: refresh,
  });
  const del = useSave(trpc.servicePlanner.assignments.delete, {
    errorTitle: 'Failed to remove assignment',
    invalidate: refresh,
    onSuccess: onClose,
  });
  const [planId, setPlanId] = useState<string | null>(plans.length === 1 ? String(plans[0]!.id) : null);
  const [positionId, setPositionId] = useState<string | null>(null);
  const [time, setTime] = useState('all');
  const plan = plans.find((p) => String(p.id) === planId);
  const positionOptions = (positions.data ?? []).map((p) => ({
    value: String(p.id),
    label: p.category ? `${p.category}: ${p.name}` : p.name,
  }));

  const change = (
    e: MatrixEntry,
    fields: { positionId?: number | null; serviceTime?: string | null; status?: AssignmentStatus },
  ) => update.mutate({ id: e.assignmentId, ...fields });
  const remove = (e: MatrixEntry) =>
    confirmDestructive({
      title: 'Remove from plan',
      text: `Remove ${member.name}${e.positionName ? ` (${e.positionName})` : ''} from ${e.planTitle} on ${dayLabel(date)}?`,
      confirm: 'Remove',
      onConfirm: () => del.mutate({ id: e.assignmentId }),
    });
  const assign = (force: boolean) => {
    if (!planId) return;
    schedule({
      planId: Number(planId),
      memberId: member.id,
      positionId: positionId ? Number(positionId) : null,
      serviceTime: time === 'all' ? null : time,
      force,
    });
  };

  return (
    <Modal opened onClose={onClose} title={`${member.name} · ${dayLabel(date)}`}>
      <Stack>
        {entries.map((e) => {
          const p = plans.find((x) => x.id === e.planId);
          return (
            <Stack key={e.assignmentId} gap="xs" p="sm" bd="1px solid var(--mantine-color-gray-3)" bdrs="md">
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {e.planTitle}
                </Text>
                <MatrixStatusBadge status={e.status} />
              </Group>
              <Select
                label="Position"
                data={positionOptions}
                value={e.positionId ? String(e.positionId) : null}
                onChange={(v) => change(e, { positionId: v ? Number(v) : null })}
                clearable
              />
              <Select
                label="Status"
                allowDeselect={false}
                data={STATUS_OPTIONS}
                value={STATUS_OPTIONS.find((o) => matrixStatusOf(o.value) === e.status)!.value}
                onChange={(v) => v && change(e, { status: v })}
              />
              {p && p.serviceTimes.length > 1 ? (
                <ServiceTimeSelect
                  times={p.serviceTimes}
                  value={e.serviceTime ?? 'all'}
                  onChange={(v) => change(e, { serviceTime: v === 'all' ? null : v })}
                />
              ) : null}
              <Group justify="flex-end">
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => remove(e)}
                >
                  Remove
                </Button>
              </Group>
            </Stack>
          );
        })}
        <Text fw={600} size="sm">
          Assign a position
        </Text>
        {plans.length > 1 ? (
          <Select
            label="Plan"
            data={plans.map((p) => ({ value: String(p.id), label: p.title }))}
            value={planId}
            onChange={setPlanId}
          />
        ) : null}
        <Select
          label="Position"
          searchable
          data={positionOptions}
          value={positionId}
          onChange={(v) => {
            setPositionId(v);
            setWarning(null);
          }}
        />
        {plan && plan.serviceTimes.length > 1 ? (
          <ServiceTimeSelect
            times={plan.serviceTimes}
            value={time}
            onChange={(v) => {
              setTime(v);
              setWarning(null);
            }}
          />
        ) : null}
        <ScheduleAnyway warning={warning} onForce={() => assign(true)} loading={pending} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => assign(false)} disabled={!planId} loading={pending && !warning}>
            Assign
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
