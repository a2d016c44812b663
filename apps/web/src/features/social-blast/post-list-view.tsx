import { ActionIcon, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconPencil, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { SOCIAL_STATUS_LABELS } from '@lampstand/api/schemas/social-posts';
import { EmptyState } from '../../ui/empty-state';
import { formatDate, formatTime } from '../../ui/format';
import { PlatformIcons } from './platforms';
import { type SocialPost } from './post-form-values';
import classes from './social-blast.module.css';
import { STATUS_COLOR, snippet } from './post-calendar';

export function ListView({
  posts,
  onOpen,
  onDelete,
  onCreate,
}: {
  posts: SocialPost[];
  onOpen: (p: SocialPost) => void;
  onDelete: (p: SocialPost) => void;
  onCreate: () => void;
}) {
  if (posts.length === 0)
    return (
      <EmptyState
        icon={<IconCalendarEvent size={24} />}
        title="No posts in the next 30 days"
        description="Plan what to share and when; scheduled posts publish on their own."
        action={<Button onClick={onCreate}>Create New Post</Button>}
      />
    );
  const byDay = new Map<string, SocialPost[]>();
  for (const p of posts) {
    const key = dayjs(p.scheduledFor).format('YYYY-MM-DD');
    byDay.set(key, [...(byDay.get(key) ?? []), p]);
  }
  return (
    <Stack gap="md">
      {[...byDay.entries()].map(([key, dayPosts]) => (
        <Stack key={key} gap="xs">
          <Title order={3} size="h5">
            {dayjs(key).format('dddd')}, {formatDate(key)}
          </Title>
          {dayPosts.map((p) => (
            <Paper key={p.id} withBorder p="sm" className={classes.listItem} data-status={p.status}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text size="sm" fw={600}>
                      {formatTime(p.scheduledFor)}
                    </Text>
                    <PlatformIcons platforms={p.platforms} size={16} />
                    <Badge variant="light" color={STATUS_COLOR[p.status]} size="sm">
                      {SOCIAL_STATUS_LABELS[p.status]}
                    </Badge>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={4}>
                    {p.content}
                  </Text>
                  {p.error ? (
                    <Text size="xs" c="red.8">
                      {p.status === 'failed' ? 'Failed: ' : 'Last try failed, trying again: '}
                      {p.error}
                    </Text>
                  ) : null}
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Edit post: ${snippet(p.content)}`}
                    onClick={() => onOpen(p)}
                  >
                    <IconPencil size={18} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete post: ${snippet(p.content)}`}
                    onClick={() => onDelete(p)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
