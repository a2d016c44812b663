import { z } from 'zod';
import { idSchema } from './contacts.js';
import { isCleanText, notAllowedMessage } from './common.js';

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

const scheduledForSchema = z
  .union([z.iso.datetime({ offset: true, error: 'Please choose a valid date and time' }), z.null()])
  .optional()
  .describe('ISO 8601 date-time; set with status scheduled');

export const emailCampaignFieldsSchema = z
  .object({
    name: z
      .string({ error: 'Campaign name is required' })
      .trim()
      .min(1, 'Campaign name is required')
      .max(200, 'Campaign name must be at most 200 characters')
      .refine(isCleanText, notAllowedMessage('Campaign name')),
    subject: z
      .string()
      .trim()
      .max(300, 'Subject must be at most 300 characters')
      .refine(isCleanText, notAllowedMessage('Subject'))
      .default(''),
    content: z
      .string({ error: 'Email content is required' })
      .trim()
      .min(1, 'Email content is required')
      .max(500_000, 'Email content is too long')
      .refine(isCleanText, notAllowedMessage('Email content')),
    /** Only draft or scheduled can be set; the engine moves a campaign to sending, sent or failed. */
    status: z.enum(['draft', 'scheduled'], { error: 'Status must be draft or scheduled' }).default('draft'),
    listIds: listIdsSchema,
    scheduledFor: scheduledForSchema,
  })
  .superRefine((v, ctx) => {
    if (v.status === 'scheduled') {
      if (!v.scheduledFor)
        ctx.addIssue({
          code: 'custom',
          path: ['scheduledFor'],
          message: 'Please choose a date and time for a scheduled campaign',
        });
      else if (new Date(v.scheduledFor).getTime() < Date.now() - 60_000) {
        ctx.addIssue({
          code: 'custom',
          path: ['scheduledFor'],
          message: 'Please choose a date and time in the future',
        });
      }
      if (!v.subject) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'Subject is required' });
      if (v.listIds.length === 0)
        ctx.addIssue({ code: 'custom', path: ['listIds'], message: 'Please select a contact list' });
    }
  });
export const createEmailCampaignSchema = emailCampaignFieldsSchema;
export const updateEmailCampaignSchema = z.intersection(
  emailCampaignFieldsSchema,
  z.object({ id: idSchema('Campaign ID') }),
);
export const emailCampaignIdSchema = z.object({ id: idSchema('Campaign ID') });
export const listEmailCampaignsSchema = z
  .object({
    status: z.enum(['all', 'draft', 'scheduled', 'sent']).default('all').describe("'sent' includes sending and failed"),
  })
  .default({ status: 'all' });

export const emailCampaignSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  subject: z.string(),
  content: z.string(),
  status: emailCampaignStatusSchema,
  listIds: z.array(z.number().int()),
  scheduledFor: z.string().nullable(),
  startedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  recipientCount: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  progress: z.object({
    total: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    pending: z.number().int(),
  }),
});
export type EmailCampaign = z.infer<typeof emailCampaignSchema>;

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
  testEmail: z
    .string({ error: 'Please enter a valid email address' })
    .max(1000, 'Please enter a valid email address')
    .trim()
    .pipe(z.email('Please enter a valid email address')),
  subject: z.string().trim().max(300).refine(isCleanText, notAllowedMessage('Subject')).default(''),
  content: z
    .string({ error: 'Email content is required' })
    .trim()
    .min(1, 'Email content is required')
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

export const outboxQuerySchema = z.object({
  channel: z.enum(['email', 'sms']).default('email'),
  campaignId: idSchema('Campaign ID').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  campaignId: z.number().int().nullable(),
  toAddress: z.string(),
  fromAddress: z.string(),
  subject: z.string().nullable(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  createdAt: z.string(),
});

export const churchSettingsSchema = z.object({
  churchName: z.string(),
  postalAddress: z.string().nullable(),
});
export const updateChurchSettingsSchema = z.object({
  postalAddress: z
    .string()
    .trim()
    .max(500, 'Postal address must be at most 500 characters')
    .refine(isCleanText, notAllowedMessage('Postal address'))
    .nullish()
    .transform((v) => (v ? v : null)),
});
