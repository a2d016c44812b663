import { Alert, Badge, Button, CopyButton, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { FREQUENCY_LABELS } from '@lampstand/api/schemas/giving';
import { RENEWAL_STATUS_LABELS } from '@lampstand/api/schemas/gift-renewals';
import { trpc } from '../../lib/trpc';
import { formatDate, formatNumber, formatUsd } from '../../ui/format';
import type { MoveIn } from './move-in-preview';

const cents = (n: number) => formatUsd(n / 100);
const STATUS_COLORS = { renewed: 'green', link_sent: 'blue', not_yet: 'gray' } as const;

/** The dry run of a recurring-gift export: givers found, per month, and per fund. */
export function RecurringPreview({ imp }: { imp: MoveIn }) {
  const r = imp.preview.recurring;
  if (!r) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Recurring givers
      </Title>
      <Text size="sm">
        {formatNumber(r.count)} recurring gifts ({formatNumber(r.donorsMatched)} givers found among your contacts,{' '}
        {formatNumber(r.donorsNotFound)} not found; {formatNumber(r.inactive)} stopped gifts left out):{' '}
        {cents(r.monthlyCents)} per month. Each giver gets a personal link to set the gift up again; no card moves.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fund</Table.Th>
            <Table.Th ta="right">Per month</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {r.funds.map((f) => (
            <Table.Tr key={f.name}>
              <Table.Td>
                {f.name} {f.isNew ? <Badge variant="light">New fund</Badge> : null}
              </Table.Td>
              <Table.Td ta="right">{cents(f.monthlyCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Settings → Re-enrolment: who has set their recurring gift up again since the move, and what it brings back. */
export function RecurringGiversSection() {
  const q = trpc.imports.recurring.useQuery();
  if (q.error)
    return (
      <Alert color="red" title="The recurring givers could not load">
        {q.error.message}
      </Alert>
    );
  const data = q.data;
  return (
    <Paper withBorder p="lg">
      <Stack>
        <div>
          <Title order={2} size="h3">
            Re-enrolment
          </Title>
          <Text c="dimmed" size="sm">
            Recurring givers from your old system, each with a personal link to set their gift up again.
          </Text>
        </div>
        {!data ? null : data.renewals.length === 0 ? (
          <Stack align="center" gap="xs" py="lg">
            <IconRepeat size={32} aria-hidden />
            <Text>No recurring givers yet. Import your old system’s recurring-gift export under Move in.</Text>
            <Button component="a" href="/settings/move-in" variant="default">
              Go to Move in
            </Button>
          </Stack>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <div>
                <Text size="xs" c="dimmed">
                  Re-enrolled
                </Text>
                <Text fw={600} size="lg">
                  {formatNumber(data.totals.renewed)} of {formatNumber(data.totals.givers)}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Per month recovered
                </Text>
                <Text fw={600} size="lg">
                  {cents(data.totals.monthlyCentsRecovered)} of {cents(data.totals.monthlyCentsBefore)}
                </Text>
              </div>
            </SimpleGrid>
            {data.journey ? (
              <Text size="sm">
                The journey <a href={`/journeys/${data.journey.id}`}>{data.journey.name}</a> sends each link (
                {data.journey.status}).
              </Text>
            ) : null}
            <Table.ScrollContainer minWidth={560}>
              <Table stickyHeader>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Giver</Table.Th>
                    <Table.Th ta="right">Per month</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Link</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.renewals.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>
                        <Text size="sm">{r.donorName}</Text>
                        <Text size="xs" c="dimmed">
                          {FREQUENCY_LABELS[r.frequency]} from {formatDate(r.startDate)}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">{cents(r.monthlyCents)}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLORS[r.status]} variant="light">
                          {RENEWAL_STATUS_LABELS[r.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {r.link && r.status !== 'renewed' ? (
                          <CopyButton value={r.link}>
                            {({ copied, copy }) => (
                              <Button
                                size="xs"
                                variant="default"
                                onClick={copy}
                                aria-label={`Copy ${r.donorName}’s link`}
                              >
                                {copied ? 'Copied' : 'Copy link'}
                              </Button>
                            )}
                          </CopyButton>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Stack>
    </Paper>
  );
}
