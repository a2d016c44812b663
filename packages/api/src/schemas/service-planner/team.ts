import { z } from 'zod';
import {
  boundedArraySchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
} from '../common.js';
import { dateSchema } from './fields.js';

// ---- Team ----

export const positionFieldsSchema = z.object({
  name: requiredTextSchema('Name', 100),
  category: optionalTextSchema('Category', 100).optional(),
  description: optionalTextSchema('Description', 500).optional(),
});
export const updatePositionSchema = positionFieldsSchema.partial().extend({ id: idSchema('Position ID') });
export const positionIdSchema = z.object({ id: idSchema('Position ID') });
export const positionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.string().nullable(),
  description: z.string().nullable(),
});
export type Position = z.infer<typeof positionSchema>;

const emailSchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? v.trim() : v),
  z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address').nullable(),
);

export const memberFieldsSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: emailSchema.optional(),
  phone: optionalTextSchema('Phone', 40).optional(),
  notes: optionalTextSchema('Notes', 2000).optional(),
  isActive: z.boolean({ error: 'Active must be true or false' }).default(true),
  contactId: idSchema('Contact ID').nullable().optional(),
  positionIds: boundedArraySchema(idSchema('Position ID'), 'Positions', 100).default([]),
  /** Most times a month the scheduler may choose them; null for no limit. */
  maxPerMonth: z
    .preprocess(
      (v) => (v === '' ? null : v),
      z.coerce
        .number({ error: 'Most times a month must be between 1 and 31' })
        .int('Most times a month must be between 1 and 31')
        .min(1, 'Most times a month must be between 1 and 31')
        .max(31, 'Most times a month must be between 1 and 31')
        .nullable(),
    )
    .optional(),
  /** Serve on the same plans as their household (family links between the members' contacts). */
  scheduleWithHousehold: z.boolean({ error: 'Schedule with my household must be true or false' }).optional(),
});
/** A member linked to a contact may leave the name empty: the contact's name fills it in. */
export const createMemberSchema = memberFieldsSchema
  .extend({
    name: z.preprocess((v) => (v === undefined ? '' : v), textSchema('Name', 200)),
  })
  .superRefine((v, ctx) => {
    if (!v.name.trim() && !v.contactId) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name is required' });
  });
export const updateMemberSchema = z.object({
  id: idSchema('Member ID'),
  name: memberFieldsSchema.shape.name.optional(),
  email: memberFieldsSchema.shape.email,
  phone: memberFieldsSchema.shape.phone,
  notes: memberFieldsSchema.shape.notes,
  isActive: z.boolean({ error: 'Active must be true or false' }).optional(),
  contactId: memberFieldsSchema.shape.contactId,
  positionIds: boundedArraySchema(idSchema('Position ID'), 'Positions', 100).optional(),
  maxPerMonth: memberFieldsSchema.shape.maxPerMonth,
  scheduleWithHousehold: memberFieldsSchema.shape.scheduleWithHousehold,
});
export const memberIdSchema = z.object({ id: idSchema('Member ID') });
export const listMembersSchema = z
  .object({
    search: textSchema('Search', 200).optional(),
    activeOnly: z
      .preprocess(
        (v) => (v === 'true' ? true : v === 'false' ? false : v),
        z.boolean({ error: 'activeOnly must be true or false' }),
      )
      .optional(),
  })
  .default({});

/** How a blockout recurs inside its range (every 2nd Sunday; every other week); null for every day. */
export const blockoutRecurrenceSchema = z
  .discriminatedUnion(
    'every',
    [
      z.object({
        every: z.literal('month'),
        nth: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(-1)], {
          error: 'Which week must be 1 to 5, or -1 for the last',
        }),
        weekday: z.number().int().min(0, 'Weekday must be 0 (Sunday) to 6').max(6, 'Weekday must be 0 (Sunday) to 6'),
      }),
      z.object({
        every: z.literal('weeks'),
        interval: z.number().int().min(1, 'Every must be 1 to 8 weeks').max(8, 'Every must be 1 to 8 weeks'),
        weekday: z.number().int().min(0, 'Weekday must be 0 (Sunday) to 6').max(6, 'Weekday must be 0 (Sunday) to 6'),
      }),
    ],
    { error: 'Recurrence must be every month or every few weeks' },
  )
  .nullable();

export const blockoutFieldsSchema = z
  .object({
    memberId: idSchema('Member ID'),
    startsOn: dateSchema('Start date'),
    endsOn: dateSchema('End date'),
    reason: optionalTextSchema('Reason', 300).optional(),
    recurrence: blockoutRecurrenceSchema.default(null),
  })
  .superRefine((v, ctx) => {
    if (v.endsOn < v.startsOn)
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'End date must be on or after the start date' });
  });
export const blockoutIdSchema = z.object({ id: idSchema('Blockout ID') });
export const blockoutSchema = z.object({
  id: z.number().int(),
  startsOn: z.string(),
  endsOn: z.string(),
  reason: z.string().nullable(),
  recurrence: blockoutRecurrenceSchema,
});
/** A blockout with its member, for the church-wide list. */
export const churchBlockoutSchema = blockoutSchema.extend({
  member: z.object({ id: z.number().int(), name: z.string() }),
});
export const listBlockoutsSchema = z
  .object({ from: dateSchema('From').optional(), to: dateSchema('To').optional() })
  .default({});

export const memberSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  isActive: z.boolean(),
  positions: z.array(positionSchema),
  blockouts: z.array(blockoutSchema),
  maxPerMonth: z.number().int().nullable(),
  scheduleWithHousehold: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type TeamMember = z.infer<typeof memberSchema>;
