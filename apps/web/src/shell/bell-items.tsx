import { Center, Loader, Menu, Text, VisuallyHidden } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { BellItem, BellKind } from '@lampstand/api/schemas/waiting';
import { trpc } from '../lib/trpc';
import { useSave } from '../lib/use-save';
import { formatDate } from '../ui/format';
import classes from './app-layout.module.css';

/** What each kind of item is called, and the screen it opens. */
const KINDS: Record<BellKind, { label: string; path: (item: BellItem) => string }> = {
  task: { label: 'Task', path: () => '/tasks' },
  reply: { label: 'Reply', path: (i) => `/conversations/${i.id}` },
  approval: { label: 'Profile update to approve', path: () => '/profile-updates' },
  // The webhooks and their delivery logs are in Settings.
  webhook: { label: 'Webhook', path: () => '/settings/webhooks' },
};

function when(item: BellItem) {
  return item.kind === 'task' && item.dueOn ? `due ${formatDate(item.dueOn)}` : formatDate(item.at);
}

/** The bell's menu: 'Mark all as read', then each item (unread ones marked), linked to its screen. */
export function BellItems() {
  const bell = trpc.waiting.bell.useQuery(undefined, { staleTime: 0 });
  const markRead = useSave(trpc.waiting.markAllRead, {
    errorTitle: 'Could not mark as read',
    invalidate: (utils, counts) => [
      utils.waiting.bell.invalidate(),
      Promise.resolve(utils.waiting.counts.setData(undefined, counts)),
    ],
  });
  const items = bell.data?.items ?? [];
  const unread = bell.data?.unread ?? 0;
  return (
    <>
      <Menu.Label>Notifications</Menu.Label>
      <Menu.Item
        leftSection={<IconChecks size={16} />}
        closeMenuOnClick={false}
        disabled={unread === 0 || markRead.isPending}
        onClick={() => markRead.mutate()}
      >
        Mark all as read
      </Menu.Item>
      <Menu.Divider />
      {bell.isLoading ? (
        <Center p="md">
          <Loader size="sm" aria-label="Loading notifications" />
        </Center>
      ) : bell.isError ? (
        <Text size="sm" c="red.8" p="xs">
          Notifications could not be loaded.
        </Text>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" p="xs">
          Nothing is waiting for you.
        </Text>
      ) : (
        <>
          {items.map((item) => (
            <Menu.Item
              key={`${item.kind}:${item.id}`}
              component={Link}
              to={KINDS[item.kind].path(item)}
              leftSection={<span className={item.unread ? classes.unreadDot : classes.readDot} aria-hidden />}
            >
              <Text size="sm" fw={item.unread ? 700 : 500} lineClamp={2}>
                {item.title}
              </Text>
              {item.detail ? (
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {item.detail}
                </Text>
              ) : null}
              <Text size="xs" c="dimmed">
                {KINDS[item.kind].label} · {when(item)}
                {item.unread ? <VisuallyHidden>, unread</VisuallyHidden> : null}
              </Text>
            </Menu.Item>
          ))}
        </>
      )}
    </>
  );
}
