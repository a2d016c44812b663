import { Alert, Anchor, Badge, Button, CopyButton, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { RouterOutputs } from '@lampstand/api';
import { FREQUENCY_LABELS } from '@lampstand/api/schemas/giving';
import { RENEWAL_STATUS_LABELS } from '@lampstand/api/schemas/gift-renewals';
import { trpc } from '../../lib/trpc';
import { DataTable, type Column } from '../../ui/data-table';
import { formatDate, formatNumber, formatUsd } from '../../ui/format';
import type { MoveIn } from './move-in-preview';

const cents = (n: number) => formatUsd(n / 100);
const count = (n: number, noun: string) => `${formatNumber(n)} ${noun}${n === 1 ? '' : 's'}`;
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
        {count(r.count, 'recurring gift')} ({count(r.donorsMatched, 'giver')} found among your contacts,{' '}
        {formatNumber(r.donorsNotFound)} not found; {count(r.inactive, 'stopped gift')} left out):{' '}
        {cents(r.monthlyCents)} per month. Each giver gets a personal link to set the gift up again; no card moves.
      </Text>
      <Table aria-label="Per fund">
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

/** What the journey does now, after its name. */
const JOURNEY_DOES: Record<string, string> = {
  active: 'sends each giver their link.',
  paused: 'is paused: no link goes out until it is resumed.',
  draft: 'is a draft: no link goes out until it is started.',
};

type Renewal = RouterOutputs['imports']['recurring']['renewals'][number];

const COLUMNS: Column<Renewal>[] = [
  {
    header: 'Giver',
    card: 'title',
    cell: (r) => r.donorName,
    note: (r) => `${FREQUENCY_LABELS[r.frequency]} from ${formatDate(r.startDate)}`,
  },
  {
    header: 'Per month',
    cell: (r) => cents(r.monthlyCents),
    th: { ta: 'right', style: { whiteSpace: 'nowrap' } },
    td: { ta: 'right' },
  },
  {
    header: 'Status',
    cell: (r) => (
      <Badge color={STATUS_COLORS[r.status]} variant="light">
        {RENEWAL_STATUS_LABELS[r.status]}
      </Badge>
    ),
  },
];

/** A giver's personal link to copy (to send it by hand); the list leaves it out once they have set their gift up again. */
function CopyLink({ name, link }: { name: string; link: string }) {
  return (
    <CopyButton value={link}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant="default"
          onClick={copy}
          aria-label={copied ? `Copied the link for ${name}` : `Copy link for ${name}`}
        >
          {copied ? 'Copied' : 'Copy link'}
        </Button>
      )}
    </CopyButton>
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
            <Text ta="center">
              No recurring givers yet. Import your old system’s recurring-gift export under Move in.
            </Text>
            <Button component={Link} to="/settings/move-in" variant="default">
              Go to Move in
            </Button>
          </Stack>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} data-testid="re-enrolment-totals">
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
                The journey{' '}
                <Anchor component={Link} to={`/journeys/${data.journey.id}`} inherit>
                  {data.journey.name}
                </Anchor>{' '}
                {JOURNEY_DOES[data.journey.status] ?? 'sends each giver their link.'}
              </Text>
            ) : null}
            <DataTable
              label="Recurring givers"
              rows={data.renewals}
              rowKey={(r) => r.id}
              columns={COLUMNS}
              actions={(r) => (r.link && r.status !== 'renewed' ? <CopyLink name={r.donorName} link={r.link} /> : null)}
              actionsHeader="hidden"
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
