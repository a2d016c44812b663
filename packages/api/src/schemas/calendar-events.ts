import { z } from 'zod';
import {
  boundedArraySchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
  urlSchema,
} from './common.js';

// A church's calendar events and their registrations (docs/calendar-events.md). Zod only: the web's
// forms read the same messages.

export const EVENT_VISIBILITIES = ['public', 'members', 'link'] as const;
export const EVENT_STATUSES = ['draft', 'published', 'cancelled'] as const;
export const REFUND_POLICIES = ['full', 'none'] as const;
export const QUESTION_SCOPES = ['registration', 'attendee'] as const;
export const QUESTION_KINDS = [
  'short_text',
  'long_text',
  'choice',
  'multiple_choice',
  'yes_no',
  'date',
  'number',
] as const;
export const REGISTRATION_STATUSES = [
  'held',
  'pending_approval',
  'confirmed',
  'waitlisted',
  'offered',
  'cancelled',
  'expired',
  'declined',
] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** A seat is held this long while the person pays. */
export const HOLD_MINUTES = 10;
/** A seat offered from the waitlist waits this long for its person. */
export const OFFER_HOURS = 24;
/** The most attendees one registration covers. */
export const MAX_ATTENDEES = 50;
/** The most one registration may cost (whole cents): the card processor's limit for one payment. */
export const MAX_REGISTRATION_CENTS = 99_999_999;

const when = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label} must be a date and time (ISO 8601)` }).transform((s) => new Date(s));
const optionalWhen = (label: string) => when(label).nullable();
const count = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`)
    .max(1_000_000, `${label} must be at most 1,000,000`);
/** A coordinate of the event's place on the map (degrees), or null for none. */
const coordinate = (label: string, limit: number) =>
  z
    .number({ error: `${label} must be a number` })
    .min(-limit, `${label} must be between -${limit} and ${limit}`)
    .max(limit, `${label} must be between -${limit} and ${limit}`)
    .nullable();
