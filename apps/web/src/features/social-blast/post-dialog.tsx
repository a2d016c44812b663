import '@mantine/dates/styles.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Image,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DatePickerInput, TimeInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCalendar, IconClock, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { RouterOutputs } from '@lampstand/api';
import {
  isImageUrl,
  platformsOverLimit,
  socialLength,
  socialPostFieldsSchema,
  SOCIAL_PLATFORM_LABELS,
  SOCIAL_PLATFORM_LIMITS,
  SOCIAL_PLATFORMS,
  SOCIAL_POST_STATUSES,
  SOCIAL_STATUS_LABELS,
  type SocialPlatform,
  type SocialPostStatus,
} from '@lampstand/api/schemas/social-posts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { ImageUpload } from '../../ui/image-upload';
import { PlatformIcon } from './platforms';
import classes from './social-blast.module.css';

export type SocialPost = RouterOutputs['socialPosts']['list'][number];

interface Values {
  content: string;
  /** 'YYYY-MM-DD' */
  date: string | null;
  /** 'HH:mm' */
  time: string;
  platforms: string[];
  status: SocialPostStatus;
  imageUrl: string;
  linkUrl: string;
  tags: string[];
}

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function toPayload(v: Values) {
  const at = v.date ? dayjs(`${v.date}T${v.time || '09:00'}`) : null;
  return {
    content: v.content,
    scheduledFor: at && at.isValid() ? at.toISOString() : '',
    platforms: v.platforms,
    status: v.status,
    imageUrl: v.imageUrl,
    linkUrl: v.linkUrl,
    tags: v.tags,
  };
}

/** Where each field's message shows: the schedule's on the date. */
const FIELD: Record<string, string> = { scheduledFor: 'date' };

/**
 * 'Schedule New Social Post' (with `day`, on that day at 9:00) or 'Edit Social Post'. New posts
 * default to Facebook and scheduled, as the spec says; all four statuses can be set.
 */
