import { Badge, Button, Code, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../../lib/trpc';
import { useSave } from '../../../lib/use-save';
import { DataTable } from '../../../ui/data-table';
import { formatDate, formatNumber, formatTime } from '../../../ui/format';
import type { Webhook } from './webhook-dialog';
import { eventDescription } from '@lampstand/api/shared/event-words';
import { ForDeveloper } from '../../../ui/for-developer';
import { statusColor } from '../../../ui/status-color';

type Delivery = RouterOutputs['webhooks']['deliveries']['deliveries'][number];

/** A delivery's state in words, coloured: delivered, waiting (to be sent, to retry), failed for good. */
function DeliveryStatus({ d }: { d: Delivery }) {
  if (d.status === 'delivered')
    return (
      <Badge color={statusColor('success')} variant="light">
        Delivered
      </Badge>
    );
  if (d.status === 'failed')
    return (
      <Badge color={statusColor('failure')} variant="light">
        Failed
      </Badge>
    );
  return (
    <Badge color={statusColor('waiting')} variant="light">
      {d.attempts > 0 ? 'Retrying' : 'Pending'}
    </Badge>
  );
}

/**
 * An endpoint's delivery log, newest first: time, event type, attempt, status, duration and the
 * start of the answer, with Redeliver on each and Send test event above. Refreshes while open.
 */
export function DeliveryLog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const log = trpc.webhooks.deliveries.useQuery({ id: webhook.id, limit: 25 }, { refetchInterval: 2000 });
  const invalidate = (utils: ReturnType<typeof trpc.useUtils>) =>
    utils.webhooks.deliveries.invalidate({ id: webhook.id });
  const test = useSave(trpc.webhooks.test, {
    success: ['Test event sent', 'It appears in the log below.'],
    errorTitle: 'Failed to send test event',
    invalidate,
  });
  const redeliver = useSave(trpc.webhooks.redeliver, {
    success: 'Redelivery queued',
    errorTitle: 'Failed to redeliver',
    invalidate,
  });
  const rows = log.data?.deliveries ?? [];
  return (
    <Modal
      opened
      onClose={onClose}
      title={
        <>
          Delivery log: <span style={{ overflowWrap: 'anywhere' }}>{webhook.url}</span>
        </>
      }
      size={1040}
      centered
    >
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            Failed deliveries are retried for about 3 days (after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h).
          </Text>
          <Button
            variant="default"
            loading={test.isPending}
            onClick={() => test.mutate({ id: webhook.id })}
            disabled={!webhook.enabled}
          >
            Send test event
          </Button>
        </Group>
        {log.isLoading ? (
          <Skeleton h={120} />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            No deliveries yet.
          </Text>
        ) : (
          <DataTable
            label="Deliveries"
            rows={rows}
            rowKey={(d) => d.id}
            minWidth={760}
            table={{ verticalSpacing: 'xs' }}
            columns={[
              {
                header: 'Time',
                card: 'title',
                cell: (d) =>
                  `${formatDate(d.lastAttemptAt ?? d.createdAt)} ${formatTime(d.lastAttemptAt ?? d.createdAt)}`,
              },
              {
                header: 'Event',
                cell: (d) => (
                  <>
                    {eventDescription(d.type)}
                    <ForDeveloper label="Event id">
                      <Code>{d.type}</Code>
                    </ForDeveloper>
                  </>
                ),
              },
              { header: 'Attempt', cell: (d) => d.attempts },
              { header: 'Status', cell: (d) => <DeliveryStatus d={d} />, th: { miw: 150 } },
              { header: 'Duration', cell: (d) => (d.durationMs === null ? '—' : `${formatNumber(d.durationMs)} ms`) },
              {
                header: 'Response',
                td: { maw: 260 },
                cell: (d) => (
                  <Text size="xs" ff="monospace" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                    {d.responseStatus || d.response ? `${d.responseStatus ?? ''} ${d.response ?? ''}`.trim() : '—'}
                  </Text>
                ),
              },
            ]}
            actions={(d) => (
              <Button
                size="xs"
                variant="subtle"
                disabled={!webhook.enabled}
                aria-label={`Redeliver ${eventDescription(d.type).toLowerCase()} (delivery ${d.id})`}
                onClick={() => redeliver.mutate({ id: webhook.id, deliveryId: d.id })}
              >
                Redeliver
              </Button>
            )}
          />
        )}
      </Stack>
    </Modal>
  );
}
