import { z } from 'zod';
import {
  campaignIdSchema,
  campaignNameSchema,
  campaignOutputShape,
  campaignProgressShape,
  checkSchedule,
  scheduledForSchema,
  SELECT_LIST,
  withCampaignIdSchema,
} from './campaigns.js';
import { emailAddressSchema, idSchema } from './common.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';

// Zod only: the wizard validates with these same schemas.

export const DEFAULT_EMAIL_CONTENT =
  '<p>Hello {{firstName}},</p><p>Welcome to {{churchName}}! We are glad you are part of our church family and look forward to seeing you soon.</p>';

export const emailCampaignStatusSchema = z.enum(['draft', 'scheduled', 'sending', 'sent', 'failed']);
export type EmailCampaignStatus = z.infer<typeof emailCampaignStatusSchema>;

const listIdsSchema = z
  .array(idSchema('List ID'))
  .max(20)
  .default([])
  .transform((ids) => [...new Set(ids)]);

/** True when HTML shows something: text other than spaces, or an image (an empty editor gives '<p></p>'). */
function hasVisibleContent(html: string): boolean {
  if (/<img\b/i.test(html)) return true;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;/g, ' ')
      .trim().length > 0
  );
}

const EMAIL_CONTENT_REQUIRED = 'Email content is required';
const SUBJECT_REQUIRED = 'Subject is required';

/** The fields without the cross-field rules, so that a form can `pick` the ones of one step. */
export const emailCampaignObjectSchema = z.object({
  name: campaignNameSchema,
  subject: z
    .string()
    .trim()
    .max(300, 'Subject must be at most 300 characters')
    .refine(isCleanText, notAllowedMessage('Subject'))
    .default(''),
  content: z
    .string({ error: EMAIL_CONTENT_REQUIRED })
    .trim()
    .min(1, EMAIL_CONTENT_REQUIRED)
    .max(500_000, 'Email content is too long')
    .refine(isCleanText, notAllowedMessage('Email content'))
    .refine(hasVisibleContent, EMAIL_CONTENT_REQUIRED),
  /** Only draft or scheduled can be set; the engine moves a campaign to sending, sent or failed. */
  status: z.enum(['draft', 'scheduled'], { error: 'Status must be draft or scheduled' }).default('draft'),
  listIds: listIdsSchema,
  scheduledFor: scheduledForSchema,
});

/** The wizard's Basics step is complete with a name, a subject and a list. */
export const emailCampaignBasicsSchema = emailCampaignObjectSchema.pick({ name: true }).extend({
  subject: emailCampaignObjectSchema.shape.subject.pipe(z.string().min(1, SUBJECT_REQUIRED)),
  listIds: z.array(idSchema('List ID')).min(1, SELECT_LIST),
});
/** The wizard's Design step is complete with content. */
export const emailCampaignDesignSchema = emailCampaignObjectSchema.pick({ content: true });

export const emailCampaignFieldsSchema = emailCampaignObjectSchema.superRefine((v, ctx) => {
  checkSchedule(v, ctx);
  if (v.status === 'scheduled') {
    if (!v.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: SUBJECT_REQUIRED });
    if (v.listIds.length === 0) ctx.addIssue({ code: 'custom', path: ['listIds'], message: SELECT_LIST });
  }
});
export const createEmailCampaignSchema = emailCampaignFieldsSchema;
export const updateEmailCampaignSchema = withCampaignIdSchema(emailCampaignFieldsSchema);
export const emailCampaignIdSchema = campaignIdSchema;
export const listEmailCampaignsSchema = z
  .object({
    status: z.enum(['all', 'draft', 'scheduled', 'sent']).default('all').describe("'sent' includes sending and failed"),
  })
  .default({ status: 'all' });

export const emailCampaignSchema = z.object({
  ...campaignOutputShape,
  subject: z.string(),
  status: emailCampaignStatusSchema,
  listIds: z.array(z.number().int()),
  progress: z.object(campaignProgressShape),
});

export const emailStatsSchema = z.object({
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  bounced: z.number().int(),
  unsubscribed: z.number().int(),
  recipients: z.number().int(),
});
export type EmailStats = z.infer<typeof emailStatsSchema>;

export const testEmailSchema = z.object({
  testEmail: emailAddressSchema(),
  subject: z.string().trim().max(300).refine(isCleanText, notAllowedMessage('Subject')).default(''),
  content: z
    .string({ error: EMAIL_CONTENT_REQUIRED })
    .trim()
    .min(1, EMAIL_CONTENT_REQUIRED)
    .max(500_000)
    .refine(isCleanText, notAllowedMessage('Email content')),
});

export const previewEmailSchema = z.object({
  subject: z.string().trim().max(300).refine(isCleanText, notAllowedMessage('Subject')).default(''),
  content: z.string().max(500_000).refine(isCleanText, notAllowedMessage('Email content')).default(''),
  listId: idSchema('List ID').optional(),
});
export const previewEmailResultSchema = z.object({
  subject: z.string(),
  html: z.string(),
  sample: z.object({ firstName: z.string(), lastName: z.string() }),
});
