import { z } from 'zod';
import { isoTimestamp } from '../common.js';
import {
  adultSchema,
  checkinIdSchema,
  checkinSchema,
  checkInChildSchema,
  childIdSchema,
  familyIdSchema,
  familySchema,
  newChildSchema,
  newFamilyInputSchema,
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

/**
 * A first-time family added while offline: the online form's fields, the family's and each child's
 * client id (a check-in later in the batch names them by these).
 */
export const offlineAddFamilySchema = newFamilyInputSchema.extend({
  kind: z.literal('add_family'),
  clientId: clientIdSchema,
  at: atSchema,
  children: z
    .array(newChildSchema.extend({ clientId: clientIdSchema }))
    .min(1, 'Add at least one child')
    .max(12, 'At most 12 children'),
});
const offlineCheckInChildSchema = checkInChildSchema
  .extend({
    childId: childIdSchema.optional(),
    /** A child of a family added offline, by the client id it was added with. */
    childClientId: clientIdSchema.optional(),
    clientId: clientIdSchema,
  })
  .refine((c) => (c.childId === undefined) !== (c.childClientId === undefined), {
    message: 'Give the child ID or the child’s client ID',
    path: ['childId'],
  });
export const offlineCheckInSchema = z
  .object({
    kind: z.literal('check_in'),
    clientId: clientIdSchema,
    at: atSchema,
    familyId: familyIdSchema.optional(),
    /** A family added offline (an earlier `add_family`), by its client id. */
    familyClientId: clientIdSchema.optional(),
    serviceId: serviceIdSchema.nullable().default(null),
    /** A code from this station's reserved block. */
    securityCode: securityCodeSchema,
    children: z.array(offlineCheckInChildSchema).min(1, 'Choose at least one child'),
  })
  .refine((a) => (a.familyId === undefined) !== (a.familyClientId === undefined), {
    message: 'Give the family ID or the family’s client ID',
    path: ['familyId'],
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
    .array(
      z.discriminatedUnion('kind', [offlineAddFamilySchema, offlineCheckInSchema, offlineCheckoutSchema], {
        error: 'Unknown action',
      }),
    )
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
      /** An `add_family`'s family (the new contact's id). */
      familyId: z.number().int().nullable(),
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
  /**
   * These families' QR cards, as the SHA-256 (hex) of the card's token: a scanned card is matched
   * offline without the station keeping the tokens themselves.
   */
  cards: z.array(z.object({ familyId: z.number().int(), tokenSha256: z.string() })),
  codes: z.array(z.string()),
  /**
   * Today's children not yet picked up, with their codes, for pickups without the network: a room
   * station's own room, a manned station's (and staff's) every room, a self-service station none.
   */
  present: z.array(
    z.object({
      checkinId: z.number().int(),
      childId: z.number().int(),
      childName: z.string(),
      familyName: z.string(),
      roomId: z.number().int(),
      roomName: z.string(),
      securityCode: z.string(),
      checkedInAt: isoTimestamp,
      allergies: z.string().nullable(),
      adults: z.array(adultSchema),
    }),
  ),
});
export const OFFLINE_WEEKS = 12;
export const MAX_OFFLINE_FAMILIES = 2000;
