import { ActionIcon, Anchor, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { IconChartBar, IconCopy, IconDots, IconDownload, IconPencil, IconTrash } from '@tabler/icons-react';
import { showFailure } from '../../lib/use-save';
import { formatDate, formatTime } from '../../ui/format';
import { notifySuccess } from '../../ui/notify';
import type { QrCode } from './qr-form-values';

export const thumb = (c: QrCode) => `/api/qr-codes/${c.id}/image?size=100&v=${encodeURIComponent(c.updatedAt)}`;

export async function copyLink(c: QrCode) {
  const text = c.shortUrl ?? c.url;
  try {
    await navigator.clipboard.writeText(text);
    if (c.shortUrl) notifySuccess('Link copied', text);
    else notifySuccess('URL Copied', text);
  } catch {
    showFailure({ errorTitle: 'Could not copy' }, text);
  }
}

export function Destination({ c }: { c: QrCode }) {
  return (
    <Stack gap={2} maw={260}>
      <Anchor href={c.currentUrl} target="_blank" rel="noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
        {c.currentUrl}
      </Anchor>
      {c.shortUrl ? (
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          Short link: {c.shortUrl}
        </Text>
      ) : null}
      {c.nextChange ? (
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          From {formatDate(c.nextChange.at)} {formatTime(c.nextChange.at)}: {c.nextChange.url}
        </Text>
      ) : null}
    </Stack>
  );
}

export function Actions({
  c,
  onEdit,
  onDelete,
  onScans,
}: {
  c: QrCode;
  onEdit: () => void;
  onDelete: () => void;
  onScans: () => void;
}) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={c.shortUrl ? 'Copy link' : 'Copy URL'}>
        <ActionIcon variant="subtle" aria-label={`Copy link for ${c.name}`} onClick={() => void copyLink(c)}>
          <IconCopy size={18} />
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions for ${c.name}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            component="a"
            href={c.downloadUrl}
            target="_blank"
            rel="noopener"
            leftSection={<IconDownload size={16} />}
          >
            Download PNG
          </Menu.Item>
          <Menu.Item
            component="a"
            href={`${c.downloadUrl}?format=svg`}
            target="_blank"
            rel="noopener"
            leftSection={<IconDownload size={16} />}
          >
            Download SVG for print shops
          </Menu.Item>
          <Menu.Item leftSection={<IconChartBar size={16} />} onClick={onScans}>
            Scans
          </Menu.Item>
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
            Edit
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
