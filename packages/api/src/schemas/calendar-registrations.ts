import { z } from 'zod';
import {
  boundedArraySchema,
  emailAddressSchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
} from './common.js';
import { MAX_ATTENDEES, REGISTRATION_STATUSES } from './calendar-events.js';

// Registrations for a church's calendar events: the public form, the staff's list and changes,
// check-in at the door (docs/calendar-events.md). Zod only.

/** An answer: text, a number, yes/no, a date ('YYYY-MM-DD') or the choices picked. */
export const answerValueSchema = z.union(
  [
    textSchema('Answer', 5000),
    z.number({ error: 'Answer must be a number' }).finite('Answer must be a number'),
    z.boolean(),
    boundedArraySchema(textSchema('Answer', 200), 'Answer', 50),
  ],
  { error: 'Answer must be text, a number, yes/no or a list of choices' },
);
export type AnswerValue = z.output<typeof answerValueSchema>;

export const answerInput = z.object({ questionId: idSchema('Question'), value: answerValueSchema });
const answers = boundedArraySchema(answerInput, 'Answers', 100).default([]);

export const attendeeInput = z.object({
  name: requiredTextSchema('Attendee name', 200),
  email: emailAddressSchema().nullable().optional(),
  ticketTypeId: idSchema('Ticket type'),
  answers,
});

const registrant = z.object({
  name: requiredTextSchema('Name', 200),
  email: emailAddressSchema(),
  phone: optionalTextSchema('Phone', 40).optional(),
});

const registrationFields = {
  timeId: idSchema('Time').optional(),
  registrant,
  attendees: boundedArraySchema(attendeeInput, 'Attendees', MAX_ATTENDEES).min(1, 'Add at least one attendee'),
  answers,
};

/** The public form: POST /api/public/calendar/events/{id}/register. */
export const registerSchema = z.object({
  id: idSchema('Event'),
  ...registrationFields,
  discountCode: optionalTextSchema('Discount code', 40).optional(),
  /** The same key again answers with the same registration (a retried request). */
  idempotencyKey: z
    .string({ error: 'Idempotency key must be text' })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency key must be 8–100 letters, digits, - or _')
    .optional(),
});
export type RegisterInput = z.output<typeof registerSchema>;

/** Staff add a registration (a walk-in at the door, a phone call): confirmed, no payment taken. */
export const staffRegisterSchema = z.object({ id: idSchema('Event'), ...registrationFields });
export type StaffRegisterInput = z.output<typeof staffRegisterSchema>;

const paymentOut = z.object({
  mode: z.enum(['stripe', 'demo', 'disabled']),
  intentId: z.string(),
  clientSecret: z.string(),
  publishableKey: z.string().nullable(),
  holdExpiresAt: isoTimestamp,
});

export const registerResultSchema = z.object({
  /** confirmed (free), waitlisted, pending_approval, or payment: pay within the hold to be confirmed. */
  outcome: z.enum(['confirmed', 'waitlisted', 'pending_approval', 'payment']),
  registrationId: z.number().int(),
  totalCents: z.number().int(),
  discountCents: z.number().int(),
  payment: paymentOut.nullable(),
  message: z.string(),
});
export type RegisterResult = z.input<typeof registerResultSchema>;

export const claimOfferSchema = z.object({
  token: z.string({ error: 'Token must be text' }).regex(/^[A-Za-z0-9_-]{16,100}$/, 'This offer link is not valid'),
});

export const registrationIdSchema = z.object({ id: idSchema('Registration') });

export const listRegistrationsSchema = z.object({
  id: idSchema('Event'),
  search: textSchema('Search', 200).optional(),
  status: z.enum([...REGISTRATION_STATUSES, 'all', 'active'], { error: 'Status is not known' }).default('active'),
  ticketTypeId: idSchema('Ticket type').optional(),
  questionId: idSchema('Question').optional(),
  /** With questionId: registrations whose answer contains this text (or is this choice). */
  answer: textSchema('Answer', 200).optional(),
  checkedIn: z.enum(['yes', 'no', 'all'], { error: 'Checked in must be yes, no or all' }).default('all'),
  timeId: idSchema('Time').optional(),
  page: z.coerce.number({ error: 'Page must be a number' }).int().min(1, 'Page must be at least 1').default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a number' })
    .int()
    .min(1, 'Page size must be at least 1')
    .max(200, 'Page size must be at most 200')
    .default(50),
});
export type ListRegistrationsInput = z.output<typeof listRegistrationsSchema>;

