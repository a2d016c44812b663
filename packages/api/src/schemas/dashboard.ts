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

/** A change in percent (one decimal, signed); null when there is no earlier figure to compare with. */
const trend = z.number().nullable();

export const dashboardStatsSchema = z.object({
  contactsCount: z.number().int(),
  /** Percent (one decimal): unique opens / delivered, over the church's sent email campaigns; null when none was delivered. */
  emailOpenRate: z.number().nullable(),
  /** Percent (one decimal): delivered / sent, over its SMS campaigns; null when no text was sent. */
  smsDeliveryRate: z.number().nullable(),
  /** Landing page visits in the last 7 days (crawlers not counted). */
  pageVisits: z.number().int(),
  /**
   * The cards' changes, from the church's own data: contacts against 30 days ago (percent), the last
   * sent email campaign's open rate against the one before and SMS delivery this week against last
   * week (percentage points), page visits this week against last week (percent).
   */
  trends: z.object({
    contacts: trend,
    emailOpenRate: trend,
    smsDeliveryRate: trend,
    pageVisits: trend,
  }),
  recentCampaigns: z.array(campaignSummarySchema),
  upcomingScheduled: z.array(scheduledItemSchema),
});
