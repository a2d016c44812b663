import { z } from 'zod';
import { idSchema, isoTimestamp } from '../common.js';

export const announcementSchema = z.object({
  kind: z.string(),
  targetId: z.number().int(),
  name: z.string(),
  /** Where the draft opens in the app. */
  path: z.string(),
  createdAt: isoTimestamp,
});

// ---- Announce ----

export const announceSchema = z.object({
  planId: idSchema('Plan ID'),
  /** The contact list the drafts go to; none = drafts without recipients, chosen later. */
  listId: idSchema('List ID').nullable().optional(),
  /** The social post draft is dated this many days before the service (at its start time). */
  socialDaysBefore: z
    .number({ error: 'Days before must be a number' })
    .int('Days before must be a whole number')
    .min(0, 'Days before must be between 0 and 60')
    .max(60, 'Days before must be between 0 and 60')
    .default(3),
});
export const ANNOUNCE_COPY_SOURCES = ['ai', 'template'] as const;
export const announceResultSchema = z.object({
  drafts: z.array(announcementSchema),
  /** Who wrote the drafts' words: the AI model, or the plain templates (no AI set up, or it failed). */
  copy: z.enum(ANNOUNCE_COPY_SOURCES),
});

/** The AI model's answer for Announce: the words of every draft, checked before use. */
export const aiAnnounceAnswerSchema = z.object({
  emailSubject: z.string().trim().min(1).max(200),
  emailParagraphs: z.array(z.string().trim().min(1).max(2000)).min(1).max(6),
  sms: z.string().trim().min(1).max(320),
  social: z.string().trim().min(1).max(280),
  headline: z.string().trim().min(1).max(200),
  subheading: z.string().trim().min(1).max(500),
  mainContent: z.string().trim().min(1).max(5000),
  keyPoints: z.array(z.string().trim().min(1).max(300)).max(6),
});
export type AiAnnounceAnswer = z.infer<typeof aiAnnounceAnswerSchema>;
