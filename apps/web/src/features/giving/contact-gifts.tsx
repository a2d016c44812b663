import { Alert, Anchor, Badge, Button, Group, Pagination, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { FREQUENCY_LABELS, type GIFT_STATUSES } from '@lampstand/api/schemas/giving';
import { formatCents, goodsServicesText } from '@lampstand/api/shared/giving';
import { trpc } from '../../lib/trpc';
import { DataTable } from '../../ui/data-table';
import { formatDate } from '../../ui/format';
import { DonorStatement } from './donor-statement';

const PAGE_SIZE = 10;
const STATUS_LABEL: Record<(typeof GIFT_STATUSES)[number], string> = {
  pending: 'Pending',
  completed: 'Received',
  failed: 'Failed',
  refunded: 'Refunded',
  disputed: 'Disputed',
};
const STATUS_COLOR: Record<(typeof GIFT_STATUSES)[number], string> = {
  pending: 'gray',
  completed: 'green',
  failed: 'red',
  refunded: 'gray',
  disputed: 'orange',
};
const METHOD_LABEL = { card: 'Card', cash: 'Cash', check: 'Check', other: 'Other' } as const;

/** A contact's gifts to the church's funds, newest first, a page at a time, and their statement for a year. */
export function ContactGifts({ contactId }: { contactId: number }) {
  const [page, setPage] = useState(1);
  const gifts = trpc.giving.gifts.useQuery({ contactId, page, pageSize: PAGE_SIZE });
  if (gifts.isLoading) return <Skeleton h={120} />;
  if (gifts.isError || !gifts.data)
    return (
      <Alert color="red" title="Gifts could not be loaded">
        <Button size="xs" variant="light" color="red" onClick={() => void gifts.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  const { total } = gifts.data;
  return (
    <Stack gap="sm">
      {total > 0 ? <DonorStatement contactId={contactId} /> : null}
      <DataTable
        label="Gifts"
        rows={gifts.data.gifts}
        rowKey={(g) => g.id}
        empty={<Text c="dimmed">No gifts yet.</Text>}
        columns={[
          {
            header: 'Date',
            card: 'title',
            cell: (g) => formatDate(g.completedAt ?? g.createdAt),
          },
          {
            header: 'Amount',
            cell: (g) => formatCents(g.amountCents),
            note: (g) =>
              [
                g.feeCents ? `${formatCents(g.feeCents)} fees covered` : null,
                g.status === 'completed' && g.refundedCents > 0
                  ? `${formatCents(g.refundedCents)} refunded: ${formatCents(g.amountCents - g.refundedCents)} kept`
                  : null,
                g.goodsServices ? `Received: ${goodsServicesText(g.goodsServices, g.goodsServicesCents)}` : null,
              ]
                .filter(Boolean)
                .join(' · ') || null,
          },
          {
            header: 'Funds',
            cell: (g) => g.lines.map((l) => `${l.fundName} ${formatCents(l.amountCents)}`).join(', '),
          },
          {
            header: 'How',
            cell: (g) =>
              g.frequency === 'one_time'
                ? METHOD_LABEL[g.method]
                : `${METHOD_LABEL[g.method]}, ${FREQUENCY_LABELS[g.frequency].toLowerCase()}`,
          },
          {
            header: 'Status',
            cell: (g) => (
              <Badge variant="light" color={STATUS_COLOR[g.status]} title={g.failureReason ?? undefined}>
                {STATUS_LABEL[g.status]}
              </Badge>
            ),
          },
        ]}
      />
      <Group justify="space-between" wrap="wrap">
        <Anchor component={Link} to="/giving/recurring" size="sm">
          Recurring gifts
        </Anchor>
        {total > PAGE_SIZE ? (
          <Pagination
            total={Math.ceil(total / PAGE_SIZE)}
            value={page}
            onChange={setPage}
            size="sm"
            getControlProps={(c) => ({
              'aria-label': c === 'previous' ? 'Previous page' : c === 'next' ? 'Next page' : c,
            })}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          />
        ) : null}
      </Group>
    </Stack>
  );
}
