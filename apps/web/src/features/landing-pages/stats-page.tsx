import { Alert, Anchor, Badge, Card, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { formatDate, formatNumber, formatPercent } from '../../ui/format';
import { DataTable } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { SignupDifferences } from './signup-differences';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Card>
  );
}

export function LandingPageStatsPage() {
  const id = Number(useParams().id);
  const page = trpc.landingPages.get.useQuery({ id }, { retry: false });
  const stats = trpc.landingPages.stats.useQuery({ id, days: 30 }, { retry: false });
  if (page.isLoading || stats.isLoading)
    return (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading" />
      </Group>
    );
  if (!page.data || !stats.data)
    return (
      <>
        <PageHeader title="Landing page not found" />
        <Alert color="red">
          This landing page does not exist or belongs to another church.{' '}
          <Anchor component={Link} to="/landing-pages" underline="always">
            Back to Landing Pages
          </Anchor>
        </Alert>
      </>
    );
  const s = stats.data;
  const max = Math.max(1, ...s.perDay.map((d) => d.visits));
  return (
    <>
      <PageHeader
        title={`Visits and sign-ups: ${page.data.name}`}
        description={
          <>
            The last 30 days of{' '}
            <Anchor href={`/p/${page.data.slug}`} target="_blank" underline="always">
              /p/{page.data.slug}
            </Anchor>
            . Crawlers and link previews are not counted; no cookies are used.
          </>
        }
      />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Figure label="Visits" value={formatNumber(s.visits)} />
          <Figure label="Unique visitors" value={formatNumber(s.uniqueVisitors)} />
          <Figure
            label="Sign-ups"
            value={`${formatNumber(s.signups)} (${formatNumber(s.confirmedSignups)} confirmed)`}
          />
          <Figure label="Conversion" value={formatPercent(s.conversionRate)} />
        </SimpleGrid>
        <Paper withBorder p="md">
          <Title order={3} size="h4" mb="sm">
            Visits per day
          </Title>
          {s.perDay.length === 0 ? (
            <Text c="dimmed">No visits in the last 30 days.</Text>
          ) : (
            <Stack gap={6}>
              {s.perDay.map((d) => (
                <Group key={d.day} gap="sm" wrap="nowrap">
                  <Text size="sm" w={110}>
                    {formatDate(`${d.day}T12:00:00`)}
                  </Text>
                  <div
                    aria-hidden
                    style={{
                      height: 14,
                      width: `${(d.visits / max) * 60}%`,
                      minWidth: 4,
                      background: 'var(--mantine-color-indigo-6)',
                      borderRadius: 4,
                    }}
                  />
                  <Text size="sm">
                    {formatNumber(d.visits)} visits, {formatNumber(d.uniqueVisitors)} unique
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Paper>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Paper withBorder p="md">
            <Title order={3} size="h4" mb="sm">
              Sources
            </Title>
            {s.sources.length === 0 ? (
              <Text c="dimmed">No visits yet.</Text>
            ) : (
              <DataTable
                label="Sources"
                rows={s.sources}
                rowKey={(x) => `${x.kind}-${x.value}`}
                table={{ highlightOnHover: false, verticalSpacing: undefined }}
                columns={[
                  {
                    header: 'Source',
                    card: 'title',
                    td: { style: { overflowWrap: 'anywhere' } },
                    cell: (x) => x.label,
                  },
                  { header: 'Visits', td: { ta: 'right' }, th: { ta: 'right' }, cell: (x) => formatNumber(x.visits) },
                ]}
              />
            )}
          </Paper>
          <Paper withBorder p="md">
            <Title order={3} size="h4" mb="sm">
              Recent sign-ups
            </Title>
            {s.recentSignups.length === 0 ? (
              <Text c="dimmed">No sign-ups yet. Add a sign-up form block to the page.</Text>
            ) : (
              <Stack gap="xs">
                {s.recentSignups.map((r) => (
                  <Group key={r.id} justify="space-between" wrap="wrap" gap="xs">
                    <Stack gap={0}>
                      {r.contactId ? (
                        <Anchor component={Link} to={`/contacts/${r.contactId}`} fw={600}>
                          {r.name}
                        </Anchor>
                      ) : (
                        <Text fw={600}>{r.name}</Text>
                      )}
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {r.email} · {formatDate(r.createdAt)} · {r.sourceLabel}
                      </Text>
                    </Stack>
                    <Badge
                      color={r.confirmed ? 'green' : 'yellow'}
                      variant={r.confirmed ? 'light' : 'filled'}
                      c={r.confirmed ? undefined : 'dark'}
                    >
                      {r.confirmed ? 'Confirmed' : 'Awaiting confirmation'}
                    </Badge>
                    <SignupDifferences signup={r} />
                  </Group>
                ))}
              </Stack>
            )}
          </Paper>
        </SimpleGrid>
      </Stack>
    </>
  );
}
