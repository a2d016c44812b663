import type { Db } from '@lampstand/db';
import { churchLocaleOf } from '../settings/church-settings.js';
import { eventQuestions, type Question } from './answers.js';
import { closedReason } from './register.js';
import { whenText } from '../../render/events-html.js';
import type { RegisterCard } from '../../render/landing-page-html.js';

// What the public pages show: a church's published public events, one event by its slug with its
// times and the seats left of each ticket type (read at each request), a ticket by its token and a
// waitlist offer by its token. Nothing here writes.

export interface EventsChurch {
  userId: number;
  handle: string;
  churchName: string;
  locale: string;
  timeZone: string;
}

/** The church of a handle as it is now (lower case), with its locale and time zone; null when unknown. */
export async function eventsChurch(db: Db, handle: string): Promise<EventsChurch | null> {
  if (!/^[a-z0-9-]{3,40}$/.test(handle)) return null;
  const c = await db
    .selectFrom('churchProfiles as cp')
    .innerJoin('users as u', 'u.id', 'cp.userId')
    .select(['cp.userId', 'cp.handle', 'u.churchName'])
    .where('cp.handle', '=', handle)
    .executeTakeFirst();
  if (!c) return null;
  return { ...c, ...(await churchLocaleOf(db, c.userId)) };
}

export interface EventListItem {
  id: number;
  slug: string;
  title: string;
  imageUrl: string | null;
  locationName: string | null;
  status: 'published' | 'cancelled';
  nextStartsAt: Date;
  times: number;
}

/** The church's published public events with a time still to come, soonest first. */
export async function publicEventList(db: Db, tenantId: number, now: Date): Promise<EventListItem[]> {
  const rows = await db
    .selectFrom('calendarEvents as e')
    .innerJoin('calendarEventTimes as t', 't.eventId', 'e.id')
    .select(['e.id', 'e.slug', 'e.title', 'e.imageUrl', 'e.locationName', 'e.status'])
    .select((eb) => [eb.fn.min('t.startsAt').as('nextStartsAt'), eb.fn.countAll<string>().as('times')])
    .where('e.userId', '=', tenantId)
    .where('e.visibility', '=', 'public')
    .where('e.status', '=', 'published')
    .where('t.startsAt', '>', now)
    .groupBy('e.id')
    .orderBy('nextStartsAt')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    ...r,
    status: r.status as EventListItem['status'],
    nextStartsAt: new Date(r.nextStartsAt),
    times: Number(r.times),
  }));
}

/** Whether the church has an event to list (its home links to the list then). */
export async function hasPublicEvents(db: Db, tenantId: number, now: Date): Promise<boolean> {
  return (await publicEventList(db, tenantId, now)).length > 0;
}

export interface EventPageTime {
  id: number;
  startsAt: Date;
  endsAt: Date | null;
  /** Seats left at this time (null: no limit). */
  seatsLeft: number | null;
  /** Seats left per ticket type at this time (null: no limit). */
  ticketsLeft: Record<number, number | null>;
}

export interface EventPage {
  id: number;
  userId: number;
  slug: string;
  title: string;
  descriptionHtml: string;
  imageUrl: string | null;
  locationName: string | null;
  address: string | null;
  /** Where the place is on the map (both or neither). */
  latitude: number | null;
  longitude: number | null;
  visibility: 'public' | 'members' | 'link';
  status: 'published' | 'cancelled';
  waitlist: boolean;
  requiresApproval: boolean;
  refundPolicy: 'full' | 'none';
  /** Why nobody can register now (closed, not yet open, cancelled), or null. */
  closed: string | null;
  times: EventPageTime[];
  ticketTypes: { id: number; name: string; priceCents: number; maxPerRegistration: number | null }[];
  questions: Question[];
}

const minLeft = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * A published (or cancelled) event of the church by its slug, with its times to come and the seats
 * left; a members-only event only for a member (`member`), a draft never.
 */
