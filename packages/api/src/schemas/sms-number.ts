import { z } from 'zod';
import { isCleanText, notAllowedMessage } from '../shared/text.js';

// Settings → Texting: a church's own texting number (a Twilio number or Messaging
// Service of its own, with its account's SID and auth token), or the platform's shared number.

export const smsNumberSchema = z.object({
  mode: z.enum(['shared', 'own']).describe("'own': the church texts from its own number; 'shared': the platform's"),
  sharedNumber: z.string().describe("The platform's shared number"),
  fromNumber: z.string().nullable(),
  messagingServiceSid: z.string().nullable(),
  accountSid: z.string().nullable(),
  authTokenHint: z.string().nullable().describe('The last characters of the saved Auth Token (never the token)'),
  checkedAt: z.string().nullable().describe('When Twilio last confirmed the number and credentials'),
  inboundWebhookUrl: z.string().describe("The address to set as the number's 'A message comes in' webhook"),
});

/** What the Keywords screen and the keyword API say on the shared number. */
export const KEYWORDS_NEED_OWN_NUMBER =
  'Keywords need a texting number of your own: on the shared number a reply cannot be told apart from a reply to another church. Add your number in Settings → Texting.';

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v || null);

export const updateSmsNumberSchema = z
  .object({
    fromNumber: z
      .string()
      .trim()
      .regex(/^(\+[1-9]\d{6,14})?$/, 'Number must be in international format, like +15551234567')
      .nullish()
      .transform(blankToNull),
    messagingServiceSid: z
      .string()
      .trim()
      .regex(/^(MG[0-9a-fA-F]{32})?$/, 'Messaging Service SID starts with MG and is 34 characters long')
      .nullish()
      .transform(blankToNull),
    accountSid: z
      .string({ error: 'Account SID is required' })
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'Account SID starts with AC and is 34 characters long'),
    authToken: z
      .string()
      .trim()
      .max(128, 'Auth Token must be at most 128 characters')
      .refine(isCleanText, notAllowedMessage('Auth Token'))
      .optional()
      .describe('Left out: the saved token is kept (same account only)'),
  })
  .refine((v) => !!v.fromNumber !== !!v.messagingServiceSid, {
    message: 'Enter either a number or a Messaging Service SID',
    path: ['fromNumber'],
  });
