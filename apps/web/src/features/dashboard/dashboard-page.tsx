import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconMailOpened, IconMessageCheck, IconUsers, IconEye } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSession } from '../../shell/session';
import { formatDate, formatIn, formatNumber, formatPercent, formatTime } from '../../ui/format';
import { timeZoneLabel, useChurchTimeZone } from '../../lib/time-zone';
import { TimeZoneLink } from '../../ui/time-zone-link';
import { DataTable } from '../../ui/data-table';
import { StatChange } from './stat-change';
import { ProfileUpdatesNotice } from '../profile-updates/profile-updates-notice';
import { MyFollowUps } from '../tasks/my-follow-ups';
import { QUICK_ACTIONS, QUICK_ACTION_STYLES, campaignStatusKind } from './quick-actions';
import { GettingStartedChecklist } from './getting-started';
import { statusColor } from '../../ui/status-color';

/** A dashboard list: its title with View All, then the list, or the empty text when there is none. */
function ListPanel({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return (
    <Paper withBorder p="md" h="100%">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Button variant="subtle" size="xs">
          View All
        </Button>
      </Group>
      {empty !== null ? (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Paper>
  );
}

/** The spec's cards and wording; each change is computed from the church's own data (dashboard.stats trends). */
const STAT_CARDS = [
  { key: 'contacts', title: 'Total Contacts', icon: IconUsers, note: 'vs last month' },
  { key: 'emailOpenRate', title: 'Email Opens', icon: IconMailOpened, note: 'vs last campaign' },
  { key: 'smsDeliveryRate', title: 'SMS Delivery', icon: IconMessageCheck, note: 'vs last week' },
  { key: 'pageVisits', title: 'Page Visits', icon: IconEye, note: 'vs last week' },
] as const;

export function DashboardPage() {
  const { user } = useSession();
  const stats = trpc.dashboard.stats.useQuery();
  // Read again on each visit: a step done elsewhere (a contact added) ticks when the church comes back.
  const start = trpc.dashboard.gettingStarted.useQuery(undefined, { staleTime: 0, refetchOnMount: 'always' });
  const timeZone = useChurchTimeZone();
  const rate = (n: number | null) => (n === null ? '—' : formatPercent(n));
  const values: Record<(typeof STAT_CARDS)[number]['key'], string> | null = stats.data
    ? {
        contacts: formatNumber(stats.data.contactsCount),
        emailOpenRate: rate(stats.data.emailOpenRate),
        smsDeliveryRate: rate(stats.data.smsDeliveryRate),
        pageVisits: formatNumber(stats.data.pageVisits),
      }
    : null;
  return (
    <Stack gap="lg">
      <div>
        {/* 'Welcome' on a first visit (nothing done yet), else the spec's 'Welcome back': told once known. */}
        {start.isLoading ? (
          <Skeleton h={32} w={320} maw="100%" />
        ) : (
          <Title order={1} size="h2">
            {start.data?.firstVisit ? 'Welcome' : 'Welcome back'}, {user?.churchName}!
          </Title>
        )}
        <Text c="dimmed" mt={4}>
          Let's grow your congregation with powerful marketing tools.
        </Text>
      </div>
      {start.data ? <GettingStartedChecklist data={start.data} /> : null}
      <ProfileUpdatesNotice />

      {stats.isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading dashboard" />
        </Center>
      ) : stats.error || !stats.data ? (
        <Alert color="red" title="Error">
          Failed to load dashboard data. Please try again later.
        </Alert>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
            {STAT_CARDS.map((c) => (
              <Card key={c.key} withBorder padding="lg">
                <Group justify="space-between" align="flex-start">
                  <Text size="sm" c="dimmed" fw={500}>
                    {c.title}
                  </Text>
                  <ThemeIcon variant="light" radius="md">
                    <c.icon size={18} />
                  </ThemeIcon>
                </Group>
                <Text fw={700} fz={28} mt="xs">
                  {values?.[c.key]}
                </Text>
                <StatChange value={stats.data.trends[c.key]} note={c.note} />
              </Card>
            ))}
          </SimpleGrid>

          <Grid>
            {/* Side by side only where the table keeps all its columns (Status included). */}
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <ListPanel
                title="Recent Campaigns"
                empty={stats.data.recentCampaigns.length === 0 ? 'No campaigns found' : null}
              >
                <DataTable
                  label="Recent campaigns"
                  rows={stats.data.recentCampaigns}
                  rowKey={(c) => `${c.type}-${c.id}`}
                  minWidth={480}
                  table={{ highlightOnHover: false, verticalSpacing: 'xs' }}
                  columns={[
                    {
                      header: 'Name',
                      card: 'title',
                      td: { fw: 500 },
                      cell: (c) => c.name,
                      note: (c) => (c.sentAt ? formatDate(c.sentAt, timeZone) : 'Not sent yet'),
                    },
                    {
                      header: 'Type',
                      cell: (c) => (
                        <Text size="sm" tt="uppercase">
                          {c.type}
                        </Text>
                      ),
                    },
                    { header: 'Sent', cell: (c) => formatNumber(c.sent) },
                    { header: 'Opens', cell: (c) => (c.type === 'sms' ? '—' : formatNumber(c.opens)) },
                    {
                      header: 'Status',
                      cell: (c) => (
                        <Badge color={statusColor(campaignStatusKind(c.status))} variant="light">
                          {c.status}
                        </Badge>
                      ),
                    },
                  ]}
                />
              </ListPanel>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <ListPanel
                title="Upcoming Scheduled"
                empty={stats.data.upcomingScheduled.length === 0 ? 'No upcoming scheduled campaigns' : null}
              >
                <Stack gap="sm">
                  {stats.data.upcomingScheduled.map((s) => (
                    <Group key={`${s.type}-${s.id}`} wrap="nowrap" align="flex-start">
                      <Paper withBorder p={6} w={52} ta="center" bg="indigo.0">
                        <Text size="xs" fw={700} c="indigo.9" tt="uppercase">
                          {s.scheduledFor ? formatIn(s.scheduledFor, 'MMM', timeZone) : 'TBD'}
                        </Text>
                        <Text fw={700}>{s.scheduledFor ? formatIn(s.scheduledFor, 'D', timeZone) : '--'}</Text>
                      </Paper>
                      <Stack gap={2} style={{ flex: 1 }}>
                        <Text fw={500} size="sm">
                          {s.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          Scheduled to send at{' '}
                          {s.scheduledFor
                            ? `${formatTime(s.scheduledFor, timeZone)} ${timeZoneLabel(timeZone, new Date(s.scheduledFor))}`
                            : '--'}
                          {s.scheduledFor ? <TimeZoneLink /> : null}
                        </Text>
                        <Group gap="xs">
                          <Badge size="sm" variant="light">
                            {s.type}
                          </Badge>
                          <Text size="xs" c="dimmed">
                            {formatNumber(s.recipients)} recipients
                          </Text>
                        </Group>
                      </Stack>
                    </Group>
                  ))}
                </Stack>
              </ListPanel>
            </Grid.Col>
          </Grid>

          <MyFollowUps />

          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              Quick Actions
            </Title>
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
              {QUICK_ACTIONS.map((a) => (
                <Button
                  key={a.to}
                  component={Link}
                  to={a.to}
                  variant="light"
                  h="auto"
                  mih={72}
                  py="sm"
                  leftSection={<a.icon size={18} />}
                  styles={QUICK_ACTION_STYLES}
                >
                  {a.label}
                </Button>
              ))}
            </SimpleGrid>
          </Paper>
        </>
      )}
    </Stack>
  );
}
