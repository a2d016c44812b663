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
import { MAX_ID, requiredTextSchema } from './common.js';

// Zod only: the SMS form validates with these schemas (and counts segments with shared/sms.ts).

const listIdsSchema = z
  .array(z.union([z.string().max(20), z.number()]))
  .max(20)
  .default([])
  .transform((ids, ctx) => {
    const out: number[] = [];
    for (const id of ids) {
      const n = Number(id);
      if (!Number.isInteger(n) || n <= 0 || n > MAX_ID) {
        ctx.addIssue({ code: 'custom', message: 'List ID must be a number' });
        return z.NEVER;
      }
      if (!out.includes(n)) out.push(n);
    }
    return out;
  })
  .describe('Contact list ids (numbers or numeric strings)');

export const smsCampaignFieldsSchema = z
  .object({
    name: campaignNameSchema,
    content: requiredTextSchema('SMS content', 1600),
    /** draft (Save as draft), scheduled (Schedule for later), ready (Ready to Send, sent manually). */
    status: z
      .enum(['draft', 'scheduled', 'ready'], { error: 'Status must be draft, scheduled or ready' })
      .default('draft'),
    listIds: listIdsSchema,
    scheduledFor: scheduledForSchema,
  })
  .superRefine((v, ctx) => {
    checkSchedule(v, ctx);
    if ((v.status === 'scheduled' || v.status === 'ready') && v.listIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['listIds'], message: SELECT_LIST });
    }
  });
export const createSmsCampaignSchema = smsCampaignFieldsSchema;
export const updateSmsCampaignSchema = withCampaignIdSchema(smsCampaignFieldsSchema);
export const smsCampaignIdSchema = campaignIdSchema;

export const smsCampaignSchema = z.object({
  ...campaignOutputShape,
  status: z.enum(['draft', 'scheduled', 'ready', 'sending', 'sent', 'failed']),
  listIds: z.array(z.string()).describe('String ids, as the spec reads them'),
  segments: z.number().int(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  progress: z.object({
    ...campaignProgressShape,
    delivered: z.number().int(),
    undelivered: z.number().int(),
  }),
});
export type SmsCampaign = z.infer<typeof smsCampaignSchema>;

/** Words that opt a number out (any case, surrounding spaces), and back in. */
export const SMS_STOP_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
  'OPT OUT',
];
export const SMS_START_WORDS = ['START', 'UNSTOP'];
/** Words asking what the texts are (answered with the church's name and how to stop them). */
export const SMS_HELP_WORDS = ['HELP', 'INFO'];
