import { z } from 'zod';
import { isoTimestamp } from './common.js';

export const campaignSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['email', 'sms', 'landing-page', 'email+sms', 'other']),
  sentAt: isoTimestamp.nullable(),
  sent: z.number().int(),
  opens: z.number().int(),
  status: z.string(),
});

export const scheduledItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['email', 'sms', 'email+sms', 'other']),
  scheduledFor: isoTimestamp.nullable(),
  recipients: z.number().int(),
});

export const dashboardStatsSchema = z.object({
  contactsCount: z.number().int(),
  /** Percent (one decimal): unique opens / delivered, over the church's sent email campaigns. */
  emailOpenRate: z.number(),
  /** Percent (one decimal): delivered / sent, over its SMS campaigns. */
  smsDeliveryRate: z.number(),
  /** Landing page visits in the last 7 days (crawlers not counted). */
  pageVisits: z.number().int(),
  recentCampaigns: z.array(campaignSummarySchema),
  upcomingScheduled: z.array(scheduledItemSchema),
});
