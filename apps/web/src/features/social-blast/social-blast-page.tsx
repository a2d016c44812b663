import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { useWide } from '../../ui/data-table';
import { PostDialog } from './post-dialog';
import { TIME_ZONE, type SocialPost } from './post-form-values';
import { useDeletePost } from './use-delete-post';
import classes from './social-blast.module.css';
import { type View, weekdays, rangeOf, DayCell, DayList } from './post-calendar';
import { ListView } from './post-list-view';

export function SocialBlastPage() {
  const phone = !useWide();
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
  // On a phone the month is a list of its own days (not the days of the weeks around it).
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
          <Anchor component={Link} to="/settings/social" inherit>
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
        ) : phone ? (
          <DayList
            days={shownDays}
            byDay={byDay}
            onAdd={(day) => open(null, day.format('YYYY-MM-DD'))}
            onOpen={(p) => open(p)}
            onDelete={askDelete}
          />
        ) : (
          <div className={classes.grid} data-view={view}>
            {weekdays().map((w) => (
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