export function PostDialog({
  post,
  day,
  opened,
  onClose,
  onDelete,
}: {
  post: SocialPost | null;
  day: string | null;
  opened: boolean;
  onClose: () => void;
  onDelete: (post: SocialPost) => void;
}) {
  const utils = trpc.useUtils();
  const at = post ? dayjs(post.scheduledFor) : null;
  const [imageSource, setImageSource] = useState<'upload' | 'url'>(
    post?.imageUrl && !post.imageUrl.startsWith('/uploads/') ? 'url' : 'upload',
  );
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      content: post?.content ?? '',
      date: at ? at.format('YYYY-MM-DD') : (day ?? null),
      time: at ? at.format('HH:mm') : '09:00',
      platforms: post?.platforms ?? ['facebook'],
      status: post?.status ?? 'scheduled',
      imageUrl: post?.imageUrl ?? '',
      linkUrl: post?.linkUrl ?? '',
      tags: post?.tags ?? [],
    },
    validate: (v) => {
      const r = socialPostFieldsSchema.safeParse(toPayload(v));
      const errors: Record<string, string> = {};
      if (!r.success)
        for (const i of r.error.issues) {
          const key = String(i.path[0]);
          errors[FIELD[key] ?? key] ??= i.message;
        }
      return errors;
    },
  });
  const done = async () => {
    await utils.socialPosts.list.invalidate();
    onClose();
  };
  const create = useSave(trpc.socialPosts.create, {
    success: 'Post scheduled successfully',
    errorTitle: 'Error',
    errorPrefix: 'Failed to schedule post',
    onSuccess: done,
  });
  const update = useSave(trpc.socialPosts.update, {
    success: 'Post updated successfully',
    errorTitle: 'Error',
    errorPrefix: 'Failed to update post',
    onSuccess: done,
  });
  const saving = create.isPending || update.isPending;
  // Typed work is never thrown away silently: closing a changed form asks first.
  const close = () => {
    if (!form.isDirty()) return onClose();
    modals.openConfirmModal({
      title: 'Discard changes?',
      children: <Text size="sm">This post has changes that are not saved.</Text>,
      labels: { confirm: 'Discard', cancel: 'Keep editing' },
      confirmProps: { color: 'red' },
      onConfirm: onClose,
    });
  };
  const submit = form.onSubmit((v) => {
    const payload = socialPostFieldsSchema.parse(toPayload(v));
    if (post) update.mutate({ id: post.id, ...payload });
    else create.mutate(payload);
  });

  const v = form.values;
  const length = socialLength(v.content);
  const over = platformsOverLimit(v.content, v.platforms);
  const chosen = SOCIAL_PLATFORMS.filter((p) => v.platforms.includes(p));
  const previewable = v.imageUrl.trim() !== '' && isImageUrl(v.imageUrl.trim());
  const title = post ? 'Edit Social Post' : 'Schedule New Social Post';

  return (
    <Modal opened={opened} onClose={close} title={title} size={600}>
      <form onSubmit={submit} noValidate>
        <Stack className={classes.dialog}>
          {post?.status === 'failed' && post.error ? (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Publishing failed">
              {post.error}
            </Alert>
          ) : null}
          {post?.status === 'scheduled' && post.error ? (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Last try failed; trying again">
              {post.error}
            </Alert>
          ) : null}
          {post?.status === 'posted' && post.postedAt ? (
            <Text size="sm" c="dimmed">
              Posted on {formatDate(post.postedAt)} at {formatTime(post.postedAt)}.
            </Text>
          ) : null}
          <Textarea
            label="Post Content"
            placeholder="What would you like to share?"
            withAsterisk
            autosize
            minRows={4}
            maxRows={12}
            {...form.getInputProps('content')}
          />
          {chosen.length > 0 ? (
            <Stack gap={2} aria-live="polite" data-testid="length-counter">
              {chosen.map((p) => {
                const limit = SOCIAL_PLATFORM_LIMITS[p];
                const tooLong = length > limit;
                return (
                  <Group key={p} gap={6} wrap="nowrap">
                    <PlatformIcon platform={p} size={14} />
                    <Text size="xs" c={tooLong ? 'red.8' : 'dimmed'} fw={tooLong ? 600 : undefined}>
                      {SOCIAL_PLATFORM_LABELS[p]}: {formatNumber(length)} / {formatNumber(limit)}
                      {tooLong ? ` (${formatNumber(length - limit)} too many)` : ''}
                    </Text>
                  </Group>
                );
              })}
            </Stack>
          ) : null}
          {over.length > 0 ? (
            <Alert color="orange" icon={<IconAlertTriangle size={18} />} p="xs">
              Too long for {over.map((p) => SOCIAL_PLATFORM_LABELS[p]).join(' and ')}: shorten it, or it may be cut off
              or refused there.
            </Alert>
          ) : null}
          <Group grow align="flex-start" wrap="wrap">
            <DatePickerInput
              label="Schedule Date"
              withAsterisk
              valueFormat="MMM D, YYYY"
              leftSection={<IconCalendar size={18} aria-hidden />}
              miw={180}
              {...form.getInputProps('date')}
            />
            <TimeInput
              label={`Time (${TIME_ZONE})`}
              leftSection={<IconClock size={18} aria-hidden />}
              miw={140}
              {...form.getInputProps('time')}
            />
          </Group>
          {v.status === 'scheduled' &&
          toPayload(v).scheduledFor &&
          dayjs(toPayload(v).scheduledFor).isBefore(dayjs()) ? (
            <Text size="sm" c="var(--mantine-color-orange-light-color)" role="status">
              This time has passed: a scheduled post is published as soon as it is saved.
            </Text>
          ) : null}
          <Checkbox.Group label="Platforms" withAsterisk {...form.getInputProps('platforms')}>
            <Group mt="xs" gap="md">
              {SOCIAL_PLATFORMS.map((p: SocialPlatform) => (
                <Checkbox key={p} value={p} label={SOCIAL_PLATFORM_LABELS[p]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Select
            label="Status"
            data={SOCIAL_POST_STATUSES.map((s) => ({ value: s, label: SOCIAL_STATUS_LABELS[s] }))}
            allowDeselect={false}
            {...form.getInputProps('status')}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500} id="image-source-label">
              Image
            </Text>
            <SegmentedControl
              aria-labelledby="image-source-label"
              value={imageSource}
              onChange={(s) => setImageSource(s)}
              data={[
                { value: 'upload', label: 'Upload' },
                { value: 'url', label: 'From a URL' },
              ]}
              maw={280}
            />
            {imageSource === 'upload' ? (
              <ImageUpload
                label="Image file"
                value={v.imageUrl ? { url: v.imageUrl } : null}
                onChange={(img) => form.setFieldValue('imageUrl', img?.url ?? '')}
              />
            ) : (
              <>
                <TextInput
                  label="Image URL"
                  placeholder="https://example.org/picture.jpg"
                  {...form.getInputProps('imageUrl')}
                />
                {previewable ? (
                  <Image src={v.imageUrl.trim()} alt="Image preview" maw={240} mah={160} fit="contain" radius="sm" />
                ) : null}
              </>
            )}
          </Stack>
          <TextInput label="Link URL" placeholder="https://" {...form.getInputProps('linkUrl')} />
          <TagsInput
            label="Tags"
            description="Press Enter after each tag"
            placeholder="Add a tag"
            maxTags={20}
            {...form.getInputProps('tags')}
          />
          <Group justify="space-between" mt="sm">
            {post ? (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={18} aria-hidden />}
                onClick={() => onDelete(post)}
              >
                Delete
              </Button>
            ) : (
              <span />
            )}
            <Group>
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={saving}>
                {post ? 'Update Post' : 'Schedule Post'}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The spec's delete confirmation, then the delete with its toasts. */
export function useDeletePost(onDeleted?: () => void) {
  const del = useSave(trpc.socialPosts.delete, {
    success: 'Post deleted successfully',
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete post',
    invalidate: (utils) => utils.socialPosts.list.invalidate(),
    onSuccess: () => onDeleted?.(),
  });
  return (post: SocialPost) =>
    confirmDestructive({
      title: 'Delete post',
      text: 'Are you sure you want to delete this post?',
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: post.id }),
    });
}
