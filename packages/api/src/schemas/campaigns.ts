import { z } from 'zod';
import { boundedArraySchema, idSchema, isoTimestamp, requiredTextSchema } from './common.js';

// Zod only: what email and SMS campaigns share — scheduling rules, their messages, and the count of
// people a send reaches — for the server and for the forms.

export const SELECT_LIST = 'Please select a contact list';
export const SCHEDULE_REQUIRED = 'Please choose a date and time for a scheduled campaign';
export const SCHEDULE_IN_FUTURE = 'Please choose a date and time in the future';

/** When a scheduled campaign goes out: an ISO 8601 date-time with an offset (stored in UTC). */
export const scheduledForSchema = z
  .union([z.iso.datetime({ offset: true, error: 'Please choose a valid date and time' }), z.null()])
  .optional()
  .describe('ISO 8601 date-time; set with status scheduled');

/** A scheduled campaign needs a time, and one not in the past (a minute of grace for slow forms). */
export function checkSchedule(
  v: { status: string; scheduledFor?: string | null },
  ctx: { addIssue: (issue: { code: 'custom'; path: string[]; message: string }) => void },
): void {
  if (v.status !== 'scheduled') return;
  if (!v.scheduledFor) ctx.addIssue({ code: 'custom', path: ['scheduledFor'], message: SCHEDULE_REQUIRED });
  else if (new Date(v.scheduledFor).getTime() < Date.now() - 60_000)
    ctx.addIssue({ code: 'custom', path: ['scheduledFor'], message: SCHEDULE_IN_FUTURE });
}

/** A campaign's name, on every channel. */
export const campaignNameSchema = requiredTextSchema('Campaign name', 200);

/** Which campaign (get, send, delete). */
export const campaignIdSchema = z.object({ id: idSchema('Campaign ID') });

/** An edit of a campaign: the channel's fields and the campaign's id. */
export const withCampaignIdSchema = <T extends z.ZodType>(fields: T) => z.intersection(fields, campaignIdSchema);

/** The columns every channel's campaign answers with (the channel adds its own). */
export const campaignOutputShape = {
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  content: z.string(),
  scheduledFor: isoTimestamp.nullable(),
  startedAt: isoTimestamp.nullable(),
  sentAt: isoTimestamp.nullable(),
  recipientCount: z.number().int(),
  error: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
};

/** Delivery counts of a campaign: sent includes what a later status report called (un)delivered. */
export const campaignProgressShape = {
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
};

/** Which lists a send would go to. */
export const recipientCountInputSchema = z.object({
  listIds: boundedArraySchema(idSchema('List ID'), 'Lists', 20).min(1, SELECT_LIST),
});

/** How many people a send to these lists reaches now, counted as the send itself selects them. */
export const recipientCountSchema = z.object({
  recipients: z.number().int().describe('People reachable on this channel (one per address or number)'),
  lists: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Email only, when any: addresses on the lists that are on the suppression list and will be skipped. */
  suppressed: z.number().int().optional(),
});
export type RecipientCount = z.infer<typeof recipientCountSchema>;