const cents = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of cents` })
    .int(`${label} must be a whole number of cents`)
    .min(0, `${label} cannot be negative`)
    .max(MAX_REGISTRATION_CENTS, `${label} is too large`);

// ---- The parts of an event (written whole in POST, as a set in PATCH: see docs)

export const eventTimeInput = z.object({
  id: idSchema('Time').optional(),
  startsAt: when('Start'),
  endsAt: optionalWhen('End').optional(),
  capacity: count('Capacity').nullable().optional(),
});
export const ticketTypeInput = z.object({
  id: idSchema('Ticket type').optional(),
  name: requiredTextSchema('Ticket name', 80),
  priceCents: cents('Price').default(0),
  capacity: count('Ticket capacity').nullable().optional(),
  maxPerRegistration: count('Most per registration').nullable().optional(),
});
export const discountCodeInput = z.object({
  id: idSchema('Discount code').optional(),
  code: requiredTextSchema('Code', 40).refine((c) => /^[A-Za-z0-9_-]+$/.test(c), {
    message: 'Code may have letters, digits, - and _ only',
  }),
  percentOff: z
    .number({ error: 'Percent off must be a whole number' })
    .int('Percent off must be a whole number')
    .min(1, 'Percent off must be between 1 and 100')
    .max(100, 'Percent off must be between 1 and 100')
    .nullable()
    .optional(),
  amountOffCents: cents('Amount off').nullable().optional(),
  maxUses: count('Uses').nullable().optional(),
  expiresAt: optionalWhen('Expiry').optional(),
});
export const questionInput = z.object({
  id: idSchema('Question').optional(),
  scope: z.enum(QUESTION_SCOPES, { error: 'Asked of must be registration or attendee' }).default('registration'),
  kind: z.enum(QUESTION_KINDS, {
    error: 'Kind must be short_text, long_text, choice, multiple_choice, yes_no, date or number',
  }),
  label: requiredTextSchema('Question', 300),
  choices: boundedArraySchema(requiredTextSchema('Choice', 200), 'Choices', 50).default([]),
  required: z.boolean({ error: 'Required must be true or false' }).default(false),
});

const eventFields = {
  title: requiredTextSchema('Title', 200),
  slug: z
    .string({ error: 'Slug must be text' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Slug may have lowercase letters, digits and single hyphens')
    .max(80, 'Slug must be at most 80 characters'),
  descriptionHtml: textSchema('Description', 50_000),
  imageUrl: urlSchema('Image must be a valid URL').nullable(),
  locationName: optionalTextSchema('Location', 200),
  address: optionalTextSchema('Address', 500),
  /** Where the place is on the map: both or neither (the public page then shows a map tile). */
  latitude: coordinate('Latitude', 90),
  longitude: coordinate('Longitude', 180),
  audienceTags: boundedArraySchema(requiredTextSchema('Tag', 50), 'Tags', 20),
  visibility: z.enum(EVENT_VISIBILITIES, { error: 'Visibility must be public, members or link' }),
  status: z.enum(EVENT_STATUSES, { error: 'Status must be draft, published or cancelled' }),
  registrationOpensAt: optionalWhen('Registration opens'),
  registrationClosesAt: optionalWhen('Registration closes'),
  requiresApproval: z.boolean({ error: 'Approval must be true or false' }),
  waitlist: z.boolean({ error: 'Waitlist must be true or false' }),
  refundPolicy: z.enum(REFUND_POLICIES, { error: 'Refund policy must be full or none' }),
  times: boundedArraySchema(eventTimeInput, 'Times', 100).min(1, 'An event needs at least one time'),
  ticketTypes: boundedArraySchema(ticketTypeInput, 'Ticket types', 20).min(
    1,
    'An event needs at least one ticket type',
  ),
  discountCodes: boundedArraySchema(discountCodeInput, 'Discount codes', 100),
  questions: boundedArraySchema(questionInput, 'Questions', 50),
};

export const createCalendarEventSchema = z.object({
  title: eventFields.title,
  slug: eventFields.slug.optional(),
  descriptionHtml: eventFields.descriptionHtml.default(''),
  imageUrl: eventFields.imageUrl.optional(),
  locationName: eventFields.locationName.optional(),
  address: eventFields.address.optional(),
  latitude: eventFields.latitude.optional(),
  longitude: eventFields.longitude.optional(),
  audienceTags: eventFields.audienceTags.default([]),
  visibility: eventFields.visibility.default('public'),
  status: eventFields.status.default('draft'),
  registrationOpensAt: eventFields.registrationOpensAt.optional(),
  registrationClosesAt: eventFields.registrationClosesAt.optional(),
  requiresApproval: eventFields.requiresApproval.default(false),
  waitlist: eventFields.waitlist.default(true),
  refundPolicy: eventFields.refundPolicy.default('full'),
  times: eventFields.times,
  ticketTypes: eventFields.ticketTypes.default([{ name: 'General admission', priceCents: 0 }]),
  discountCodes: eventFields.discountCodes.default([]),
  questions: eventFields.questions.default([]),
});
export type CreateCalendarEventInput = z.output<typeof createCalendarEventSchema>;

/** PATCH: every field optional; a list sent is the whole set (items with an id kept and changed). */
export const updateCalendarEventSchema = z.object({
  id: idSchema('Event'),
  title: eventFields.title.optional(),
  slug: eventFields.slug.optional(),
  descriptionHtml: eventFields.descriptionHtml.optional(),
  imageUrl: eventFields.imageUrl.optional(),
  locationName: eventFields.locationName.optional(),
  address: eventFields.address.optional(),
  latitude: eventFields.latitude.optional(),
  longitude: eventFields.longitude.optional(),
  audienceTags: eventFields.audienceTags.optional(),
  visibility: eventFields.visibility.optional(),
  status: eventFields.status.optional(),
  registrationOpensAt: eventFields.registrationOpensAt.optional(),
  registrationClosesAt: eventFields.registrationClosesAt.optional(),
  requiresApproval: eventFields.requiresApproval.optional(),
  waitlist: eventFields.waitlist.optional(),
  refundPolicy: eventFields.refundPolicy.optional(),
  times: eventFields.times.optional(),
  ticketTypes: eventFields.ticketTypes.optional(),
  discountCodes: eventFields.discountCodes.optional(),
  questions: eventFields.questions.optional(),
});
export type UpdateCalendarEventInput = z.output<typeof updateCalendarEventSchema>;

export const calendarEventIdSchema = z.object({ id: idSchema('Event') });

export const listCalendarEventsSchema = z
  .object({
    status: z
      .enum([...EVENT_STATUSES, 'all'], { error: 'Status must be draft, published, cancelled or all' })
      .default('all'),
    search: textSchema('Search', 200).optional(),
  })
  .default({ status: 'all' });

// ---- Output

const timeOut = z.object({
  id: z.number().int(),
  startsAt: isoTimestamp,
  endsAt: isoTimestamp.nullable(),
  capacity: z.number().int().nullable(),
  seatsTaken: z.number().int(),
});
const ticketTypeOut = z.object({
  id: z.number().int(),
  name: z.string(),
  priceCents: z.number().int(),
  capacity: z.number().int().nullable(),
  maxPerRegistration: z.number().int().nullable(),
});
const discountCodeOut = z.object({
  id: z.number().int(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOffCents: z.number().int().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  expiresAt: isoTimestamp.nullable(),
});
const questionOut = z.object({
  id: z.number().int(),
  scope: z.enum(QUESTION_SCOPES),
  kind: z.enum(QUESTION_KINDS),
  label: z.string(),
  choices: z.array(z.string()),
  required: z.boolean(),
});

const n = z.number().int();
/** How many registrations of an event are in each status. */
export const registrationCountsSchema = z.object({
  held: n,
  pending_approval: n,
  confirmed: n,
  waitlisted: n,
  offered: n,
  cancelled: n,
  expired: n,
  declined: n,
});
export type RegistrationCounts = z.output<typeof registrationCountsSchema>;

export const calendarEventSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  imageUrl: z.string().nullable(),
  locationName: z.string().nullable(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  audienceTags: z.array(z.string()),
  visibility: z.enum(EVENT_VISIBILITIES),
  status: z.enum(EVENT_STATUSES),
  registrationOpensAt: isoTimestamp.nullable(),
  registrationClosesAt: isoTimestamp.nullable(),
  requiresApproval: z.boolean(),
  waitlist: z.boolean(),
  refundPolicy: z.enum(REFUND_POLICIES),
  publishedAt: isoTimestamp.nullable(),
  times: z.array(timeOut),
  ticketTypes: z.array(ticketTypeOut),
  discountCodes: z.array(discountCodeOut),
  questions: z.array(questionOut),
  /** Registrations by status (the registrant list's tabs). */
  counts: registrationCountsSchema,
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type CalendarEventOut = z.input<typeof calendarEventSchema>;

export const calendarEventSummarySchema = calendarEventSchema.pick({
  id: true,
  slug: true,
  title: true,
  status: true,
  visibility: true,
  locationName: true,
  createdAt: true,
  counts: true,
  times: true,
});
