import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { REGISTRATION_STATUSES, type RegistrationCounts } from '../../schemas/calendar-events.js';
import type {
  CalendarEventOut,
  CreateCalendarEventInput,
  UpdateCalendarEventInput,
  calendarEventSummarySchema,
  listCalendarEventsSchema,
} from '../../schemas/calendar-events.js';
import { slugOf } from '../../shared/text.js';
import { recordEvents } from '../events/record.js';
import { sanitizeRichText } from '../landing-pages/sanitize.js';
import { cancelEventRegistrations } from './event-cancel.js';
import { ensureCounters, syncDiscountCodes, syncQuestions, syncTicketTypes, syncTimes } from './event-parts.js';

// A church's calendar events: create, change (PATCH partial; a part list sent is the whole set,
// see event-parts.ts), read, list, delete. Publishing records `calendar_event.published` once.

export const EVENT_NOT_FOUND = 'Event not found';

const SLUG_TAKEN = (slug: string) => `The address ${slug} is already used by another of your events`;

/** The whole event as the API shows it. */
export async function getCalendarEvent(db: Db, tenantId: number, input: { id: number }): Promise<CalendarEventOut> {
  const e = await db
    .selectFrom('calendarEvents')
    .selectAll()
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!e) throw notFound(EVENT_NOT_FOUND);
  const [times, ticketTypes, discountCodes, questions, counts] = await Promise.all([
    db
      .selectFrom('calendarEventTimes')
      .select(['id', 'startsAt', 'endsAt', 'capacity', 'seatsTaken'])
      .where('eventId', '=', e.id)
      .orderBy('startsAt')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('calendarTicketTypes')
      .select(['id', 'name', 'priceCents', 'capacity', 'maxPerRegistration'])
      .where('eventId', '=', e.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('calendarDiscountCodes')
      .select(['id', 'code', 'percentOff', 'amountOffCents', 'maxUses', 'uses', 'expiresAt'])
      .where('eventId', '=', e.id)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('calendarQuestions')
      .select(['id', 'scope', 'kind', 'label', 'choices', 'required'])
      .where('eventId', '=', e.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    statusCounts(db, [e.id]),
  ]);
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    descriptionHtml: e.descriptionHtml,
    imageUrl: e.imageUrl,
    locationName: e.locationName,
    address: e.address,
    latitude: e.latitude,
    longitude: e.longitude,
    audienceTags: e.audienceTags,
    visibility: e.visibility,
    status: e.status,
    registrationOpensAt: e.registrationOpensAt,
    registrationClosesAt: e.registrationClosesAt,
    requiresApproval: e.requiresApproval,
    waitlist: e.waitlist,
    refundPolicy: e.refundPolicy,
    publishedAt: e.publishedAt,
    times,
    ticketTypes,
    discountCodes,
    questions: questions,
    counts: counts.get(e.id) ?? NONE,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

const NONE: RegistrationCounts = Object.fromEntries(REGISTRATION_STATUSES.map((s) => [s, 0])) as RegistrationCounts;

/** Registrations of each event by status. */
async function statusCounts(db: Db, eventIds: number[]): Promise<Map<number, RegistrationCounts>> {
  const map = new Map<number, RegistrationCounts>();
  if (eventIds.length === 0) return map;
  const rows = await db
    .selectFrom('calendarRegistrations')
    .select(['eventId', 'status', sql<number>`count(*)::int`.as('n')])
    .where('eventId', 'in', eventIds)
    .groupBy(['eventId', 'status'])
    .execute();
  for (const r of rows) map.set(r.eventId, { ...(map.get(r.eventId) ?? NONE), [r.status]: r.n });
  return map;
}

type Summary = z.input<typeof calendarEventSummarySchema>;

export async function listCalendarEvents(
  db: Db,
  tenantId: number,
  input: z.output<typeof listCalendarEventsSchema>,
): Promise<Summary[]> {
  let q = db
    .selectFrom('calendarEvents')
    .select(['id', 'slug', 'title', 'status', 'visibility', 'locationName', 'createdAt'])
    .where('userId', '=', tenantId);
  if (input.status !== 'all') q = q.where('status', '=', input.status);
  if (input.search) q = q.where(sql<boolean>`title ilike ${`%${input.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  const events = await q.orderBy('id', 'desc').limit(500).execute();
  const ids = events.map((e) => e.id);
  const [counts, times] = await Promise.all([
    statusCounts(db, ids),
    ids.length
      ? db
          .selectFrom('calendarEventTimes')
          .select(['id', 'eventId', 'startsAt', 'endsAt', 'capacity', 'seatsTaken'])
          .where('eventId', 'in', ids)
          .orderBy('startsAt')
          .execute()
      : [],
  ]);
  return events.map((e) => ({
    ...e,
    status: e.status,
    visibility: e.visibility,
    counts: counts.get(e.id) ?? NONE,
    times: times.filter((t) => t.eventId === e.id).map(({ eventId: _, ...t }) => t),
  }));
}

interface Checked {
  latitude?: number | null;
  longitude?: number | null;
  registrationOpensAt?: Date | null;
  registrationClosesAt?: Date | null;
  requiresApproval?: boolean;
  ticketTypes?: { priceCents: number }[];
}

/** Rules across fields, on the event as it will be. */
function checkEvent(e: Required<Checked>): void {
  if (e.registrationOpensAt && e.registrationClosesAt && e.registrationClosesAt <= e.registrationOpensAt) {
    throw badRequest('Registration must close after it opens', 'registrationClosesAt');
  }
  if ((e.latitude === null) !== (e.longitude === null)) {
    const missing = e.latitude === null ? 'latitude' : 'longitude';
    throw badRequest('Give both latitude and longitude, or neither', missing);
  }
  if (e.requiresApproval && e.ticketTypes.some((t) => t.priceCents > 0)) {
    throw badRequest('An event with an approval step can only have free tickets', 'requiresApproval');
  }
}

async function published(trx: Db, tenantId: number, eventId: number, title: string, slug: string, now: Date) {
  const row = await trx
    .updateTable('calendarEvents')
    .set({ publishedAt: now })
    .where('id', '=', eventId)
    .where('publishedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) return;
  await recordEvents(trx, tenantId, [
    { type: 'calendar_event.published', payload: { calendarEvent: { id: eventId, name: title }, slug } },
  ]);
}

export async function createCalendarEvent(
  db: Db,
  tenantId: number,
  input: CreateCalendarEventInput,
  now = new Date(),
): Promise<CalendarEventOut> {
  checkEvent({
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    registrationOpensAt: input.registrationOpensAt ?? null,
    registrationClosesAt: input.registrationClosesAt ?? null,
    requiresApproval: input.requiresApproval,
    ticketTypes: input.ticketTypes,
  });
  const base = input.slug ?? (slugOf(input.title, 70) || 'event');
  const id = await db.transaction().execute(async (trx) => {
    let slug = base;
    for (let n = 2; ; n++) {
      const free = await trx
        .selectFrom('calendarEvents')
        .select('id')
        .where('userId', '=', tenantId)
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (!free) break;
      if (input.slug) throw conflict(SLUG_TAKEN(slug), 'slug');
      slug = `${base}-${n}`;
    }
    const row = await trx
      .insertInto('calendarEvents')
      .values({
        userId: tenantId,
        slug,
        title: input.title,
        descriptionHtml: sanitizeRichText(input.descriptionHtml),
        imageUrl: input.imageUrl ?? null,
        locationName: input.locationName ?? null,
        address: input.address ?? null,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        audienceTags: input.audienceTags,
        visibility: input.visibility,
        status: input.status,
        registrationOpensAt: input.registrationOpensAt ?? null,
        registrationClosesAt: input.registrationClosesAt ?? null,
        requiresApproval: input.requiresApproval,
        waitlist: input.waitlist,
        refundPolicy: input.refundPolicy,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict(SLUG_TAKEN(slug), 'slug');
        throw err;
      });
    const o = { tenantId, eventId: row.id };
    await syncTimes(trx, o, input.times);
    await syncTicketTypes(trx, o, input.ticketTypes);
    await ensureCounters(trx, row.id);
    await syncDiscountCodes(trx, o, input.discountCodes);
    await syncQuestions(trx, o, input.questions);
    if (input.status === 'published') await published(trx, tenantId, row.id, input.title, slug, now);
    return row.id;
  });
  return getCalendarEvent(db, tenantId, { id });
}

export async function updateCalendarEvent(
  db: Db,
  tenantId: number,
  input: UpdateCalendarEventInput,
  now = new Date(),
): Promise<CalendarEventOut> {
  await db.transaction().execute(async (trx) => {
    const e = await trx
      .selectFrom('calendarEvents')
      .selectAll()
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!e) throw notFound(EVENT_NOT_FOUND);
    const types =
      input.ticketTypes ??
      (await trx.selectFrom('calendarTicketTypes').select('priceCents').where('eventId', '=', e.id).execute());
    checkEvent({
      latitude: input.latitude !== undefined ? input.latitude : e.latitude,
      longitude: input.longitude !== undefined ? input.longitude : e.longitude,
      registrationOpensAt: input.registrationOpensAt !== undefined ? input.registrationOpensAt : e.registrationOpensAt,
      registrationClosesAt:
        input.registrationClosesAt !== undefined ? input.registrationClosesAt : e.registrationClosesAt,
      requiresApproval: input.requiresApproval ?? e.requiresApproval,
      ticketTypes: types,
    });
    const { id: _, times, ticketTypes, discountCodes, questions, descriptionHtml, ...fields } = input;
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    await trx
      .updateTable('calendarEvents')
      .set({
        ...set,
        ...(descriptionHtml !== undefined ? { descriptionHtml: sanitizeRichText(descriptionHtml) } : {}),
        updatedAt: now,
      })
      .where('id', '=', e.id)
      .execute()
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw conflict(SLUG_TAKEN(input.slug ?? e.slug), 'slug');
        throw err;
      });
    const o = { tenantId, eventId: e.id };
    if (times) await syncTimes(trx, o, times);
    if (ticketTypes) await syncTicketTypes(trx, o, ticketTypes);
    if (times || ticketTypes) await ensureCounters(trx, e.id);
    if (discountCodes) await syncDiscountCodes(trx, o, discountCodes);
    if (questions) await syncQuestions(trx, o, questions);
    if (input.status === 'published') {
      await published(trx, tenantId, e.id, input.title ?? e.title, input.slug ?? e.slug, now);
    }
    if (input.status === 'cancelled' && e.status !== 'cancelled') {
      await cancelEventRegistrations(trx, tenantId, { id: e.id, title: input.title ?? e.title }, now);
    }
  });
  return getCalendarEvent(db, tenantId, { id: input.id });
}

/** Deletes an event nobody registered for; one with registrations is cancelled instead (409 says so). */
export async function deleteCalendarEvent(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    const e = await trx
      .selectFrom('calendarEvents')
      .select('id')
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!e) throw notFound(EVENT_NOT_FOUND);
    const any = await trx
      .selectFrom('calendarRegistrations')
      .select('id')
      .where('eventId', '=', e.id)
      .limit(1)
      .executeTakeFirst();
    if (any) throw conflict('This event has registrations: set its status to cancelled instead of deleting it');
    await trx.deleteFrom('calendarEvents').where('id', '=', e.id).execute();
    return { id: e.id };
  });
}
