import '@mantine/dates/styles.css';
import { Button, Group, Modal, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { socialPostFieldsSchema } from '@lampstand/api/schemas/social-posts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import classes from './social-blast.module.css';
import { validatePost } from './post-form-values';
import { PostContentField, PostImageField, PostScheduleFields, PostStatusNotes } from './post-fields';
import { type SocialPost, type Values, toPayload } from './post-form-values';

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
    validate: validatePost,
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

  const title = post ? 'Edit Social Post' : 'Schedule New Social Post';

  return (
    <Modal opened={opened} onClose={close} title={title} size={600}>
      <form onSubmit={submit} noValidate>
        <Stack className={classes.dialog}>
          {post ? <PostStatusNotes post={post} /> : null}
          <PostContentField form={form} />
          <PostScheduleFields form={form} />
          <PostImageField form={form} source={imageSource} onSourceChange={setImageSource} />
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
