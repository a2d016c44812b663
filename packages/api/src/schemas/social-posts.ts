import { z } from 'zod';
import { idSchema, isoTimestamp, textSchema, urlSchema } from './common.js';
import { isCleanText } from '../shared/text.js';
import { isImageUrl } from '../shared/urls.js';

// Zod only: the calendar's dialogs validate with these same schemas.

export const SOCIAL_PLATFORMS = ['facebook', 'instagram', 'twitter', 'linkedin'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export const SOCIAL_PLATFORM_LABELS: Record<SocialPlatform, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
};

/** Characters each platform accepts in one post (a warning past it; the post is still saved). */
export const SOCIAL_PLATFORM_LIMITS: Record<SocialPlatform, number> = {
  facebook: 63206,
  instagram: 2200,
  twitter: 280,
  linkedin: 3000,
};

export const SOCIAL_POST_STATUSES = ['scheduled', 'posted', 'failed', 'draft'] as const;
export type SocialPostStatus = (typeof SOCIAL_POST_STATUSES)[number];

export const SOCIAL_STATUS_LABELS: Record<SocialPostStatus, string> = {
  scheduled: 'Scheduled',
  posted: 'Posted',
  failed: 'Failed',
  draft: 'Draft',
};

/** The longest post any platform takes (Facebook's). */
const SOCIAL_CONTENT_MAX = SOCIAL_PLATFORM_LIMITS.facebook;

/** '' and null are "none"; otherwise a URL. */
const optionalUrl = (message: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v),
    urlSchema(message).nullable(),
  );

const imageUrlSchema = z.preprocess(
  (v) => (v === '' || v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v),
  z
    .string({ error: 'Image URL must be a valid URL' })
    .trim()
    .max(2048, 'Image URL must be a valid URL')
    .refine(isImageUrl, 'Image URL must be a valid URL')
    .nullable(),
);

const isoDate = (message: string) =>
  z.iso.datetime({ offset: true, error: message }).refine((v) => !Number.isNaN(Date.parse(v)), message);

export const socialPostFieldsSchema = z.object({
  content: z
    .string({ error: 'Post content is required' })
    .trim()
    .min(1, 'Post content is required')
    .max(SOCIAL_CONTENT_MAX, `Post content must be at most ${SOCIAL_CONTENT_MAX} characters`)
    .refine(isCleanText, 'Post content contains characters that are not allowed'),
  scheduledFor: z.preprocess(
    (v) => (v === '' ? undefined : v),
    isoDate('Schedule date is required').describe('When to publish (ISO 8601 with offset)'),
  ),
  platforms: z
    .array(z.enum(SOCIAL_PLATFORMS, { error: 'Platforms are facebook, instagram, twitter and linkedin' }), {
      error: 'Select at least one platform',
    })
    .min(1, 'Select at least one platform')
    .max(SOCIAL_PLATFORMS.length, 'Select at least one platform')
    .transform((ps) => SOCIAL_PLATFORMS.filter((p) => ps.includes(p))),
  status: z
    .enum(SOCIAL_POST_STATUSES, { error: 'Status must be scheduled, posted, failed or draft' })
    .default('scheduled'),
  imageUrl: imageUrlSchema.optional().transform((v) => v ?? null),
  linkUrl: optionalUrl('Link must be a valid URL')
    .optional()
    .transform((v) => v ?? null),
  tags: z
    .array(textSchema('Tag', 50).trim())
    .max(20, 'At most 20 tags')
    .optional()
    .transform((ts) => [...new Set((ts ?? []).map((t) => t.replace(/^#/, '')).filter(Boolean))]),
});
export type SocialPostFields = z.output<typeof socialPostFieldsSchema>;

export const createSocialPostSchema = socialPostFieldsSchema;
export const updateSocialPostSchema = socialPostFieldsSchema.extend({ id: idSchema('Post ID') });
export const socialPostIdSchema = z.object({ id: idSchema('Post ID') });

export const listSocialPostsSchema = z
  .object({
    from: isoDate('From must be a date and time (ISO 8601)').optional(),
    to: isoDate('To must be a date and time (ISO 8601)').optional(),
  })
  .refine((v) => !v.from || !v.to || Date.parse(v.from) <= Date.parse(v.to), {
    message: 'From must be before to',
    path: ['to'],
  })
  .default({});

export const socialPostSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  content: z.string(),
  scheduledFor: isoTimestamp,
  platforms: z.array(z.enum(SOCIAL_PLATFORMS)),
  status: z.enum(SOCIAL_POST_STATUSES),
  imageUrl: z.string().nullable(),
  linkUrl: z.string().nullable(),
  tags: z.array(z.string()),
  postedAt: isoTimestamp.nullable(),
  /** Why publishing failed (status failed), or the last retried error while it is still scheduled. */
  error: z.string().nullable(),
  /** Publishing tries so far for this schedule. */
  attempts: z.number().int(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type SocialPost = z.infer<typeof socialPostSchema>;

// Settings → Social

export const socialSettingsSchema = z.object({
  webhookUrl: z.string().nullable(),
  /** A signing secret exists (it is shown only when made). */
  hasWebhookSecret: z.boolean(),
  /** Path of the calendar feed with its token (prefix the site's address). */
  feedPath: z.string().nullable(),
});
export type SocialSettings = z.infer<typeof socialSettingsSchema>;

export const updateSocialSettingsSchema = z.object({
  webhookUrl: optionalUrl('Webhook URL must be a valid URL'),
});

export const webhookSecretSchema = z.object({
  /** Shown once: keep it in the receiving service to check the signature. */
  webhookSecret: z.string(),
});
