import { Badge, Group, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconPencil, IconSearch, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { REGISTRATION_STATUSES } from '@lampstand/api/schemas/calendar-events';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { DataTable, RowActionsMenu, type Column } from '../../ui/data-table';
import { formatNumber, formatTime } from '../../ui/format';
import {
  answerWords,
  money,
  REGISTRATION_COLORS,
  REGISTRATION_LABELS,
  type EventDetail,
  type Registration,
} from './event-words';
import { ListState } from './loading';
import { CancelRegistrationDialog, EditRegistrationDialog } from './registration-dialogs';

const PAGE_SIZE = 25;

interface Filters {
  search: string;
  status: string;
  ticketTypeId: string | null;
  questionId: string | null;
  answer: string;
  checkedIn: 'all' | 'yes' | 'no';
}

/** The event's registrant list: search, filters, answers, and each registration's actions. */
export function Registrants({ event, zone }: { event: EventDetail; zone: string }) {
  const [f, setF] = useState<Filters>({
    search: '',
    status: 'active',
    ticketTypeId: null,
    questionId: null,
    answer: '',
    checkedIn: 'all',
  });
  const [page, setPage] = useState(1);
  const [search] = useDebouncedValue(f.search, 300);
  const [answer] = useDebouncedValue(f.answer, 300);
  const [editing, setEditing] = useState<Registration | null>(null);
  const [cancelling, setCancelling] = useState<Registration | null>(null);
  const set = (patch: Partial<Filters>) => {
    setF((old) => ({ ...old, ...patch }));
    setPage(1);
  };
  const list = trpc.calendar.registrations.useQuery({
    id: event.id,
    search: search || undefined,
    status: f.status as (typeof REGISTRATION_STATUSES)[number] | 'active' | 'all',
    ticketTypeId: f.ticketTypeId ? Number(f.ticketTypeId) : undefined,
    questionId: f.questionId && answer ? Number(f.questionId) : undefined,
    answer: f.questionId && answer ? answer : undefined,
    checkedIn: f.checkedIn,
    page,
    pageSize: PAGE_SIZE,
  });
  const checkIn = useSave(trpc.registrations.checkIn, {
    success: (r) => ['Checked in', r.checkedIn.map((a) => a.name).join(', ')],
    errorTitle: 'Failed to check in',
    invalidate: (u) => [u.calendar.registrations.invalidate()],
  });
  const question = event.questions.find((q) => String(q.id) === f.questionId);
  const columns: Column<Registration>[] = [
    { header: 'Registrant', card: 'title', cell: (r) => <Text fw={600}>{r.name}</Text>, note: (r) => r.email },
    {
      header: 'Attendees',
      cell: (r) => (
        <Stack gap={2}>
          {r.attendees.map((a) => (
            <Text key={a.id} size="sm">
              {a.name} · {a.ticketTypeName}
              {a.checkedInAt ? ` · in at ${formatTime(a.checkedInAt, zone)}` : ''}
            </Text>
          ))}
        </Stack>
      ),
    },
    {
      header: 'Status',
      cell: (r) => (
        <Badge variant="light" color={REGISTRATION_COLORS[r.status]}>
          {REGISTRATION_LABELS[r.status]}
        </Badge>
      ),
    },
    {
      header: 'Answers',
      cell: (r) =>
        r.answers.length === 0 ? null : (
          <Stack gap={2}>
            {r.answers.map((a) => (
              <Text key={`${a.questionId}-${a.attendeeId ?? 'r'}`} size="sm">
                {a.label}: {answerWords(a.value)}
              </Text>
            ))}
          </Stack>
        ),
    },
    {
      header: 'Paid',
      cell: (r) => (r.totalCents === 0 ? 'Free' : money(r.totalCents)),
      note: (r) =>
        r.refundedCents + r.refundDueCents > 0 ? `Refunded ${money(r.refundedCents + r.refundDueCents)}` : null,
    },
  ];
  const rows = list.data?.registrations ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name or email"
          leftSection={<IconSearch size={16} />}
          value={f.search}
          onChange={(e) => set({ search: e.currentTarget.value })}
          w={{ base: '100%', sm: 220 }}
        />
        <Select
          label="Status"
          allowDeselect={false}
          data={[
            { value: 'active', label: 'Active' },
            { value: 'all', label: 'All' },
            ...REGISTRATION_STATUSES.map((s) => ({ value: s, label: REGISTRATION_LABELS[s] })),
          ]}
          value={f.status}
          onChange={(v) => set({ status: v ?? 'active' })}
          w={{ base: '100%', sm: 170 }}
        />
        <Select
          label="Ticket"
          placeholder="Any ticket"
          clearable
          data={event.ticketTypes.map((t) => ({ value: String(t.id), label: t.name }))}
          value={f.ticketTypeId}
          onChange={(v) => set({ ticketTypeId: v })}
          w={{ base: '100%', sm: 170 }}
        />
        <Select
          label="Checked in"
          allowDeselect={false}
          data={[
            { value: 'all', label: 'Everyone' },
            { value: 'yes', label: 'Arrived' },
            { value: 'no', label: 'Not yet' },
          ]}
          value={f.checkedIn}
          onChange={(v) => set({ checkedIn: v ?? 'all' })}
          w={{ base: '100%', sm: 150 }}
        />
        {event.questions.length > 0 ? (
          <>
            <Select
              label="Question"
              placeholder="Any answer"
              clearable
              data={event.questions.map((q) => ({ value: String(q.id), label: q.label }))}
              value={f.questionId}
              onChange={(v) => set({ questionId: v, answer: '' })}
              w={{ base: '100%', sm: 200 }}
            />
            {question ? (
              question.choices.length > 0 ? (
                <Select
                  label="Answer"
                  data={question.choices}
                  value={f.answer || null}
                  onChange={(v) => set({ answer: v ?? '' })}
                  w={{ base: '100%', sm: 170 }}
                />
              ) : (
                <TextInput
                  label="Answer contains"
                  value={f.answer}
                  onChange={(e) => set({ answer: e.currentTarget.value })}
                  w={{ base: '100%', sm: 170 }}
                />
              )
            ) : null}
          </>
        ) : null}
      </Group>
      {list.isLoading || list.error ? (
        <ListState query={list} what="the registrations" />
      ) : (
        <DataTable
          label="Registrations"
          rows={rows}
          rowKey={(r) => r.id}
          columns={columns}
          stickyHeader
          empty={<Text c="dimmed">No registrations match these filters.</Text>}
          actions={(r) => (
            <RowActionsMenu
              label={`Actions for ${r.name}`}
              items={[
                {
                  label: 'Check in',
                  icon: <IconCheck size={16} />,
                  disabled: r.status !== 'confirmed' || r.attendees.every((a) => a.checkedInAt),
                  onClick: () => checkIn.mutate({ id: r.id }),
                },
                { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => setEditing(r) },
                {
                  label: 'Cancel registration',
                  icon: <IconX size={16} />,
                  color: 'red',
                  disabled: ['cancelled', 'expired', 'declined'].includes(r.status),
                  onClick: () => setCancelling(r),
                },
              ]}
            />
          )}
        />
      )}
      {pages > 1 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {formatNumber(list.data?.total ?? 0)} registrations
          </Text>
          <Pagination value={page} onChange={setPage} total={pages} />
        </Group>
      ) : null}
      {editing ? (
        <EditRegistrationDialog event={event} registration={editing} onClose={() => setEditing(null)} />
      ) : null}
      {cancelling ? (
        <CancelRegistrationDialog event={event} registration={cancelling} onClose={() => setCancelling(null)} />
      ) : null}
    </Stack>
  );
}
