import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { useChurchTimeZone } from '../../lib/time-zone';
import { confirmDestructive } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
import { useSendConfirmation } from '../campaigns/send-confirmation';
import { campaignRowSaves, campaignWhen, SendCampaignButton } from '../campaigns/campaign-table';
import { DataTable } from '../../ui/data-table';
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
  const timeZone = useChurchTimeZone();
  const { confirmSend } = useSendConfirmation('sms');
  const saves = campaignRowSaves((utils) => utils.smsCampaigns.list.invalidate());
  const send = useSave(trpc.smsCampaigns.send, saves.send);
  const del = useSave(trpc.smsCampaigns.delete, saves.delete);
  return (
    <DataTable
      label="SMS campaigns"
      rows={rows}
      rowKey={(c) => c.id}
      minWidth={760}
      columns={[
        { header: 'Name', card: 'title', td: { fw: 500 }, cell: (c) => c.name, note: (c) => c.content },
        {
          header: 'Status',
          cell: (c) => (
            <>
              <StatusBadge status={c.status} />
              {c.status === 'sent' || c.status === 'sending' ? (
                <Text size="xs" c="dimmed">
                  {formatNumber(c.progress.sent)} sent · {formatNumber(c.progress.delivered)} delivered
                </Text>
              ) : null}
              {c.status === 'failed' && c.error ? (
                <Text size="xs" c="red.8" maw={320}>
                  {c.error}
                </Text>
              ) : null}
            </>
          ),
        },
        { header: 'Audience', cell: (c) => c.listIds.map(listName).join(', ') || '—' },
        { header: 'Texts', cell: (c) => <TextsPerPerson content={c.content} /> },
        { header: 'When', cell: (c) => campaignWhen(c.status === 'scheduled' ? c.scheduledFor : c.sentAt, timeZone) },
      ]}
      actions={(c) => (
        <Group gap={4} wrap="nowrap">
          {['draft', 'scheduled', 'ready'].includes(c.status) ? (
            <ActionIcon variant="subtle" aria-label={`Edit ${c.name}`} onClick={() => onEdit(c)}>
              <IconPencil size={18} />
            </ActionIcon>
          ) : null}
          {c.status === 'draft' || c.status === 'ready' ? (
            <SendCampaignButton
              name={c.name}
              loading={send.isPending && send.variables?.id === c.id}
              onClick={() =>
                void confirmSend({
                  name: c.name,
                  listIds: c.listIds.map(Number),
                  content: c.content,
                  onConfirm: () => send.mutate({ id: c.id }),
                })
              }
            />
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
      )}
    />
  );
}
