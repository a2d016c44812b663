import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconCalendarEvent,
  IconChevronLeft,
  IconChevronRight,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { SOCIAL_PLATFORM_LABELS, SOCIAL_STATUS_LABELS } from '@lampstand/api/schemas/social-posts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { EmptyState } from '../../ui/empty-state';
import { formatDate, formatTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { PlatformIcons } from './platforms';
import { PostDialog, TIME_ZONE, useDeletePost, type SocialPost } from './post-dialog';
import classes from './social-blast.module.css';

type View = 'month' | 'week' | 'list';
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const STATUS_COLOR: Record<string, string> = { scheduled: 'indigo', posted: 'green', failed: 'red', draft: 'gray' };

/** The first 20 characters of a post (the spec's calendar cell). */
const snippet = (content: string) => {
  const chars = Array.from(content.replace(/\s+/g, ' ').trim());
  return chars.length > 20 ? `${chars.slice(0, 20).join('')}…` : chars.join('');
};

/** The days a view shows: whole weeks Sunday–Saturday around the month, one week, or 30 days from today. */
function rangeOf(view: View, anchor: Dayjs): { start: Dayjs; end: Dayjs } {
  if (view === 'month') {
    const first = anchor.startOf('month');
    const start = first.subtract(first.day(), 'day');
    const last = anchor.endOf('month').startOf('day');
    return { start, end: last.add(7 - last.day(), 'day') };
  }
  if (view === 'week') {
    const start = anchor.startOf('day').subtract(anchor.day(), 'day');
    return { start, end: start.add(7, 'day') };
  }
  const start = dayjs().startOf('day');
  return { start, end: start.add(30, 'day') };
}

function PostChip({
  post,
  onOpen,
  onDelete,
}: {
  post: SocialPost;
  onOpen: (p: SocialPost) => void;
  onDelete: (p: SocialPost) => void;
}) {
  const text = snippet(post.content);
  return (
    <div
      className={classes.post}
      data-status={post.status}
      data-testid={`post-${post.id}`}
      draggable
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

function DayCell({
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
  const label = day.format('dddd, MMMM D, YYYY');
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
          <span className={classes.weekdayOnPhone}>{day.format('ddd')} </span>
          {day.format('D')}
          <span className={classes.weekdayOnPhone}> {day.format('MMM')}</span>
        </Text>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={`Add post on ${formatDate(day.toDate())}`}
          onClick={() => onAdd(day)}
        >
          <IconPlus size={14} />
        </ActionIcon>
      </Group>
      <Stack gap={2}>
        {posts.map((p) => (
          <PostChip key={p.id} post={p} onOpen={onOpen} onDelete={onDelete} />
        ))}
      </Stack>
    </Box>
  );
}

function ListView({
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

export function SocialBlastPage() {
  const phone = useMediaQuery('(max-width: 48em)');
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState(() => dayjs().startOf('day'));
  const [dialog, setDialog] = useState<{ post: SocialPost | null; day: string | null; key: number } | null>(null);
  const settings = trpc.socialPosts.settings.useQuery();
  // `?post=<id>` (a draft made by the planner's Announce): open that post on its month.
  const [params] = useSearchParams();
  const linkedId = Number(params.get('post')) || null;
  const linked = trpc.socialPosts.get.useQuery({ id: linkedId ?? 0 }, { enabled: linkedId !== null, retry: false });
  const [openedLink, setOpenedLink] = useState<number | null>(null);
  if (linked.data && openedLink !== linked.data.id) {
    setOpenedLink(linked.data.id);
    setAnchor(dayjs(linked.data.scheduledFor).startOf('day'));
    setDialog({ post: linked.data, day: null, key: linked.data.id });
  }
  const { start, end } = rangeOf(view, anchor);
  const posts = trpc.socialPosts.list.useQuery(
    { from: start.toISOString(), to: end.toISOString() },
    {
      placeholderData: (prev) => prev,
      // Scheduled posts change to posted or failed on their own: look again while any wait.
      refetchInterval: (q) => (q.state.data?.some((p) => p.status === 'scheduled') ? 15_000 : false),
    },
  );
  const askDelete = useDeletePost(() => setDialog(null));
  const moveTo = useSave(trpc.socialPosts.update, {
    success: 'Post updated successfully',
    errorTitle: 'Error',
    errorPrefix: 'Failed to update post',
    invalidate: (utils) => utils.socialPosts.list.invalidate(),
  });
  /** Same time of day, on the day it was dropped on. */
  const dropPost = (postId: number, day: Dayjs) => {
    const p = posts.data?.find((x) => x.id === postId);
    if (!p) return;
    const at = dayjs(p.scheduledFor);
    const next = day.hour(at.hour()).minute(at.minute()).second(0).millisecond(0);
    if (next.isSame(at)) return;
    moveTo.mutate({
      id: p.id,
      content: p.content,
      scheduledFor: next.toISOString(),
      platforms: p.platforms,
      status: p.status,
      imageUrl: p.imageUrl,
      linkUrl: p.linkUrl,
      tags: p.tags,
    });
  };
  const open = (post: SocialPost | null, day: string | null = null) => setDialog({ post, day, key: Date.now() });
  const step = view === 'week' ? 'week' : 'month';
  const move = (n: number) => setAnchor((a) => a.add(n, step));
  const publishingOff = settings.isSuccess && (!settings.data.webhookUrl || !settings.data.hasWebhookSecret);

  const byDay = new Map<string, SocialPost[]>();
  for (const p of posts.data ?? []) {
    const key = dayjs(p.scheduledFor).format('YYYY-MM-DD');
    byDay.set(key, [...(byDay.get(key) ?? []), p]);
  }
  const days: Dayjs[] = [];
  for (let d = start; d.isBefore(end); d = d.add(1, 'day')) days.push(d);
  // On a phone the month is a list of its own days (no empty cells of the weeks around it).
  const shownDays = view === 'month' && phone ? days.filter((d) => d.isSame(anchor, 'month')) : days;
  const heading =
    view === 'month'
      ? anchor.format('MMMM YYYY')
      : view === 'week'
        ? `${formatDate(start.toDate())} – ${formatDate(end.subtract(1, 'day').toDate())}`
        : 'Next 30 days';

  return (
    <>
      <PageHeader
        title="Social Blast"
        description="Plan social media posts on a calendar; they publish at their time."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => open(null, dayjs().format('YYYY-MM-DD'))}>
            Create New Post
          </Button>
        }
      />
      {publishingOff ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Publishing is not set up" mb="md">
          Posts will not publish until a webhook is set in{' '}
          <Anchor component={Link} to="/settings#social" inherit>
            Settings → Social
          </Anchor>
          . Until then they stay scheduled.
        </Alert>
      ) : null}
      <Paper withBorder p={phone ? 'xs' : 'md'}>
        <Group justify="space-between" mb="md" gap="sm" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            {view !== 'list' ? (
              <>
                <ActionIcon variant="default" size="lg" aria-label={`Previous ${step}`} onClick={() => move(-1)}>
                  <IconChevronLeft size={18} />
                </ActionIcon>
                <ActionIcon variant="default" size="lg" aria-label={`Next ${step}`} onClick={() => move(1)}>
                  <IconChevronRight size={18} />
                </ActionIcon>
                <Button variant="default" onClick={() => setAnchor(dayjs().startOf('day'))}>
                  Today
                </Button>
              </>
            ) : null}
            <Title order={2} size="h4" ml="xs" aria-live="polite">
              {heading}
            </Title>
          </Group>
          <SegmentedControl
            aria-label="Calendar view"
            value={view}
            onChange={(v) => setView(v)}
            data={[
              { value: 'month', label: 'Month' },
              { value: 'week', label: 'Week' },
              { value: 'list', label: 'Next 30 days' },
            ]}
          />
        </Group>
        <Text size="xs" c="dimmed" mb="xs">
          Times are in {TIME_ZONE}.
        </Text>
        {posts.isError ? (
          <Alert color="red" title="Failed to fetch social posts" mb="md" icon={<IconAlertTriangle size={18} />}>
            <Group justify="space-between">
              <Text size="sm">{posts.error.message}</Text>
              <Button size="xs" variant="white" color="red" onClick={() => void posts.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        ) : posts.isLoading ? (
          <Skeleton h={420} />
        ) : view === 'list' ? (
          <ListView
            posts={posts.data ?? []}
            onOpen={(p) => open(p)}
            onDelete={askDelete}
            onCreate={() => open(null, dayjs().format('YYYY-MM-DD'))}
          />
        ) : (
          <div className={classes.grid} data-view={view}>
            {WEEKDAYS.map((w) => (
              <div key={w} className={classes.weekday} aria-hidden>
                {w.slice(0, 3)}
              </div>
            ))}
            {shownDays.map((d) => (
              <DayCell
                key={d.format('YYYY-MM-DD')}
                day={d}
                posts={byDay.get(d.format('YYYY-MM-DD')) ?? []}
                outside={view === 'month' && !d.isSame(anchor, 'month')}
                tall={view === 'week'}
                onAdd={(day) => open(null, day.format('YYYY-MM-DD'))}
                onOpen={(p) => open(p)}
                onDelete={askDelete}
                onDropPost={dropPost}
              />
            ))}
          </div>
        )}
      </Paper>
      {dialog ? (
        <PostDialog
          key={dialog.key}
          opened
          post={dialog.post}
          day={dialog.day}
          onClose={() => setDialog(null)}
          onDelete={askDelete}
        />
      ) : null}
    </>
  );
}
