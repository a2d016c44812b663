import { z } from 'zod';
import { idSchema } from '../common.js';

// ---- Overview -------------------------------------------------------------------

/** Where a gift came from: the existing attribution (a QR code, a short link, an email, a text, a page), or none. */
export const GIFT_SOURCES = ['qr', 'link', 'email', 'sms', 'page', 'direct'] as const;

export const lapsedDonorSchema = z.object({
  contactId: z.number().int().nullable(),
  name: z.string(),
  /** The date of their last gift (church time). */
  lastGiftOn: z.string(),
  /** What they gave in the last 12 months. */
  totalCents: z.number().int(),
});

export const givingOverviewSchema = z.object({
  /** The church's today (its time zone); the overview covers the 12 months up to it. */
  today: z.string(),
  /** Each of the 12 months, oldest first ('2026-01'): all gifts, and those from recurring gifts. */
  months: z.array(z.object({ month: z.string(), totalCents: z.number().int(), recurringCents: z.number().int() })),
  /** Each fund's total over the 12 months, largest first. */
  funds: z.array(z.object({ fundId: z.number().int(), fundName: z.string(), totalCents: z.number().int() })),
  totalCents: z.number().int(),
  /** Active recurring gifts, as income per month (a weekly $10 is $43.33 a month). */
  recurring: z.object({ count: z.number().int(), monthlyCents: z.number().int() }),
  /** Donors whose first gift is this month. */
  newDonorsThisMonth: z.number().int(),
  /** Gave in the last 12 months, nothing in the last 90 days: the most recent first (at most 500 listed). */
  lapsed: z.object({ count: z.number().int(), donors: z.array(lapsedDonorSchema) }),
  /** Gifts by where they came from, over the 12 months. */
  sources: z.array(z.object({ source: z.enum(GIFT_SOURCES), count: z.number().int(), totalCents: z.number().int() })),
});
export type GivingOverview = z.infer<typeof givingOverviewSchema>;

/** Lapsed donors (those with a contact) added to a list, or enrolled in a journey. */
export const lapsedToListSchema = z.object({ listId: idSchema('List') });
export const lapsedToJourneySchema = z.object({ journeyId: idSchema('Journey') });
