import '@mantine/dates/styles.css';
import {
  Alert,
  Checkbox,
  Group,
  Image,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DatePickerInput, TimeInput } from '@mantine/dates';
import { IconAlertTriangle, IconCalendar, IconClock } from '@tabler/icons-react';
import dayjs from 'dayjs';
import {
  SOCIAL_PLATFORM_LABELS,
  SOCIAL_PLATFORM_LIMITS,
  SOCIAL_PLATFORMS,
  SOCIAL_POST_STATUSES,
  SOCIAL_STATUS_LABELS,
  type SocialPlatform,
} from '@lampstand/api/schemas/social-posts';
import { platformsOverLimit, socialLength } from '@lampstand/api/shared/social-posts';
import { isImageUrl } from '@lampstand/api/shared/urls';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { ImageUpload } from '../../ui/image-upload';
import { PlatformIcon } from './platforms';
import { TIME_ZONE, toPayload, type PostForm, type SocialPost } from './post-form-values';

/** Why a post failed, that it will be tried again, or when it was posted. */
export function PostStatusNotes({ post }: { post: SocialPost }) {
  return (
    <>
      {post.status === 'failed' && post.error ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Publishing failed">
          {post.error}
        </Alert>
      ) : null}
      {post.status === 'scheduled' && post.error ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Last try failed; trying again">
          {post.error}
        </Alert>
      ) : null}
      {post.status === 'posted' && post.postedAt ? (
        <Text size="sm" c="dimmed">
          Posted on {formatDate(post.postedAt)} at {formatTime(post.postedAt)}.
        </Text>
      ) : null}
    </>
  );
}

/** The text, its length against each chosen platform's limit, and a warning when it is too long for one. */
export function PostContentField({ form }: { form: PostForm }) {
  const v = form.values;
  const length = socialLength(v.content);
  const over = platformsOverLimit(v.content, v.platforms);
  const chosen = SOCIAL_PLATFORMS.filter((p) => v.platforms.includes(p));
  return (
    <>
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
          Too long for {over.map((p) => SOCIAL_PLATFORM_LABELS[p]).join(' and ')}: shorten it, or it may be cut off or
          refused there.
        </Alert>
      ) : null}
    </>
  );
}

/** When (date and time, with a note when that time has passed), where (platforms) and the status. */
export function PostScheduleFields({ form }: { form: PostForm }) {
  const v = form.values;
  return (
    <>
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
      {v.status === 'scheduled' && toPayload(v).scheduledFor && dayjs(toPayload(v).scheduledFor).isBefore(dayjs()) ? (
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
    </>
  );
}

/** The image: uploaded, or from a URL (previewed when it looks like an image). */
export function PostImageField({
  form,
  source: imageSource,
  onSourceChange: setImageSource,
}: {
  form: PostForm;
  source: 'upload' | 'url';
  onSourceChange: (source: 'upload' | 'url') => void;
}) {
  const v = form.values;
  const previewable = v.imageUrl.trim() !== '' && isImageUrl(v.imageUrl.trim());
  return (
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
  );
}
