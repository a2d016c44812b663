import { ActionIcon, Button, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useChurchTimeZone } from '../../lib/time-zone';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { useSmsSegments } from '../campaigns/sms-text-count';
import { StatusBadge } from '../email-campaigns/status';
import type { SmsCampaign } from './campaign-form';

/** '2 per person', with the encoding and segments in a tooltip. */
function TextsPerPerson({ content }: { content: string }) {
  const seg = useSmsSegments(content);
  return (
    <Tooltip label={`${seg.encoding} encoding · ${seg.segments} ${seg.segments === 1 ? 'segment' : 'segments'}`}>
      <Text size="sm" span>
        {seg.segments} per person
      </Text>
    </Tooltip>
  );
}

export function SmsCampaignsTable({
  rows,
  listName,
  onEdit,
}: {
  rows: SmsCampaign[];
  listName: (id: string) => string;
  onEdit: (c: SmsCampaign) => void;
}) {
  const utils = trpc.useUtils();
  const timeZone = useChurchTimeZone();
  const { confirmSend } = useSendConfirmation('sms');
  const send = trpc.smsCampaigns.send.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign sent successfully');
      await utils.smsCampaigns.list.invalidate();
    },
    onError: (err) => notifyError('Failed to send campaign', errorMessage(err)),
  });
  const del = trpc.smsCampaigns.delete.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign deleted');
      await utils.smsCampaigns.list.invalidate();
    },
    onError: (err) => notifyError('Error', `Failed to delete campaign: ${errorMessage(err)}`),
  });
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Audience</Table.Th>
            <Table.Th>Texts</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>
              <Text span size="sm" fw={600}>
                Actions
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => {
            const when = c.status === 'scheduled' ? c.scheduledFor : c.sentAt;
            return (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Text fw={500}>{c.name}</Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {c.content}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={c.status} />
                  {c.status === 'sent' || c.status === 'sending' ? (
                    <Text size="xs" c="dimmed">
                      {formatNumber(c.progress.sent)} sent · {formatNumber(c.progress.delivered)} delivered
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{c.listIds.map(listName).join(', ') || '—'}</Table.Td>
                <Table.Td>
                  <TextsPerPerson content={c.content} />
                </Table.Td>
                <Table.Td>{when ? `${formatDate(when, timeZone)} ${formatTime(when, timeZone)}` : '—'}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {['draft', 'scheduled', 'ready'].includes(c.status) ? (
                      <ActionIcon variant="subtle" aria-label={`Edit ${c.name}`} onClick={() => onEdit(c)}>
                        <IconPencil size={18} />
                      </ActionIcon>
                    ) : null}
                    {c.status === 'draft' || c.status === 'ready' ? (
                      <Button
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconSend size={14} />}
                        loading={send.isPending && send.variables?.id === c.id}
                        onClick={() =>
                          void confirmSend({
                            name: c.name,
                            listIds: c.listIds.map(Number),
                            content: c.content,
                            onConfirm: () => send.mutate({ id: c.id }),
                          })
                        }
                        aria-label={`Send ${c.name}`}
                      >
                        Send
                      </Button>
                    ) : null}
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${c.name}`}
                      disabled={c.status === 'sending'}
                      onClick={() =>
                        confirmDestructive({
                          title: `Delete ${c.name}?`,
                          text: <>This permanently deletes the campaign. This action cannot be undone.</>,
                          confirm: 'Delete',
                          onConfirm: () => del.mutate({ id: c.id }),
                        })
                      }
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
