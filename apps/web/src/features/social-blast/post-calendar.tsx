import { ActionIcon, Box, Group, Stack, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { SOCIAL_PLATFORM_LABELS, SOCIAL_STATUS_LABELS } from '@lampstand/api/schemas/social-posts';
import { churchFirstDayOfWeek, formatDate, formatLongDate, formatShortDay, formatTime } from '../../ui/format';
import { statusColor } from '../../ui/status-color';
import { PlatformIcons } from './platforms';
import { type SocialPost } from './post-form-values';
import classes from './social-blast.module.css';

export type View = 'month' | 'week' | 'list';

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The weekdays in the order of the church's week (Sunday first in the US, Monday in Australia). */
export function weekdays(): string[] {
  const first = churchFirstDayOfWeek();
  return WEEKDAY_NAMES.map((_, i) => WEEKDAY_NAMES[(i + first) % 7]!);
}

/** Days from the start of the church's week to `d`. */
const intoWeek = (d: Dayjs) => (d.day() - churchFirstDayOfWeek() + 7) % 7;

export const STATUS_COLOR: Record<string, string> = {
  scheduled: statusColor('waiting'),
  posted: statusColor('success'),
  failed: statusColor('failure'),
  draft: statusColor('neutral'),
};

/** The first 20 characters of a post (the spec's calendar cell). */
export const snippet = (content: string) => {
  const chars = Array.from(content.replace(/\s+/g, ' ').trim());
  return chars.length > 20 ? `${chars.slice(0, 20).join('')}…` : chars.join('');
};

/**
 * The days a view shows: whole weeks of the church's (Sunday–Saturday in the US) around the
 * month, one week, or 30 days from today.
 */
export function rangeOf(view: View, anchor: Dayjs): { start: Dayjs; end: Dayjs } {
  if (view === 'month') {
    const first = anchor.startOf('month');
    const start = first.subtract(intoWeek(first), 'day');
    const last = anchor.endOf('month').startOf('day');
    return { start, end: last.add(7 - intoWeek(last), 'day') };
  }
  if (view === 'week') {
    const start = anchor.startOf('day').subtract(intoWeek(anchor), 'day');
    return { start, end: start.add(7, 'day') };
  }
  const start = dayjs().startOf('day');
  return { start, end: start.add(30, 'day') };
}

export function PostChip({
  post,
  onOpen,
  onDelete,
  draggable = true,
}: {
  post: SocialPost;
  onOpen: (p: SocialPost) => void;
  onDelete: (p: SocialPost) => void;
  /** Dragged to another day with a mouse (not on a phone's list of days). */
  draggable?: boolean;
}) {
  const text = snippet(post.content);
  return (
    <div
      className={classes.post}
      data-status={post.status}
      data-testid={`post-${post.id}`}
      draggable={draggable}
      onDragStart={(e) => {
        e.dataTransfer.setData('application/x-social-post', String(post.id));
        e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <UnstyledButton className={classes.postButton} onClick={() => onOpen(post)}>
        <Group gap={4} wrap="nowrap" className={classes.postMeta}>
          <PlatformIcons platforms={post.platforms} decorative />
          {post.status === 'failed' ? (
            <Tooltip label={post.error ?? 'Publishing failed'} withArrow multiline maw={280}>
              <IconAlertTriangle size={14} color="var(--mantine-color-red-8)" aria-hidden />
            </Tooltip>
          ) : null}
        </Group>
        <Text size="xs" className={classes.postText}>
          {text}
          <VisuallyHidden>
            {' '}
            at {formatTime(post.scheduledFor)}, {SOCIAL_STATUS_LABELS[post.status]}, on{' '}
            {post.platforms.map((p) => SOCIAL_PLATFORM_LABELS[p]).join(', ')}
            {post.status === 'failed' && post.error ? `. Failed: ${post.error}` : ''}
          </VisuallyHidden>
        </Text>
      </UnstyledButton>
      <Group gap={0} wrap="nowrap" className={classes.postActions}>
        <ActionIcon size="sm" variant="subtle" aria-label={`Edit post: ${text}`} onClick={() => onOpen(post)}>
          <IconPencil size={14} />
        </ActionIcon>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="red"
          aria-label={`Delete post: ${text}`}
          onClick={() => onDelete(post)}
        >
          <IconTrash size={14} />
        </ActionIcon>
      </Group>
    </div>
  );
}

/** A day's '+' (named 'Add post on Nov 12, 2026'). */
function AddPostButton({ day, onAdd, size }: { day: Dayjs; onAdd: (day: Dayjs) => void; size: 'sm' | 'md' }) {
  return (
    <ActionIcon
      size={size}
      variant="subtle"
      aria-label={`Add post on ${formatDate(day.toDate())}`}
      onClick={() => onAdd(day)}
    >
      <IconPlus size={size === 'sm' ? 14 : 16} />
    </ActionIcon>
  );
}

export function DayCell({
  day,
  posts,
  outside,
  tall,
  onAdd,
  onOpen,
  onDelete,
  onDropPost,
}: {
  day: Dayjs;
  posts: SocialPost[];
  outside: boolean;
  tall: boolean;
  onAdd: (day: Dayjs) => void;
  onOpen: (p: SocialPost) => void;
  onDelete: (p: SocialPost) => void;
  /** A post dragged here (by mouse; the edit dialog moves it by keyboard). */
  onDropPost: (postId: number, day: Dayjs) => void;
}) {
  const today = day.isSame(dayjs(), 'day');
  const label = formatLongDate(day.format('YYYY-MM-DD'));
  const [over, setOver] = useState(false);
  return (
    <Box
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('application/x-social-post')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        const id = Number(e.dataTransfer.getData('application/x-social-post'));
        if (!id) return;
        e.preventDefault();
        onDropPost(id, day);
      }}
      data-drop={over || undefined}
      className={classes.cell}
      data-outside={outside || undefined}
      data-today={today || undefined}
      data-tall={tall || undefined}
      role="group"
      aria-label={label}
      data-date={day.format('YYYY-MM-DD')}
    >
      <Group justify="space-between" gap={4} wrap="nowrap" mb={4}>
        <Text size="sm" fw={today ? 700 : 500} className={classes.dayNumber}>
          {day.format('D')}
        </Text>
        <AddPostButton day={day} onAdd={onAdd} size="sm" />
      </Group>
      <Stack gap={2}>
        {posts.map((p) => (
          <PostChip key={p.id} post={p} onOpen={onOpen} onDelete={onDelete} />
        ))}
      </Stack>
    </Box>
  );
}

/**
 * A phone's month or week: its days one under another, each with its posts and an add button (no
 * drop targets: a post moves to another day in its dialog). A day without posts is one short line.
 */
export function DayList({
  days,
  byDay,
  onAdd,
  onOpen,
  onDelete,
}: {
  days: Dayjs[];
  byDay: Map<string, SocialPost[]>;
  onAdd: (day: Dayjs) => void;
  onOpen: (p: SocialPost) => void;
  onDelete: (p: SocialPost) => void;
}) {
  return (
    <ul className={classes.dayList} aria-label="Days">
      {days.map((day) => {
        const key = day.format('YYYY-MM-DD');
        const posts = byDay.get(key) ?? [];
        const today = day.isSame(dayjs(), 'day');
        return (
          <li key={key} className={classes.dayRow} data-today={today || undefined}>
            <div role="group" aria-label={formatLongDate(key)} data-date={key}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={today ? 700 : posts.length ? 600 : 400} className={classes.dayNumber}>
                  {formatShortDay(key)}
                  {today ? ' · Today' : ''}
                </Text>
                <AddPostButton day={day} onAdd={onAdd} size="md" />
              </Group>
              {posts.length ? (
                <Stack gap={4} mt={4}>
                  {posts.map((p) => (
                    <PostChip key={p.id} post={p} onOpen={onOpen} onDelete={onDelete} draggable={false} />
                  ))}
                </Stack>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
