import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDots, IconMail, IconTrash, IconUserPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { z } from 'zod';
import type { Assignment, createAssignmentSchema, PlanDetail } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage, httpStatus } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { confirmAction, confirmDestructive } from '../../ui/confirm';
import { suppressedSentence } from '@lampstand/api/shared/suppressions';
import { AssignmentStatusBadge, timeLabel } from './bits';

/** 'At 9:00 AM' or 'All times'; nothing for a plan held once. */
export function serviceTimeLabel(plan: { serviceTimes: string[] }, time: string | null): string | null {
  if (time) return `At ${timeLabel(time)}`;
  return plan.serviceTimes.length > 1 ? 'All times' : null;
}

/** A plan's service time to choose, 'All times' first (value 'all'). */
export function ServiceTimeSelect({
  times,
  value,
  onChange,
}: {
  times: string[];
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Select
      label="Service time"
      allowDeselect={false}
      data={[{ value: 'all', label: 'All times' }, ...times.map((t) => ({ value: t, label: timeLabel(t) }))]}
      value={value}
      onChange={(v) => onChange(v ?? 'all')}
    />
  );
}

/** The 409's words (away that day, already scheduled) and 'Schedule anyway'. */
export function ScheduleAnyway({
  warning,
  onForce,
  loading,
}: {
  warning: string | null;
  onForce: () => void;
  loading: boolean;
}) {
  if (!warning) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Please check">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{warning}</Text>
        <Button size="xs" variant="light" color="orange" onClick={onForce} loading={loading}>
          Schedule anyway
        </Button>
      </Stack>
    </Alert>
  );
}
import { PLANNER_STALE_MS } from './planner-cache';

/**
 * Schedule a member: on a 409 (away that day, already scheduled) the warning is kept for
 * 'Schedule anyway'; on success the planner's views refresh and `onDone` runs.
 */
export function useScheduleMember(onDone: () => void) {
  const [warning, setWarning] = useState<string | null>(null);
  const create = useSave(trpc.servicePlanner.assignments.create, {
    success: 'Member scheduled',
    errorTitle: 'Failed to schedule member',
    answer: (err) => {
      if (httpStatus(err) !== 409) return false;
      setWarning(errorMessage(err));
      return true;
    },
    invalidate: (utils) => utils.servicePlanner.invalidate(),
    onSuccess: onDone,
  });
  const schedule = (input: z.input<typeof createAssignmentSchema>) => create.mutate(input);
  return { schedule, warning, setWarning, pending: create.isPending };
}

