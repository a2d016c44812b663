import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconListCheck, IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type GivingOverview } from '@lampstand/api/schemas/giving';
import { formatCents } from '@lampstand/api/shared/giving';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmAction } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { formatDate, formatMonth, formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { GivingTabs } from './giving-tabs';

const SOURCE_LABELS: Record<GivingOverview['sources'][number]['source'], string> = {
  qr: 'QR codes',
  link: 'Short links',
  email: 'Emails',
  sms: 'Texts',
  page: 'Landing pages',
  direct: 'Direct (the giving page, batches)',
};

/** 'Nov 2026' for '2026-11', in the church's locale. */
const monthLabel = (month: string) => formatMonth(`${month}-01`);

/** Giving → Overview: the last 12 months at a glance, and the lapsed donors to reach out to. */
export function GivingOverviewPage() {
  const overview = trpc.giving.overview.useQuery();
  const o = overview.data;
  return (
    <>
      <PageHeader title="Giving" description="Funds donors give to, recurring gifts and the gifts received." />
      <GivingTabs />
      {overview.isLoading ? (
        <Stack>
          <Skeleton h={90} />
          <Skeleton h={260} />
        </Stack>
      ) : overview.isError || !o ? (
        <Alert color="red" title="The overview could not be loaded">
          <Button size="xs" variant="light" color="red" onClick={() => void overview.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} component="dl" m={0}>
            {(
              [
                ['Given in the last 12 months', formatCents(o.totalCents)],
                [
                  'Recurring income per month',
                  `${formatCents(o.recurring.monthlyCents)} from ${formatNumber(o.recurring.count)} ${o.recurring.count === 1 ? 'gift' : 'gifts'}`,
                ],
                ['New donors this month', formatNumber(o.newDonorsThisMonth)],
                ['Lapsed donors', formatNumber(o.lapsed.count)],
              ] as const
            ).map(([label, value]) => (
              <Paper key={label} withBorder p="md">
                <Text component="dt" size="sm" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" fw={700} size="xl" m={0}>
                  {value}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>

          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              By month
            </Title>
            <BarChart
              h={260}
              data={o.months.map((m) => ({
                month: monthLabel(m.month),
                recurring: m.recurringCents / 100,
                other: (m.totalCents - m.recurringCents) / 100,
              }))}
              dataKey="month"
              type="stacked"
              withLegend
              aria-label="Gifts by month over the last 12 months, recurring and other"
              series={[
                { name: 'recurring', label: 'Recurring', color: 'indigo.6' },
                { name: 'other', label: 'One-time and batches', color: 'teal.6' },
              ]}
              valueFormatter={(v) => formatCents(Math.round(v * 100))}
              tickLine="y"
            />
          </Paper>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                By fund
              </Title>
              <DataTable
                label="Gifts by fund"
                rows={o.funds}
                rowKey={(f) => f.fundId}
                empty={<Text c="dimmed">No gifts in the last 12 months.</Text>}
                columns={[
                  { header: 'Fund', card: 'title', cell: (f) => f.fundName },
                  { header: 'Last 12 months', cell: (f) => formatCents(f.totalCents) },
                ]}
              />
            </Paper>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                By source
              </Title>
              <DataTable
                label="Gifts by source"
                rows={o.sources.filter((s) => s.count > 0)}
                rowKey={(s) => s.source}
                empty={<Text c="dimmed">No gifts in the last 12 months.</Text>}
                columns={[
                  { header: 'Source', card: 'title', cell: (s) => SOURCE_LABELS[s.source] },
                  { header: 'Gifts', cell: (s) => formatNumber(s.count) },
                  { header: 'Total', cell: (s) => formatCents(s.totalCents) },
                ]}
              />
            </Paper>
          </SimpleGrid>

          <LapsedDonors overview={o} />
        </Stack>
      )}
    </>
  );
}

/** Gave in the last 12 months, nothing in the last 90 days: to a list, or into a journey. */
function LapsedDonors({ overview }: { overview: GivingOverview }) {
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const journeys = trpc.journeys.list.useQuery();
  const [listId, setListId] = useState<string | null>(null);
  const [journeyId, setJourneyId] = useState<string | null>(null);
  const toList = useSave(trpc.giving.lapsedToList, {
    success: (r) => `${formatNumber(r.added)} ${r.added === 1 ? 'donor' : 'donors'} added to the list`,
    errorTitle: 'Failed to add the donors to the list',
  });
  const toJourney = useSave(trpc.giving.lapsedToJourney, {
    success: (r) =>
      `${formatNumber(r.enrolled)} ${r.enrolled === 1 ? 'donor' : 'donors'} entered the journey${r.skipped ? `, ${formatNumber(r.skipped)} left out by its entry rule` : ''}`,
    errorTitle: 'Failed to enrol the donors',
  });
  const { lapsed } = overview;
  const contacts = lapsed.donors.filter((d) => d.contactId !== null).length;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4">
        Lapsed donors
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Gave in the last 12 months, nothing in the last 90 days.
        {lapsed.count > lapsed.donors.length ? ` The ${formatNumber(lapsed.donors.length)} most recent are shown.` : ''}
      </Text>
      {lapsed.count > 0 ? (
        <Group align="flex-end" wrap="wrap" mb="md">
          <Select
            label="Add them to a list"
            placeholder="Choose a list"
            value={listId}
            onChange={setListId}
            data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
          />
          <Button
            variant="default"
            leftSection={<IconListCheck size={18} />}
            disabled={!listId || contacts === 0}
            loading={toList.isPending}
            onClick={() => toList.mutate({ listId: Number(listId) })}
          >
            Add to list
          </Button>
          <Select
            label="Send them to a journey"
            placeholder="Choose an active journey"
            value={journeyId}
            onChange={setJourneyId}
            data={(journeys.data ?? [])
              .filter((j) => j.status === 'active')
              .map((j) => ({ value: String(j.id), label: j.name }))}
          />
          <Button
            variant="default"
            leftSection={<IconRoute size={18} />}
            disabled={!journeyId || contacts === 0}
            loading={toJourney.isPending}
            onClick={() => {
              const journey = journeys.data?.find((j) => String(j.id) === journeyId);
              // A journey sends messages: ask first, naming how many people it reaches.
              const people =
                lapsed.count > lapsed.donors.length
                  ? `up to ${formatNumber(lapsed.count)} lapsed donors`
                  : `${formatNumber(contacts)} lapsed ${contacts === 1 ? 'donor' : 'donors'}`;
              confirmAction({
                title: `Enrol lapsed donors in ${journey?.name ?? 'the journey'}?`,
                text: `${people} will enter it now, as its entry rule allows, and get its messages.`,
                confirm: 'Enrol',
                onConfirm: () => toJourney.mutate({ journeyId: Number(journeyId) }),
              });
            }}
          >
            Enrol
          </Button>
        </Group>
      ) : null}
      <DataTable
        label="Lapsed donors"
        rows={lapsed.donors}
        rowKey={(d) => `${d.contactId ?? d.name}-${d.lastGiftOn}`}
        empty={<Text c="dimmed">No lapsed donors: everyone who gave this year gave in the last 90 days.</Text>}
        columns={[
          {
            header: 'Donor',
            card: 'title',
            cell: (d) =>
              d.contactId !== null ? (
                <Text component={Link} to={`/contacts/detail/${d.contactId}`} c="indigo.8" size="sm">
                  {d.name}
                </Text>
              ) : (
                d.name
              ),
          },
          { header: 'Last gift', cell: (d) => formatDate(d.lastGiftOn) },
          { header: 'Last 12 months', cell: (d) => formatCents(d.totalCents) },
        ]}
      />
    </Paper>
  );
}