export const updateRegistrationSchema = z.object({
  id: idSchema('Registration'),
  name: requiredTextSchema('Name', 200).optional(),
  email: emailAddressSchema().optional(),
  phone: optionalTextSchema('Phone', 40).optional(),
  /** Approve (confirmed) or decline a registration waiting for approval. */
  status: z.enum(['confirmed', 'declined'], { error: 'Status must be confirmed or declined' }).optional(),
  /** Answers to change (registration answers without attendeeId; an attendee's with it). */
  answers: boundedArraySchema(
    answerInput.extend({ attendeeId: idSchema('Attendee').optional() }),
    'Answers',
    200,
  ).optional(),
  /** Attendees' names to change. */
  attendees: boundedArraySchema(
    z.object({ id: idSchema('Attendee'), name: requiredTextSchema('Attendee name', 200) }),
    'Attendees',
    MAX_ATTENDEES,
  ).optional(),
});
export type UpdateRegistrationInput = z.output<typeof updateRegistrationSchema>;

export const cancelRegistrationSchema = z.object({
  id: idSchema('Registration'),
  /** Cents to refund; unset: everything paid (less what was refunded) when the policy is full, else none. */
  refundCents: z
    .number({ error: 'Refund must be a whole number of cents' })
    .int('Refund must be a whole number of cents')
    .min(0, 'Refund cannot be negative')
    .optional(),
});

export const checkInSchema = z.object({
  id: idSchema('Registration'),
  /** The attendees arriving; unset: all of them. */
  attendeeIds: boundedArraySchema(idSchema('Attendee'), 'Attendees', MAX_ATTENDEES).optional(),
});

export const ticketLookupSchema = z.object({
  id: idSchema('Event'),
  /** What the QR code says: the ticket's address or its token alone. */
  ticket: z.string({ error: 'Ticket must be text' }).trim().min(1, 'Ticket is required').max(500, 'Ticket is too long'),
});

// ---- Output

export const attendeeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  ticketTypeId: z.number().int(),
  ticketTypeName: z.string(),
  priceCents: z.number().int(),
  checkedInAt: isoTimestamp.nullable(),
});

export const registrationSchema = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  timeId: z.number().int(),
  startsAt: isoTimestamp,
  status: z.enum(REGISTRATION_STATUSES),
  contactId: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  seats: z.number().int(),
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  totalCents: z.number().int(),
  /** What the ledger holds of it: the payment's status (null when nothing was to pay). */
  paymentStatus: z.enum(['pending', 'completed', 'failed', 'refunded', 'disputed']).nullable(),
  refundedCents: z.number().int(),
  refundDueCents: z.number().int(),
  holdExpiresAt: isoTimestamp.nullable(),
  offerExpiresAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  confirmedAt: isoTimestamp.nullable(),
  cancelledAt: isoTimestamp.nullable(),
  attendees: z.array(attendeeSchema),
  answers: z.array(
    z.object({
      questionId: z.number().int(),
      attendeeId: z.number().int().nullable(),
      label: z.string(),
      value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
    }),
  ),
});
export type RegistrationOut = z.input<typeof registrationSchema>;

export const registrationPageSchema = z.object({
  registrations: z.array(registrationSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const checkInResultSchema = z.object({
  registrationId: z.number().int(),
  checkedIn: z.array(z.object({ id: z.number().int(), name: z.string(), checkedInAt: isoTimestamp })),
});

export const ticketSchema = z.object({
  registrationId: z.number().int(),
  status: z.enum(REGISTRATION_STATUSES),
  attendee: attendeeSchema,
  registrant: z.string(),
});

// ---- Staff message the registrants

export const MESSAGE_CHANNELS = ['email', 'sms'] as const;

export const messageRegistrantsSchema = z
  .object({
    id: idSchema('Event'),
    channels: boundedArraySchema(z.enum(MESSAGE_CHANNELS, { error: 'Channel must be email or sms' }), 'Channels', 2)
      .min(1, 'Choose email, text or both')
      .refine((c) => new Set(c).size === c.length, { message: 'Choose each channel once' }),
    subject: optionalTextSchema('Subject', 200).optional(),
    body: requiredTextSchema('Message', 5000),
    /** Which registrations: active (not cancelled, expired or declined: the default) or one status. */
    status: z.enum([...REGISTRATION_STATUSES, 'active'], { error: 'Status is not known' }).default('active'),
    timeId: idSchema('Time').optional(),
  })
  .superRefine((m, ctx) => {
    if (m.channels.includes('email') && !m.subject?.trim())
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'An email needs a subject' });
    if (m.channels.includes('sms') && m.body.length > 640)
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'A text may be at most 640 characters' });
  });
export type MessageRegistrantsInput = z.output<typeof messageRegistrantsSchema>;

export const messageResultSchema = z.object({
  messageId: z.number().int(),
  /** Registrations the message is for. */
  registrations: z.number().int(),
  /** Emails and texts queued (a registrant with no mobile number on their contact gets no text). */
  emails: z.number().int(),
  texts: z.number().int(),
});
