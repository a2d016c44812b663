import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconPlus, IconSearch, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ATTENDANCE_TRENDS, GROUP_TYPES, WEEKDAYS } from '@lampstand/api/schemas/groups';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { showFailure } from '../../lib/use-save';
import { DataTable, type Column } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { useContactSearch } from '../contacts/contact-search';
import type { Contact } from '../contacts/labels';
import { GroupFormDrawer } from './group-form';
import { nextMeetingWords, rateWords, scheduleWords, TREND_COLORS, TREND_LABELS } from './group-words';

type GroupRow = Extract<RouterOutputs['groups']['list'], { groups: unknown }>['groups'][number];
type Filters = { search: string; type: string | null; weekday: string | null; trend: string | null; archived: boolean };

const columns: Column<GroupRow>[] = [
  {
    header: 'Name',
    card: 'title',
    cell: (g) => (
      <Anchor component={Link} to={`/groups/${g.id}`} fw={600}>
        {g.name}
      </Anchor>
    ),
    note: (g) => g.type,
  },
  { header: 'Meets', cell: (g) => scheduleWords(g), note: (g) => g.area },
  { header: 'Leaders', cell: (g) => g.leaders.map((l) => l.name).join(', ') || '—' },
  {
    header: 'Members',
    cell: (g) =>
      g.capacity ? `${formatNumber(g.memberCount)} of ${formatNumber(g.capacity)}` : formatNumber(g.memberCount),
  },
  {
    header: 'Attendance',
    cell: (g) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{rateWords(g.attendanceRate)}</Text>
        {g.trend ? (
          <Badge size="sm" variant="light" color={TREND_COLORS[g.trend]}>
            {TREND_LABELS[g.trend]}
          </Badge>
        ) : null}
      </Group>
    ),
  },
  { header: 'Next meeting', cell: (g) => nextMeetingWords(g.nextMeeting) },
];

/** People → Groups: every group with filters (type, day, leader, attendance trend) and a CSV export. */
export function GroupsPage() {
  const [f, setF] = useState<Filters>({ search: '', type: null, weekday: null, trend: null, archived: false });
  const [leader, setLeader] = useState<Contact | null>(null);
  const [search] = useDebouncedValue(f.search, 300);
  const [creating, setCreating] = useState(false);
  const leaders = useContactSearch({ enabled: true, chosen: leader, nothingFound: 'No contacts found' });
  const utils = trpc.useUtils();
  const input = {
    search: search || undefined,
    type: f.type ?? undefined,
    weekday: f.weekday === null ? undefined : Number(f.weekday),
    trend: (f.trend ?? undefined) as (typeof ATTENDANCE_TRENDS)[number] | undefined,
    leaderContactId: leader?.id,
    archived: f.archived,
  };
  const list = trpc.groups.list.useQuery(input);
  const groups = list.data && 'groups' in list.data ? list.data.groups : [];
  const filtered = Boolean(input.search || input.type || input.weekday !== undefined || input.trend || leader);

  const exportCsv = async () => {
    try {
      const file = await utils.groups.list.fetch({ ...input, format: 'csv', limit: 1000 });
      if (!('csv' in file)) return;
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      showFailure({ errorTitle: 'Failed to export groups' }, err);
    }
  };
  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
      New group
    </Button>
  );
  const set = (patch: Partial<Filters>) => setF((old) => ({ ...old, ...patch }));

  return (
    <>
      <PageHeader
        title="Groups"
        description="Small groups, classes and teams: who is in them, when they meet and who came."
        action={
          <Group gap="sm">
            <Button variant="default" leftSection={<IconDownload size={18} />} onClick={() => void exportCsv()}>
              Export CSV
            </Button>
            {newButton}
          </Group>
        }
      />
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Name, area or tag"
            leftSection={<IconSearch size={16} />}
            value={f.search}
            onChange={(e) => set({ search: e.currentTarget.value })}
            w={{ base: '100%', sm: 220 }}
          />
          <Select
            label="Type"
            placeholder="Any type"
            clearable
            data={[...new Set([...GROUP_TYPES, ...groups.map((g) => g.type), ...(f.type ? [f.type] : [])])]}
            value={f.type}
            onChange={(v) => set({ type: v })}
            w={{ base: '100%', sm: 160 }}
          />
          <Select
            label="Day"
            placeholder="Any day"
            clearable
            data={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))}
            value={f.weekday}
            onChange={(v) => set({ weekday: v })}
            w={{ base: '100%', sm: 150 }}
          />
          <Select
            label="Leader"
            placeholder="Any leader"
            clearable
            {...leaders.selectProps}
            value={leader ? String(leader.id) : null}
            onChange={(v) => setLeader(leaders.byValue(v))}
            w={{ base: '100%', sm: 220 }}
          />
          <Select
            label="Attendance trend"
            placeholder="Any trend"
            clearable
            data={ATTENDANCE_TRENDS.map((t) => ({ value: t, label: TREND_LABELS[t] }))}
            value={f.trend}
            onChange={(v) => set({ trend: v })}
            w={{ base: '100%', sm: 170 }}
          />
          <SegmentedControl
            aria-label="Active or archived groups"
            data={[
              { value: 'active', label: 'Active' },
              { value: 'archived', label: 'Archived' },
            ]}
            value={f.archived ? 'archived' : 'active'}
            onChange={(v) => set({ archived: v === 'archived' })}
          />
        </Group>
        {list.isLoading ? (
          <Stack gap="xs">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} h={48} />
            ))}
          </Stack>
        ) : list.error ? (
          <Alert color="red" title="Error">
            There was an error loading your groups.{' '}
            <Anchor component="button" onClick={() => void list.refetch()}>
              Retry
            </Anchor>
          </Alert>
        ) : groups.length === 0 && !filtered && !f.archived ? (
          <EmptyState
            icon={<IconUsersGroup size={24} />}
            title="No groups yet"
            description="Add your small groups, classes and teams: newcomers find them on your church's group finder, and leaders take attendance from their phone."
            action={newButton}
          />
        ) : (
          <DataTable
            label="Groups"
            rows={groups}
            rowKey={(g) => g.id}
            columns={columns}
            stickyHeader
            empty={<Text c="dimmed">{f.archived ? 'No archived groups.' : 'No groups match these filters.'}</Text>}
          />
        )}
      </Stack>
      {creating ? <GroupFormDrawer onClose={() => setCreating(false)} /> : null}
    </>
  );
}
