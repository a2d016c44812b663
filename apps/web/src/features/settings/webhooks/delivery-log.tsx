import { Badge, Button, Code, Group, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../../lib/trpc';
import { useSave } from '../../../lib/use-save';
import { formatDate, formatNumber, formatTime } from '../../../ui/format';
import type { Webhook } from './webhook-dialog';

type Delivery = RouterOutputs['webhooks']['deliveries']['deliveries'][number];

/** A delivery's state in words, coloured: delivered, waiting to retry, failed for good. */
function DeliveryStatus({ d }: { d: Delivery }) {
  const code = d.responseStatus ? ` · ${d.responseStatus}` : '';
  if (d.status === 'delivered') return <Badge color="green" variant="light">{`Delivered${code}`}</Badge>;
  if (d.status === 'failed') return <Badge color="red" variant="light">{`Failed${code}`}</Badge>;
  return (
    <Badge color={d.attempts > 0 ? 'orange' : 'gray'} variant="light">
      {d.attempts > 0 ? `Retrying${code}` : 'Pending'}
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
    <Modal opened onClose={onClose} title={`Delivery log: ${webhook.url}`} size={1040} centered>
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
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="xs" aria-label="Deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Attempt</Table.Th>
                  <Table.Th miw={150}>Status</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Response</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      {formatDate(d.lastAttemptAt ?? d.createdAt)} {formatTime(d.lastAttemptAt ?? d.createdAt)}
                    </Table.Td>
                    <Table.Td>
                      <Code>{d.type}</Code>
                    </Table.Td>
                    <Table.Td>{d.attempts}</Table.Td>
                    <Table.Td>
                      <DeliveryStatus d={d} />
                    </Table.Td>
                    <Table.Td>{d.durationMs === null ? '—' : `${formatNumber(d.durationMs)} ms`}</Table.Td>
                    <Table.Td maw={260}>
                      <Text size="xs" ff="monospace" lineClamp={3} style={{ wordBreak: 'break-all' }}>
                        {d.response ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        disabled={!webhook.enabled}
                        aria-label={`Redeliver ${d.type} (delivery ${d.id})`}
                        onClick={() => redeliver.mutate({ id: webhook.id, deliveryId: d.id })}
                      >
                        Redeliver
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Modal>
  );
}
