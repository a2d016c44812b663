import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconWand } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { ScheduleProposal } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmAction } from '../../ui/confirm';
import { suppressedSentence } from '@lampstand/api/shared/suppressions';
import { dayLabel } from './bits';
import { PLANNER_STALE_MS } from './planner-cache';
import { ScheduleMatrix, type MatrixRow } from './schedule-matrix';

type Slot = ScheduleProposal['assignments'][number];

/**
 * Auto-schedule: choose plans and positions, see who Lampstand proposes (people ×
 * dates), change anyone, then 'Send requests' after one confirmation.
 */
export function AutoScheduleButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconWand size={18} />} onClick={() => setOpen(true)}>
        Auto-schedule
      </Button>
      {open ? <AutoScheduleModal onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function AutoScheduleModal({ onClose }: { onClose: () => void }) {
  const plans = trpc.servicePlanner.plans.list.useQuery({ when: 'upcoming' }, { staleTime: PLANNER_STALE_MS });
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const members = trpc.servicePlanner.members.list.useQuery({ activeOnly: true }, { staleTime: PLANNER_STALE_MS });
  const [planIds, setPlanIds] = useState<string[] | null>(null);
  const [positionIds, setPositionIds] = useState<string[] | null>(null);
  const [proposal, setProposal] = useState<ScheduleProposal | null>(null);
  const [slots, setSlots] = useState<Slot[]>([]);
  const utils = trpc.useUtils();
  const chosenPlans = planIds ?? (plans.data ?? []).slice(0, 8).map((p) => String(p.id));
  // At first, the positions the chosen plans need (from their template).
  const chosenPositions = positionIds ?? [
    ...new Set(
      (plans.data ?? [])
        .filter((p) => chosenPlans.includes(String(p.id)))
        .flatMap((p) => p.positionsNeeded.map(String)),
    ),
  ];

  const propose = useSave(trpc.servicePlanner.schedule.proposal, {
    errorTitle: 'Failed to propose a schedule',
    onSuccess: (p) => {
      setProposal(p);
      setSlots(p.assignments);
    },
  });
  const commit = useSave(trpc.servicePlanner.schedule.commit, {
    success: (r) => [
      'Requests sent',
      `${r.requests} request${r.requests === 1 ? '' : 's'} to ${r.people} ${r.people === 1 ? 'person' : 'people'}.${
        r.skippedNoEmail.length ? ` No email for ${r.skippedNoEmail.join(', ')}.` : ''
      }${r.away.length ? ` ${r.away.join('. ')}.` : ''}`,
    ],
    errorTitle: 'Failed to send requests',
    invalidate: (utils) => utils.servicePlanner.invalidate(),
    onSuccess: onClose,
  });

  const dates = useMemo(
    () =>
      proposal
        ? [
            ...new Set([...proposal.assignments, ...proposal.unfilled, ...proposal.away, ...slots].map((s) => s.date)),
          ].sort()
        : [],
    [proposal, slots],
  );
  const rows = useMemo(() => (proposal ? proposalRows(proposal, slots, dates) : []), [proposal, slots, dates]);
  /** 'Maria is away 12–19 May' when the slot's person is blocked out that day. */
  const awayWarning = (s: Slot) =>
    proposal?.away.find((a) => a.memberId === s.memberId && a.date === s.date)?.warning ?? null;
  const qualified = (positionId: number) =>
    (members.data ?? [])
      .filter((m) => m.positions.some((p) => p.id === positionId))
      .map((m) => ({ value: String(m.id), label: m.name }));
  const change = (i: number, memberId: string | null) =>
    setSlots((all) =>
      memberId === null
        ? all.filter((_, k) => k !== i)
        : all.map((s, k) =>
            k === i
              ? {
                  ...s,
                  memberId: Number(memberId),
                  memberName: members.data?.find((m) => m.id === Number(memberId))?.name ?? s.memberName,
                }
              : s,
          ),
    );
  const send = async () => {
    const count = slots.length;
    const members = [...new Set(slots.map((s) => s.memberId))];
    const who = members.length;
    // The addresses that are suppressed, said before sending.
    const suppressed = who
      ? await utils.suppressions.count
          .fetch({ memberIds: members })
          .then((r) => r.suppressed)
          .catch(() => 0)
      : 0;
    confirmAction({
      title: 'Send requests',
      text:
        `Send ${count} request${count === 1 ? '' : 's'} to ${who} ${who === 1 ? 'person' : 'people'}? Each gets an email with Accept and Decline.` +
        (suppressed ? ` ${suppressedSentence(suppressed)}` : ''),
      confirm: 'Send requests',
      onConfirm: () =>
        commit.mutate({
          assignments: slots.map((s) => ({ planId: s.planId, positionId: s.positionId, memberId: s.memberId })),
          // Every slot asked for: one left empty shows in the matrix as not filled, with why.
          slots: proposal
            ? [...proposal.assignments, ...proposal.unfilled].map((s) => ({
                planId: s.planId,
                positionId: s.positionId,
              }))
            : [],
        }),
    });
  };

  return (
    <Modal opened onClose={onClose} title="Auto-schedule" size="90rem">
      <Stack>
        {!proposal ? (
          <>
            <Text size="sm" c="dimmed">
              Lampstand proposes who serves where: qualified active members only, nobody away or serving twice a day,
              each member's monthly limit kept, households together when asked, and those who served least recently
              first. Nothing is sent until you say so.
            </Text>
            <MultiSelect
              label="Plans"
              searchable
              data={(plans.data ?? []).map((p) => ({ value: String(p.id), label: `${dayLabel(p.date)} · ${p.title}` }))}
              value={chosenPlans}
              onChange={setPlanIds}
            />
            <MultiSelect
              label="Positions"
              searchable
              data={(positions.data ?? []).map((p) => ({
                value: String(p.id),
                label: p.category ? `${p.category}: ${p.name}` : p.name,
              }))}
              value={chosenPositions}
              onChange={setPositionIds}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button
                loading={propose.isPending}
                disabled={chosenPlans.length === 0 || chosenPositions.length === 0}
                onClick={() =>
                  propose.mutate({ planIds: chosenPlans.map(Number), positionIds: chosenPositions.map(Number) })
                }
              >
                Propose
              </Button>
            </Group>
          </>
        ) : (
          <>
            {proposal.unfilled.length ? (
              <Alert
                color="orange"
                icon={<IconAlertTriangle size={18} />}
                title={`${proposal.unfilled.length} not filled`}
              >
                <Stack gap={2}>
                  {proposal.unfilled.map((u, i) => (
                    <Text key={i} size="sm">
                      {dayLabel(u.date)}, {u.positionName}: {u.reason}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            ) : null}
            <ScheduleMatrix label="Proposed schedule" dates={dates} rows={rows} />
            <Stack gap="xs">
              <Text fw={600} size="sm">
                Change anyone
              </Text>
              {slots.map((s, i) => (
                <Group key={`${s.planId}-${s.positionId}-${i}`} gap="sm" wrap="wrap">
                  <Text size="sm" w={220}>
                    {dayLabel(s.date)} · {s.positionName}
                  </Text>
                  <Select
                    aria-label={`${s.positionName} on ${dayLabel(s.date)}`}
                    data={qualified(s.positionId)}
                    value={String(s.memberId)}
                    onChange={(v) => change(i, v)}
                    clearable
                    placeholder="Nobody (leave empty)"
                    w={240}
                  />
                  {awayWarning(s) ? (
                    <Group gap={4} wrap="nowrap">
                      <IconAlertTriangle size={18} color="var(--mantine-color-orange-7)" aria-hidden />
                      <Text size="sm" fw={600}>
                        {awayWarning(s)}
                      </Text>
                    </Group>
                  ) : null}
                </Group>
              ))}
            </Stack>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setProposal(null)}>
                Back
              </Button>
              <Button loading={commit.isPending} disabled={slots.length === 0} onClick={() => void send()}>
                Send requests
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}

/**
 * The proposal as the matrix shows it (people × dates): each proposed slot 'Proposed', each
 * blocked-out day 'Away' with its reason, and a last 'Not filled' row saying why a slot stays empty.
 */
function proposalRows(proposal: ScheduleProposal, slots: Slot[], dates: string[]): MatrixRow[] {
  const names = new Map<number, string>();
  for (const s of [...slots, ...proposal.away]) names.set(s.memberId, s.memberName);
  const people = [...names]
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([id, name]) => ({
      id,
      name,
      cells: dates.map((d) => {
        const away = proposal.away.find((a) => a.memberId === id && a.date === d);
        return {
          away: !!away,
          awayReason: away?.reason ?? null,
          entries: slots
            .map((s, k) => ({ s, k }))
            .filter(({ s }) => s.memberId === id && s.date === d)
            .map(({ s, k }) => ({ key: k, position: s.positionName, time: null, status: 'proposed' as const })),
        };
      }),
    }));
  if (proposal.unfilled.length === 0) return people;
  const unfilled = {
    id: 0,
    name: 'Not filled',
    notFilled: true,
    cells: dates.map((d) => ({
      entries: [],
      unfilled: proposal.unfilled
        .filter((u) => u.date === d)
        .map((u) => ({ position: u.positionName, reason: u.reason })),
    })),
  };
  return [...people, unfilled];
}
