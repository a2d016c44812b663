import { Anchor, Badge, Button, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useChurchTimeZone } from '../../lib/time-zone';
import { DataTable, type Column } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { ListState } from './loading';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { seatsWords, STATUS_COLORS, STATUS_LABELS, whenWords, type EventSummary } from './event-words';

type Tab = 'upcoming' | 'past' | 'drafts';
const TABS: { value: Tab; label: string }[] = [
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'past', label: 'Past' },
  { value: 'drafts', label: 'Drafts' },
];

const lastStart = (e: EventSummary) => e.times.reduce((m, t) => (t.startsAt > m ? t.startsAt : m), '');
const firstStart = (e: EventSummary) => e.times.reduce((m, t) => (!m || t.startsAt < m ? t.startsAt : m), '');

/** Which tab an event is on: drafts apart; the others by their last time, now. */
function inTab(e: EventSummary, tab: Tab, now: string): boolean {
  if (tab === 'drafts') return e.status === 'draft';
  if (e.status === 'draft') return false;
  return tab === 'upcoming' ? lastStart(e) >= now : lastStart(e) < now;
}

/** Outreach → Events: the church's events, upcoming, past and drafts, with seats taken. */
export function EventsPage() {
  const zone = useChurchTimeZone();
  const [tab, setTab] = useState<Tab>('upcoming');
  const [typed, setTyped] = useState('');
  const [search] = useDebouncedValue(typed, 300);
  const list = trpc.calendar.list.useQuery({ status: 'all', search: search || undefined });
  const now = new Date().toISOString();
  const all = list.data ?? [];
  const rows = all
    .filter((e) => inTab(e, tab, now))
    .sort((a, b) =>
      tab === 'past' ? lastStart(b).localeCompare(lastStart(a)) : firstStart(a).localeCompare(firstStart(b)),
    );
  const columns: Column<EventSummary>[] = [
    {
      header: 'Event',
      card: 'title',
      cell: (e) => (
        <Anchor component={Link} to={`/events/${e.id}`} fw={600}>
          {e.title}
        </Anchor>
      ),
      note: (e) => e.locationName,
    },
    { header: 'When', cell: (e) => whenWords(e.times, zone) },
    { header: 'Seats taken', cell: (e) => seatsWords(e.times) },
    { header: 'Registrations', cell: (e) => formatNumber(e.counts.confirmed + e.counts.held + e.counts.offered) },
    { header: 'Waitlist', cell: (e) => formatNumber(e.counts.waitlisted) },
    {
      header: 'Status',
      cell: (e) => (
        <Badge variant="light" color={STATUS_COLORS[e.status]}>
          {STATUS_LABELS[e.status]}
        </Badge>
      ),
    },
  ];
  const newButton = (
    <Button component={Link} to="/events/new" leftSection={<IconPlus size={18} />}>
      New event
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Events"
        description="Events people register for: times and seats, tickets, questions, and check-in at the door."
        action={newButton}
      />
      <Stack gap="md">
        {all.length === 0 && !search && !list.isLoading ? null : (
          <>
            <SegmentedControl
              aria-label="Which events"
              data={TABS}
              value={tab}
              onChange={(v) => setTab(v)}
              w={{ base: '100%', sm: 'auto' }}
              style={{ alignSelf: 'flex-start' }}
            />
            <TextInput
              label="Search"
              placeholder="Title or place"
              leftSection={<IconSearch size={16} />}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              w={{ base: '100%', sm: 280 }}
            />
          </>
        )}
        {list.isLoading || list.error ? (
          <ListState query={list} what="your events" rows={4} />
        ) : all.length === 0 && !search ? (
          <EmptyState
            icon={<IconTicket size={24} />}
            title="No events yet"
            description="Create an event people register for: a Christmas service, a breakfast, a camp. Set its times and seats, tickets and questions, then publish it."
            action={newButton}
          />
        ) : (
          <DataTable
            label="Events"
            rows={rows}
            rowKey={(e) => e.id}
            columns={columns}
            stickyHeader
            empty={
              <Text c="dimmed">
                {search
                  ? 'No events match this search.'
                  : tab === 'drafts'
                    ? 'No drafts.'
                    : tab === 'past'
                      ? 'No past events.'
                      : 'No upcoming events.'}
              </Text>
            }
          />
        )}
      </Stack>
    </>
  );
}