export async function publicEventPage(
  db: Db,
  tenantId: number,
  slug: string,
  o: { now: Date; member?: boolean },
): Promise<EventPage | null> {
  if (!/^[a-z0-9-]{1,120}$/.test(slug)) return null;
  const e = await db
    .selectFrom('calendarEvents')
    .selectAll()
    .where('userId', '=', tenantId)
    .where('slug', '=', slug)
    .where('status', '!=', 'draft')
    .executeTakeFirst();
  if (!e || (e.visibility === 'members' && !o.member)) return null;
  const [times, types, counts, questions] = await Promise.all([
    db
      .selectFrom('calendarEventTimes')
      .select(['id', 'startsAt', 'endsAt', 'capacity', 'seatsTaken'])
      .where('eventId', '=', e.id)
      .where('startsAt', '>', o.now)
      .orderBy('startsAt')
      .execute(),
    db
      .selectFrom('calendarTicketTypes')
      .select(['id', 'name', 'priceCents', 'maxPerRegistration'])
      .where('eventId', '=', e.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('calendarTicketCounts as c')
      .innerJoin('calendarTicketTypes as k', 'k.id', 'c.ticketTypeId')
      .select(['c.timeId', 'c.ticketTypeId', 'c.capacity', 'c.taken'])
      .where('k.eventId', '=', e.id)
      .execute(),
    eventQuestions(db, e.id),
  ]);
  return {
    ...e,
    status: e.status as EventPage['status'],
    closed: closedReason(e, o.now),
    times: times.map((t) => {
      const seatsLeft = t.capacity === null ? null : Math.max(0, t.capacity - t.seatsTaken);
      const ticketsLeft: Record<number, number | null> = {};
      for (const k of types) {
        const c = counts.find((x) => x.timeId === t.id && x.ticketTypeId === k.id);
        const own = c && c.capacity !== null ? Math.max(0, c.capacity - c.taken) : null;
        ticketsLeft[k.id] = minLeft(seatsLeft, own);
      }
      return { id: t.id, startsAt: t.startsAt, endsAt: t.endsAt, seatsLeft, ticketsLeft };
    }),
    ticketTypes: types,
    questions,
  };
}

export interface TicketView {
  attendeeName: string;
  ticketType: string;
  title: string;
  startsAt: Date;
  locationName: string | null;
  address: string | null;
  status: string;
  checkedInAt: Date | null;
  churchName: string;
  locale: string;
  timeZone: string;
}

/** An attendee's ticket by its token (the QR code's address), or null. */
export async function ticketByToken(db: Db, token: string): Promise<TicketView | null> {
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return null;
  const t = await db
    .selectFrom('calendarAttendees as a')
    .innerJoin('calendarRegistrations as r', 'r.id', 'a.registrationId')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .innerJoin('calendarTicketTypes as k', 'k.id', 'a.ticketTypeId')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .select([
      'a.userId',
      'a.name as attendeeName',
      'k.name as ticketType',
      'e.title',
      't.startsAt',
      'e.locationName',
      'e.address',
      'r.status',
      'a.checkedInAt',
      'u.churchName',
    ])
    .where('a.ticketToken', '=', token)
    .executeTakeFirst();
  if (!t) return null;
  const { userId, ...rest } = t;
  return { ...rest, ...(await churchLocaleOf(db, userId)) };
}

export interface OfferView {
  name: string;
  title: string;
  startsAt: Date;
  seats: number;
  totalCents: number;
  status: string;
  offerExpiresAt: Date | null;
  handle: string | null;
  slug: string;
  churchName: string;
  locale: string;
  timeZone: string;
}

/** A waitlist offer by its token, or null (claimed offers lose their token). */
export async function offerByToken(db: Db, token: string): Promise<OfferView | null> {
  if (!/^[A-Za-z0-9_-]{16,100}$/.test(token)) return null;
  const r = await db
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .innerJoin('users as u', 'u.id', 'r.userId')
    .leftJoin('churchProfiles as cp', 'cp.userId', 'r.userId')
    .select([
      'r.userId',
      'r.name',
      'e.title',
      't.startsAt',
      'r.seats',
      'r.totalCents',
      'r.status',
      'r.offerExpiresAt',
      'cp.handle',
      'e.slug',
      'u.churchName',
    ])
    .where('r.offerToken', '=', token)
    .executeTakeFirst();
  if (!r) return null;
  const { userId, ...rest } = r;
  return { ...rest, ...(await churchLocaleOf(db, userId)) };
}

/**
 * The Register blocks' events of a landing page, by id: the church's published events still to
 * come (public and link-only to their page; members-only to the portal's); others are left out.
 */
export async function registerCardsFor(
  db: Db,
  tenantId: number,
  ids: number[],
  now: Date,
): Promise<Map<number, RegisterCard>> {
  const out = new Map<number, RegisterCard>();
  if (ids.length === 0) return out;
  const handle = await db
    .selectFrom('churchProfiles')
    .select('handle')
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!handle) return out;
  const rows = await db
    .selectFrom('calendarEvents as e')
    .innerJoin('calendarEventTimes as t', 't.eventId', 'e.id')
    .select(['e.id', 'e.title', 'e.slug', 'e.visibility', 'e.locationName'])
    .select((eb) => eb.fn.min('t.startsAt').as('startsAt'))
    .where('e.userId', '=', tenantId)
    .where('e.id', 'in', ids)
    .where('e.status', '=', 'published')
    .where('t.startsAt', '>', now)
    .groupBy('e.id')
    .execute();
  const zone = await churchLocaleOf(db, tenantId);
  for (const r of rows) {
    const base = r.visibility === 'members' ? `/c/${handle.handle}/me/events` : `/c/${handle.handle}/events`;
    out.set(r.id, {
      title: r.title,
      path: `${base}/${r.slug}`,
      when: whenText(new Date(r.startsAt), zone),
      place: r.locationName,
    });
  }
  return out;
}
