import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema, textSchema } from '../common.js';
import { dateSchema, gradeSchema, roomIdSchema, serviceIdSchema } from './setup.js';

// Children's check-in on the day: finding a family, checking children in and out, the lists.

export const checkinIdSchema = idSchema('Check-in ID');
export const childIdSchema = idSchema('Child ID');
export const familyIdSchema = idSchema('Family ID');

/** A security code as a parent reads it off the tag: letters and digits, any case, spaces ignored. */
export const securityCodeSchema = z
  .string({ error: 'Security code is required' })
  .trim()
  .min(1, 'Security code is required')
  .max(12, 'That security code does not match')
  .transform((s) => s.toUpperCase().replace(/\s/g, ''));

export const lookupInputSchema = z
  .object({
    /** The last four digits of a phone number. */
    phone: z
      .string()
      .trim()
      .regex(/^\d{4}$/, 'Enter the last four digits of the phone number')
      .optional(),
    name: textSchema('Name', 100).optional(),
    /** The token of a family's QR code (portal or card). */
    card: z.string().trim().max(100, 'That card is not known').optional(),
    serviceId: serviceIdSchema.optional(),
  })
  .refine((q) => [q.phone, q.name?.trim() || undefined, q.card].filter(Boolean).length === 1, {
    message: 'Search by the last four digits of a phone, a name or a card',
    path: ['phone'],
  });

export const lookupChildSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  grade: z.number().int().nullable(),
  allergies: z.string().nullable(),
  /** The room chosen by age or grade for the service; null when no open room fits. */
  roomId: z.number().int().nullable(),
  roomName: z.string().nullable(),
  /** Already checked in today and not yet picked up. */
  checkedIn: z.boolean(),
});
export const familySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phoneLast4: z.string().nullable(),
  children: z.array(lookupChildSchema),
});
export const lookupOutputSchema = z.object({ serviceId: z.number().int().nullable(), families: z.array(familySchema) });

export const checkInChildSchema = z.object({
  childId: childIdSchema,
  roomId: roomIdSchema,
  /** Staff (or the volunteer) accepted a child outside the room's ages or grades. */
  ageOverride: z.boolean().default(false),
});
export const checkInInputSchema = z.object({
  familyId: familyIdSchema,
  serviceId: serviceIdSchema.nullable().default(null),
  children: z.array(checkInChildSchema).min(1, 'Choose at least one child').max(20, 'At most 20 children at once'),
  /** The station confirmed checking in to a room at capacity. */
  confirmOverCapacity: z.boolean().default(false),
});
export const checkinSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  familyId: z.number().int(),
  familyName: z.string(),
  childId: z.number().int(),
  childName: z.string(),
  roomId: z.number().int(),
  roomName: z.string(),
  serviceId: z.number().int().nullable(),
  securityCode: z.string(),
  checkedInAt: isoTimestamp,
  checkedOutAt: isoTimestamp.nullable(),
  ageOverride: z.boolean(),
  capacityOverride: z.boolean(),
  checkoutOverride: z.boolean(),
});
export type CheckinOut = z.input<typeof checkinSchema>;
export const checkInOutputSchema = z.object({
  securityCode: z.string(),
  checkins: z.array(checkinSchema),
});

export const checkoutInputSchema = z
  .object({
    id: checkinIdSchema,
    securityCode: securityCodeSchema.optional(),
    /** Staff only: pick up without the code (logged with the reason). */
    override: z.boolean().default(false),
    reason: optionalTextSchema('Reason', 500).default(null),
  })
  .refine((c) => c.override || c.securityCode !== undefined, {
    message: 'Security code is required',
    path: ['securityCode'],
  })
  .refine((c) => !c.override || (c.reason !== null && c.reason.trim() !== ''), {
    message: 'Say why the child is picked up without the code',
    path: ['reason'],
  });

export const listCheckinsInputSchema = z.object({
  date: dateSchema.optional(),
  room: roomIdSchema.optional(),
  present: z
    .enum(['true', 'false'], { error: 'Present must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

export const headcountsInputSchema = z.object({ date: dateSchema.optional() });
export const headcountsOutputSchema = z.object({
  date: z.string(),
  rooms: z.array(
    z.object({
      roomId: z.number().int(),
      roomName: z.string(),
      capacity: z.number().int().nullable(),
      serviceId: z.number().int().nullable(),
      checkedIn: z.number().int(),
      present: z.number().int(),
    }),
  ),
});

export const adultSchema = z.object({
  name: z.string(),
  relationship: z.string().nullable(),
  phone: z.string().nullable(),
  authorised: z.boolean(),
});
export const rosterInputSchema = z.object({ id: roomIdSchema, date: dateSchema.optional() });
export const rosterOutputSchema = z.object({
  date: z.string(),
  room: z.object({ id: z.number().int(), name: z.string(), capacity: z.number().int().nullable() }),
  children: z.array(
    z.object({
      checkinId: z.number().int(),
      childId: z.number().int(),
      name: z.string(),
      familyName: z.string(),
      securityCode: z.string(),
      checkedInAt: isoTimestamp,
      checkedOutAt: isoTimestamp.nullable(),
      allergies: z.string().nullable(),
      medicalNotes: z.string().nullable(),
      adults: z.array(adultSchema),
      /** Staff only: the custody note (a station never receives it). */
      custodyNote: z.string().nullable().optional(),
    }),
  ),
});

export const newChildSchema = z.object({
  name: requiredTextSchema('Child name', 100),
  dateOfBirth: dateSchema.nullable().default(null),
  grade: gradeSchema.nullable().default(null),
  allergies: optionalTextSchema('Allergies', 500).default(null),
  medicalNotes: optionalTextSchema('Medical notes', 1000).default(null),
});
export const newFamilyInputSchema = z.object({
  firstName: requiredTextSchema('Parent first name', 100),
  lastName: requiredTextSchema('Parent last name', 100),
  phone: z
    .string({ error: 'Phone is required' })
    .trim()
    .min(1, 'Phone is required')
    .max(40, 'Please enter a valid phone number')
    .refine((p) => (p.match(/\d/g) ?? []).length >= 7, 'Please enter a valid phone number'),
  email: z.email('Please enter a valid email address').max(320).nullable().default(null),
  children: z.array(newChildSchema).min(1, 'Add at least one child').max(12, 'At most 12 children'),
});
export const newFamilyOutputSchema = z.object({ family: familySchema });

/** Adults on a child's record and its notes (staff only). */
export const childCareInputSchema = z.object({
  id: childIdSchema,
  grade: gradeSchema.nullable().optional(),
  allergies: optionalTextSchema('Allergies', 500).optional(),
  medicalNotes: optionalTextSchema('Medical notes', 1000).optional(),
  custodyNote: optionalTextSchema('Custody note', 2000).optional(),
  adults: z
    .array(
      z.object({
        name: requiredTextSchema('Adult name', 100),
        relationship: optionalTextSchema('Relationship', 60).default(null),
        phone: optionalTextSchema('Phone', 40).default(null),
        authorised: z.boolean({ error: 'Say whether the adult may pick the child up' }),
      }),
    )
    .max(20, 'At most 20 adults')
    .optional(),
});
export const childCareSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  grade: z.number().int().nullable(),
  allergies: z.string().nullable(),
  medicalNotes: z.string().nullable(),
  custodyNote: z.string().nullable(),
  adults: z.array(adultSchema),
});
