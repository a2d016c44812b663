import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * The log of what happened: every event type, and the zod schema of its payload for
 * each version. Integrators and the web read the same schemas (`@lampstand/api/schemas/events`).
 *
 * A payload keeps every detail about a person (name, email, phone) under `person`, and nowhere
 * else: deleting a contact drops `person` from its events (the events stay, anonymised), so
 * `person` is optional in every payload. Other things are named as they were when it happened
 * (`{ id, name }`): the timeline reads in plain words without joins, and still reads after the
 * thing is renamed or deleted.
 */

const id = z.number().int().positive();
/** A thing the event names, as it was named then. */
const ref = z.object({ id, name: z.string() });
const person = z.object({
  name: z.string(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
});
const consentStatus = z.enum(['subscribed', 'unsubscribed']);
/** Where a sign-up or a gift came from, named as the church named it ('QR code: Lobby banner'). */
const source = z.object({
  kind: z.enum(['qr', 'link', 'email', 'sms', 'page', 'utm', 'referrer', 'direct']),
  id: id.nullable(),
  name: z.string(),
});
const campaign = z.object({ id, name: z.string() });
const money = { amountCents: z.number().int(), currency: z.string() };

/**
 * What a gift went to: its `gift` and `funds`, and its Show Up `project` when a line goes
 * to a project's fund (a project gift is a gift). Events written before the one ledger name a project
 * gift by its `project` alone, `donationId` then being its Show Up id.
 */
const gifted = {
  project: ref.optional(),
  gift: z
    .object({
      id,
      frequency: z.enum(['one_time', 'weekly', 'every_two_weeks', 'monthly', 'first_and_fifteenth', 'yearly']),
      scheduleId: id.nullable(),
    })
    .optional(),
  funds: z.array(z.object({ fund: ref, amountCents: z.number().int() })).optional(),
};

/** A payload: its fields, and the person it is about (optional: gone once the contact is deleted). */
const about = <S extends z.ZodRawShape>(shape: S) => z.object({ person: person.optional(), ...shape });

export const eventPayloadSchemas = {
  'contact.created': {
    1: about({
      via: z.enum(['staff', 'import', 'api', 'signup', 'donation', 'portal', 'checkin']),
      /** The list it was created into (an import's list): no separate `list.member_added` then. */
      list: ref.optional(),
    }),
  },
  'contact.updated': { 1: about({ changed: z.array(z.string()) }) },
  'contact.merged': { 1: about({ merged: z.object({ id, name: z.string().optional() }) }) },
  'contact.deleted': { 1: about({}) },
  'list.member_added': { 1: about({ list: ref }) },
  'list.member_removed': { 1: about({ list: ref }) },
  'consent.changed': {
    1: about({
      channel: z.enum(['email', 'sms']),
      from: consentStatus.nullable(),
      to: consentStatus,
      reason: z.string(),
    }),
  },
  'signup.received': {
    1: about({
      /** The landing page; null for a sign-up on the church's public home. */
      page: ref.nullable(),
      block: z.object({ id: z.string(), kind: z.string() }),
      source: source.nullable(),
      confirmationRequired: z.boolean(),
    }),
  },
  'signup.confirmed': { 1: about({ page: ref.nullable() }) },
  'email.sent': { 1: about({ campaign: campaign.nullable(), deliveryId: id }) },
  'email.opened': { 1: about({ campaign: campaign.nullable(), deliveryId: id }) },
  'email.clicked': { 1: about({ campaign: campaign.nullable(), deliveryId: id, url: z.string() }) },
  'email.bounced': { 1: about({ campaign: campaign.nullable(), deliveryId: id.nullable(), reason: z.string() }) },
  'email.complained': { 1: about({ campaign: campaign.nullable(), deliveryId: id.nullable() }) },
  'email.unsubscribed': { 1: about({ campaign: campaign.nullable(), deliveryId: id.nullable() }) },
  'sms.sent': { 1: about({ campaign: campaign.nullable(), deliveryId: id }) },
  'sms.delivered': { 1: about({ campaign: campaign.nullable(), deliveryId: id }) },
  'sms.failed': { 1: about({ campaign: campaign.nullable(), deliveryId: id, reason: z.string() }) },
  'sms.received': {
    1: about({
      body: z.string(),
      /** The keyword the text matched: STOP, START, HELP or one of the church's. */
      keyword: z.string().nullable().optional(),
      conversationId: id.optional(),
    }),
  },
  // `donationId` is the gift's id (before the one ledger, a Show Up gift's own id, with `project` alone).
  'donation.succeeded': { 1: about({ ...gifted, donationId: id, ...money, source: source.nullable() }) },
  'donation.refunded': { 1: about({ ...gifted, donationId: id, ...money }) },
  'donation.failed': { 1: about({ ...gifted, donationId: id, ...money, reason: z.string() }) },
  'campaign.sent': { 1: about({ campaign, channel: z.enum(['email', 'sms']), recipients: z.number().int() }) },
  'social_post.published': { 1: about({ post: ref, platforms: z.array(z.string()) }) },
  'social_post.failed': { 1: about({ post: ref, platforms: z.array(z.string()), reason: z.string() }) },
  'plan.request_sent': { 1: about({ plan: ref, position: z.string(), assignmentId: id }) },
  'plan.accepted': { 1: about({ plan: ref, position: z.string(), assignmentId: id }) },
  'plan.declined': { 1: about({ plan: ref, position: z.string(), assignmentId: id }) },
  // Reminders, and a slot offered to teammates (after a decline, or a swap from the
  // portal); `offerId` ties an offer's events together, `assignmentId` is the person's own slot.
  'plan.reminder_sent': {
    1: about({
      plan: ref,
      position: z.string(),
      assignmentId: id,
      daysBefore: z.number().int(),
      channels: z.array(z.enum(['email', 'sms'])),
    }),
  },
  'plan.substitute_requested': {
    1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id, offeredTo: z.number().int() }),
  },
  'plan.swap_requested': {
    1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id, offeredTo: z.number().int() }),
  },
  'plan.substitute_offered': { 1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id }) },
  'plan.substitute_accepted': {
    1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id, covering: z.string() }),
  },
  'plan.substitute_filled': {
    1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id, by: z.string() }),
  },
  'plan.substitute_unfilled': { 1: about({ plan: ref, position: z.string(), assignmentId: id, offerId: id }) },
  'project.update_posted': { 1: about({ project: ref, update: ref }) },
  // A member's proposed details (field names only: the values are the person's).
  'profile.update_proposed': { 1: about({ proposalId: id, fields: z.array(z.string()) }) },
  'profile.update_approved': { 1: about({ proposalId: id, fields: z.array(z.string()) }) },
  'profile.update_rejected': { 1: about({ proposalId: id, fields: z.array(z.string()) }) },
  // Journeys and their follow-up tasks. `step` names the step as the editor shows it.
  'journey.entered': { 1: about({ journey: ref, enrollmentId: id, version: z.number().int(), test: z.boolean() }) },
  'journey.step_done': {
    1: about({
      journey: ref,
      enrollmentId: id,
      step: z.object({ id: z.string(), kind: z.string(), name: z.string() }),
      outcome: z.enum(['done', 'skipped', 'yes', 'no', 'failed']),
      detail: z.string(),
    }),
  },
  'journey.completed': { 1: about({ journey: ref, enrollmentId: id }) },
  'journey.converted': { 1: about({ journey: ref, enrollmentId: id, goal: z.string() }) },
  'journey.exited': { 1: about({ journey: ref, enrollmentId: id, reason: z.string() }) },
  'task.assigned': { 1: about({ task: ref, assignee: z.string(), journey: ref.nullable() }) },
  'task.done': { 1: about({ task: ref, assignee: z.string() }) },
  // A card gift disputed with the bank is off the totals until the dispute is won.
  'donation.disputed': { 1: about({ ...gifted, donationId: id, ...money }) },
  'donation.dispute_closed': { 1: about({ ...gifted, donationId: id, ...money, won: z.boolean() }) },
  // A move-in import taken back (Settings → Move in): what it created removed, what it changed
  // restored where nobody edited it since. The gifts it wrote leave the ledger (they never had
  // receipts or donation events); each removed or restored contact has its own contact event too.
  'import.undone': {
    1: about({
      import: ref,
      kind: z.enum(['people', 'gifts']),
      contactsRemoved: z.number().int(),
      contactsRestored: z.number().int(),
      giftsRemoved: z.number().int(),
      giftsCents: z.number().int(),
      fundsRemoved: z.array(z.string()),
    }),
  },
  // Groups: joining (staff, the public finder, an approved request, a move), leaving, asking to
  // join from the finder, and a meeting's attendance (one event per meeting, no person).
  'group.member_joined': {
    1: about({
      group: ref,
      role: z.enum(['leader', 'member']),
      via: z.enum(['staff', 'finder', 'request', 'move']),
    }),
  },
  'group.member_left': { 1: about({ group: ref, via: z.enum(['staff', 'portal', 'move']) }) },
  'group.join_requested': { 1: about({ group: ref, requestId: id }) },
  'group.attendance_recorded': {
    1: about({ group: ref, meetingId: id, date: z.string(), present: z.number().int(), visitors: z.number().int() }),
  },
  // Children's check-in: `person` is the family's parent (the child has no contact of their own);
  // the security code is a pickup secret and is never in an event.
  'checkin.checked_in': {
    1: about({
      checkinId: id,
      date: z.string(),
      child: ref,
      room: ref,
      service: ref.nullable(),
      station: ref.nullable(),
      firstTime: z.boolean(),
      offline: z.boolean(),
      overrides: z.array(z.enum(['age', 'capacity'])),
    }),
  },
  'checkin.checked_out': {
    1: about({
      checkinId: id,
      date: z.string(),
      child: ref,
      room: ref,
      station: ref.nullable(),
      offline: z.boolean(),
      /** Picked up without the code by staff, with the reason they gave. */
      override: z.object({ reason: z.string() }).nullable(),
    }),
  },
  // A church's calendar events and registrations for them (`calendarEvent` names the event).
  'calendar_event.published': { 1: about({ calendarEvent: ref, slug: z.string() }) },
  'registration.created': {
    1: about({
      calendarEvent: ref,
      registrationId: id,
      status: z.enum(['held', 'pending_approval', 'confirmed', 'waitlisted']),
      attendees: z.number().int(),
      ...money,
    }),
  },
  /**
   * The registration holds its seats for good: free at once, paid when the payment succeeds, a
   * waitlist offer claimed (and paid), or approved by staff. Journeys 'Registered for an event' read it.
   */
  'registration.confirmed': {
    1: about({ calendarEvent: ref, registrationId: id, attendees: z.number().int(), ...money }),
  },
  'registration.cancelled': {
    1: about({ calendarEvent: ref, registrationId: id, refundCents: z.number().int(), currency: z.string() }),
  },
  'registration.checked_in': { 1: about({ calendarEvent: ref, registrationId: id, attendees: z.array(z.string()) }) },
} as const satisfies Record<string, Record<number, z.ZodType<object>>>;

