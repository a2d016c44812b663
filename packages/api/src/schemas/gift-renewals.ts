import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * Recurring givers brought back after a move: each giver of the old system's recurring-gift export,
 * their personal link to the giving page, and whether they have set their gift up again.
 */

export const RENEWAL_STATUSES = ['renewed', 'link_sent', 'not_yet'] as const;
export const RENEWAL_STATUS_LABELS: Record<(typeof RENEWAL_STATUSES)[number], string> = {
  renewed: 'Re-enrolled',
  link_sent: 'Link sent',
  not_yet: 'Not yet',
};

/** A personal link's token: 32 random bytes, base64url. */
export const renewTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'This link is not valid');

export const giftRenewalSchema = z.object({
  id: idSchema(),
  contactId: z.number().int().nullable(),
  donorName: z.string(),
  donorEmail: z.string().nullable(),
  source: z.string(),
  frequency: z.enum(['weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly']),
  lines: z.array(z.object({ fundId: z.number().int(), fundName: z.string(), amountCents: z.number().int() })),
  amountCents: z.number().int(),
  monthlyCents: z.number().int(),
  lastChargeDate: z.string().nullable(),
  startDate: z.string(),
  status: z.enum(RENEWAL_STATUSES),
  /** The personal link to the giving page, prefilled. Null when the church has no public handle yet. */
  link: z.string().nullable(),
  scheduleId: z.number().int().nullable(),
  renewedAt: z.string().nullable(),
});

export const giftRenewalsSchema = z.object({
  totals: z.object({
    givers: z.number().int(),
    renewed: z.number().int(),
    linkSent: z.number().int(),
    /** Per month before the move (every giver) and per month set up again (the re-enrolled). */
    monthlyCentsBefore: z.number().int(),
    monthlyCentsRecovered: z.number().int(),
  }),
  /** The journey that asks them back, when the church has it. */
  journey: z.object({ id: z.number().int(), name: z.string(), status: z.string() }).nullable(),
  renewals: z.array(giftRenewalSchema),
});
export type GiftRenewalsOut = z.input<typeof giftRenewalsSchema>;