function ScheduleModal({ plan, onClose }: { plan: PlanDetail; onClose: () => void }) {
  const members = trpc.servicePlanner.members.list.useQuery({ activeOnly: true }, { staleTime: PLANNER_STALE_MS });
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const { schedule, warning, setWarning, pending } = useScheduleMember(onClose);
  const [memberId, setMemberId] = useState<string | null>(null);
  const [positionId, setPositionId] = useState<string | null>(null);
  const [itemId, setItemId] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [serviceTime, setServiceTime] = useState<string>('all');
  const [memberError, setMemberError] = useState<string | null>(null);
  const member = members.data?.find((m) => String(m.id) === memberId);
  const canFill = new Set(member?.positions.map((p) => p.id) ?? []);
  const positionOptions = (positions.data ?? [])
    .slice()
    .sort((a, b) => Number(canFill.has(b.id)) - Number(canFill.has(a.id)))
    .map((p) => ({
      value: String(p.id),
      label: `${p.category ? `${p.category}: ` : ''}${p.name}${member && !canFill.has(p.id) ? ' (not usually)' : ''}`,
    }));

  const save = (force: boolean) => {
    if (!memberId) {
      setMemberError('Please choose a team member');
      return;
    }
    schedule({
      planId: plan.id,
      memberId: Number(memberId),
      positionId: positionId ? Number(positionId) : null,
      itemId: itemId ? Number(itemId) : null,
      notes,
      serviceTime: serviceTime === 'all' ? null : serviceTime,
      force,
    });
  };

  return (
    <Modal opened onClose={onClose} title="Schedule Member">
      <Stack>
        <Select
          label="Team member"
          withAsterisk
          searchable
          placeholder="Choose a person"
          nothingFoundMessage="No active team members"
          data={(members.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
          value={memberId}
          error={memberError}
          onChange={(v) => {
            setMemberId(v);
            setMemberError(null);
            setWarning(null);
            const m = members.data?.find((x) => String(x.id) === v);
            if (m?.positions.length === 1) setPositionId(String(m.positions[0]!.id));
          }}
        />
        <Select label="Position" clearable data={positionOptions} value={positionId} onChange={setPositionId} />
        <Select
          label="Item (optional)"
          clearable
          data={plan.items.map((i) => ({ value: String(i.id), label: i.title }))}
          value={itemId}
          onChange={setItemId}
        />
        {plan.serviceTimes.length > 1 ? (
          <ServiceTimeSelect
            times={plan.serviceTimes}
            value={serviceTime}
            onChange={(v) => {
              setServiceTime(v);
              setWarning(null);
            }}
          />
        ) : null}
        <TextInput label="Notes" value={notes} onChange={(e) => setNotes(e.currentTarget.value)} />
        <ScheduleAnyway warning={warning} onForce={() => save(true)} loading={pending} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => save(false)} loading={pending && !warning}>
            Schedule
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Who serves: each person's position, answer (live: the plan refetches) and any warning. */
export function TeamSection({ plan }: { plan: PlanDetail }) {
  const [scheduling, setScheduling] = useState(false);
  const utils = trpc.useUtils();
  const update = useSave(trpc.servicePlanner.assignments.update, {
    errorTitle: 'Failed to update assignment',
    invalidate: (u) => u.servicePlanner.plans.invalidate(),
  });
  const del = useSave(trpc.servicePlanner.assignments.delete, {
    errorTitle: 'Failed to remove assignment',
    invalidate: (u) => u.servicePlanner.plans.invalidate(),
  });
  const send = useSave(trpc.servicePlanner.plans.sendRequests, {
    success: (res) => ['Requests sent', res.message],
    errorTitle: 'Failed to send requests',
    invalidate: (u) => u.servicePlanner.plans.invalidate(),
  });
  const unasked = plan.assignments.filter((a) => a.status === 'scheduled' && !a.requestedAt).length;

  const setStatus = (a: Assignment, status: Assignment['status']) => update.mutate({ id: a.id, status });
  const remove = (a: Assignment) =>
    confirmDestructive({
      title: 'Remove from plan',
      text: `Remove ${a.memberName}${a.positionName ? ` (${a.positionName})` : ''} from ${plan.title}?`,
      confirm: 'Remove',
      onConfirm: () => del.mutate({ id: a.id }),
    });
  const sendNow = () => send.mutate({ id: plan.id });
  // When some of the addresses are suppressed, say how many before sending.
  const sendRequests = async () => {
    const memberIds = [
      ...new Set(
        plan.assignments
          .filter((a) => a.status === 'scheduled' && !a.requestedAt && a.memberEmail)
          .map((a) => a.memberId),
      ),
    ];
    const suppressed = memberIds.length
      ? await utils.suppressions.count
          .fetch({ memberIds })
          .then((r) => r.suppressed)
          .catch(() => 0)
      : 0;
    if (!suppressed) return sendNow();
    confirmAction({
      title: 'Send requests',
      text: `Send ${unasked} request${unasked === 1 ? '' : 's'}? ${suppressedSentence(suppressed)}`,
      confirm: 'Send requests',
      onConfirm: sendNow,
    });
  };

  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Stack gap={0}>
          <Title order={3} size="h4">
            Team
          </Title>
          <Text size="sm" c="dimmed">
            {plan.team.total ? `${plan.team.confirmed} of ${plan.team.total} confirmed` : 'No one scheduled yet'}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconMail size={18} />}
            onClick={() => void sendRequests()}
            loading={send.isPending}
            disabled={unasked === 0}
          >
            Send Requests{unasked ? ` (${unasked})` : ''}
          </Button>
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setScheduling(true)}>
            Schedule Member
          </Button>
        </Group>
      </Group>
      <Stack gap="xs">
        {plan.assignments.map((a) => (
          <Group key={a.id} justify="space-between" wrap="nowrap" data-testid="assignment">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={6}>
                <Text size="sm" fw={600}>
                  {a.memberName}
                </Text>
                {a.warnings.length ? (
                  <Tooltip label={a.warnings.join('. ')}>
                    <IconAlertTriangle
                      size={16}
                      color="var(--mantine-color-orange-8)"
                      aria-label={a.warnings.join('. ')}
                    />
                  </Tooltip>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed">
                {[
                  a.positionName,
                  serviceTimeLabel(plan, a.serviceTime),
                  a.requestedAt ? 'asked' : 'not asked yet',
                  a.notes,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              {a.requestError ? (
                <Text size="xs" c="red.8">
                  The request could not be sent: {a.requestError}
                </Text>
              ) : null}
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <AssignmentStatusBadge status={a.status} />
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${a.memberName}`}>
                    <IconDots size={18} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconCheck size={16} />} onClick={() => setStatus(a, 'confirmed')}>
                    Mark confirmed
                  </Menu.Item>
                  <Menu.Item leftSection={<IconX size={16} />} onClick={() => setStatus(a, 'declined')}>
                    Mark declined
                  </Menu.Item>
                  <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => remove(a)}>
                    Remove
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
        ))}
      </Stack>
      {scheduling ? <ScheduleModal plan={plan} onClose={() => setScheduling(false)} /> : null}
    </Card>
  );
}
