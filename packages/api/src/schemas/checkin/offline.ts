import { z } from 'zod';
import { isoTimestamp } from '../common.js';
import {
  checkinIdSchema,
  checkinSchema,
  checkInChildSchema,
  familyIdSchema,
  familySchema,
  securityCodeSchema,
} from './checkins.js';
import { serviceIdSchema } from './setup.js';

// A station working without the network: a block of codes reserved for it, and the batch of
// check-ins and pickups it sends when the network returns.

export const MAX_CODE_BLOCK = 200;
export const codeBlockInputSchema = z.object({
  size: z.coerce
    .number({ error: 'Size must be a number' })
    .int('Size must be a whole number')
    .min(1, 'Size must be at least 1')
    .max(MAX_CODE_BLOCK, `Size must be at most ${MAX_CODE_BLOCK}`)
    .default(50),
});
export const codeBlockOutputSchema = z.object({
  date: z.string(),
  /** Codes only this station gives today, the ones reserved before and not used yet included. */
  codes: z.array(z.string()),
});

/** A station's own id of an offline action: the same id sent twice is recorded once. */
const clientIdSchema = z
  .string({ error: 'Client ID is required' })
  .trim()
  .min(8, 'Client ID must be 8 to 64 letters, digits or dashes')
  .max(64, 'Client ID must be 8 to 64 letters, digits or dashes')
  .regex(/^[A-Za-z0-9_-]+$/, 'Client ID must be 8 to 64 letters, digits or dashes');
const atSchema = z.iso.datetime({ error: 'At must be a date and time (ISO 8601)', offset: true });

export const offlineCheckInSchema = z.object({
  kind: z.literal('check_in'),
  clientId: clientIdSchema,
  at: atSchema,
  familyId: familyIdSchema,
  serviceId: serviceIdSchema.nullable().default(null),
  /** A code from this station's reserved block. */
  securityCode: securityCodeSchema,
  children: z.array(checkInChildSchema.extend({ clientId: clientIdSchema })).min(1, 'Choose at least one child'),
});
export const offlineCheckoutSchema = z.object({
  kind: z.literal('check_out'),
  clientId: clientIdSchema,
  at: atSchema,
  /** The server's id, or the child's offline check-in's client id when it was made offline too. */
  checkinId: checkinIdSchema.optional(),
  checkinClientId: clientIdSchema.optional(),
  securityCode: securityCodeSchema,
});
export const syncInputSchema = z.object({
  actions: z
    .array(z.discriminatedUnion('kind', [offlineCheckInSchema, offlineCheckoutSchema], { error: 'Unknown action' }))
    .min(1, 'Send at least one action')
    .max(500, 'At most 500 actions at once'),
});
export const syncOutputSchema = z.object({
  results: z.array(
    z.object({
      clientId: z.string(),
      /** 'recorded' now, 'already' recorded by an earlier sync, or 'refused' with the reason. */
      status: z.enum(['recorded', 'already', 'refused']),
      message: z.string().nullable(),
      checkins: z.array(checkinSchema),
    }),
  ),
});

export const labelInputSchema = z.object({
  securityCode: securityCodeSchema,
  format: z.enum(['zpl', 'pdf'], { error: 'Format must be zpl or pdf' }).default('zpl'),
  size: z.enum(['2.25x1.25', '4x2'], { error: 'Size must be 2.25x1.25 or 4x2' }).default('2.25x1.25'),
});
export const labelOutputSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  text: z.string().optional(),
  base64: z.string().optional(),
});
export const offlineBundleOutputSchema = z.object({
  date: z.string(),
  generatedAt: isoTimestamp,
  rooms: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      ageMinMonths: z.number().int().nullable(),
      ageMaxMonths: z.number().int().nullable(),
      gradeMin: z.number().int().nullable(),
      gradeMax: z.number().int().nullable(),
      capacity: z.number().int().nullable(),
      serviceIds: z.array(z.number().int()),
    }),
  ),
  services: z.array(z.object({ id: z.number().int(), name: z.string(), startsAt: z.string() })),
  /** The families likely today: those who checked children in during the last `OFFLINE_WEEKS` weeks. */
  families: z.array(familySchema),
  codes: z.array(z.string()),
});
export const OFFLINE_WEEKS = 12;
export const MAX_OFFLINE_FAMILIES = 2000;