export type EventType = keyof typeof eventPayloadSchemas;
export const EVENT_TYPES = Object.keys(eventPayloadSchemas) as EventType[];
/** The newest version of each type: what the services write. */
type Latest<T extends EventType> = (typeof eventPayloadSchemas)[T][1];
export type EventPayload<T extends EventType> = z.input<Latest<T>>;

/** An event as a service records it: its type, the contact it concerns (if any), its payload. */
export type NewEvent = {
  [T in EventType]: { type: T; contactId?: number | null; payload: EventPayload<T> };
}[EventType];

const isEventType = (s: string): s is EventType => Object.hasOwn(eventPayloadSchemas, s);

/** A refinement of a list of event types: each one known, else one issue naming the unknown ones. */
export function checkEventTypes(types: string[], ctx: z.RefinementCtx): boolean {
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `Unknown event type: ${unknown.join(', ')}` });
  return unknown.length === 0;
}

/** The kinds of the timeline's filter: the part of the type before the dot. */
export const EVENT_KINDS = [...new Set(EVENT_TYPES.map((t) => t.split('.')[0]!))] as const;

/**
 * Who did it: the church's account ('user'), an API key, a visitor of a public page, Lampstand
 * itself ('system'), a person through the members' portal ('portal', id the contact's), or a paired
 * check-in station ('station', id the station's).
 */
export const actorSchema = z.object({
  kind: z.enum(['user', 'api_key', 'public', 'system', 'portal', 'station']),
  id: z.number().int().nullable(),
  /** Where the log is read for people (a person's activity): the actor's name, when it has one. */
  name: z.string().nullable().optional(),
});
export type EventActor = z.infer<typeof actorSchema>;

/** An event as the API returns it. `data` is the payload of `type` at `version`. */
export const eventSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  version: z.number().int(),
  occurredAt: z.string(),
  contactId: z.number().int().nullable(),
  actor: actorSchema,
  data: z.record(z.string(), z.unknown()),
});
export type EventOut = z.infer<typeof eventSchema>;

/** Event types as a comma-separated list ('contact.created,donation.succeeded'), each one known. */
export const eventTypesListSchema = z
  .string()
  .max(2000, 'Types must be at most 2000 characters')
  .transform((s, ctx) => {
    const types = s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    return checkEventTypes(types, ctx) ? (types as EventType[]) : z.NEVER;
  });

export const MAX_EVENTS_PAGE = 500;

/** `GET /api/events?after=&types=&limit=`: the church's log in its order (events/log.ts), after a cursor. */
export const listEventsInput = z.object({
  after: z.coerce
    .number({ error: 'After must be a number' })
    .int('After must be a number')
    .min(0, 'After must be a number')
    .max(Number.MAX_SAFE_INTEGER, 'After must be a number')
    .default(0),
  types: eventTypesListSchema.optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a number')
    .min(1, 'Limit must be at least 1')
    .max(MAX_EVENTS_PAGE, `Limit must be at most ${MAX_EVENTS_PAGE}`)
    .default(100),
});
export const listEventsOutput = z.object({
  events: z.array(eventSchema),
  /** Pass as `after` for the next page (the last event's id, or `after` when the page is empty). */
  next: z.number().int(),
});

/** A person's timeline: newest first, older than `cursor` (an event id), filtered by kind. */
export const contactActivityInput = z.object({
  contactId: idSchema('Contact ID'),
  cursor: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullish(),
  /** Over REST a query gives one string: 'email' or 'email,sms'. */
  kinds: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
      z.array(z.enum(EVENT_KINDS as unknown as [string, ...string[]], { error: 'Unknown kind of activity' })),
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export const contactActivityOutput = z.object({
  events: z.array(eventSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  next: z.number().int().nullable(),
});
