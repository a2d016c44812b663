import { type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { toCsv, type CsvCell } from '../../render/csv.js';
import { ICalEventStatus, renderCalendar, type CalendarEvent } from '../../render/ical.js';
import { slugOf } from '../../shared/text.js';
import { EVENT_NOT_FOUND } from './events.js';
import { registrationsOut } from './registrations.js';

// An event's files: its iCalendar file (every time of it), a church's public iCalendar feed, and the
// registrant list as CSV with every answer. Written by the one iCalendar and CSV writers.

const PROD_ID = { company: 'Lampstand', product: 'Events', language: 'EN' } as const;

interface EventForCalendar {
  id: number;
  title: string;
  slug: string;
  locationName: string | null;
  address: string | null;
  status: string;
}

const hostOf = (publicUrl: string) => new URL(publicUrl).hostname || 'lampstand.local';

/** The public page of an event (mounted by the public pages). */
export const eventPageUrl = (publicUrl: string, handle: string | null, slug: string) =>
  handle ? `${publicUrl.replace(/\/$/, '')}/c/${handle}/events/${slug}` : publicUrl;

async function calendarEntries(
  db: Db,
  events: readonly EventForCalendar[],
  o: { publicUrl: string; handle: string | null; timeId?: number },
): Promise<CalendarEvent[]> {
  if (events.length === 0) return [];
  let q = db
    .selectFrom('calendarEventTimes')
    .select(['id', 'eventId', 'startsAt', 'endsAt'])
    .where(
      'eventId',
      'in',
      events.map((e) => e.id),
    );
  if (o.timeId !== undefined) q = q.where('id', '=', o.timeId);
  const times = await q.orderBy('startsAt').execute();
  const byId = new Map(events.map((e) => [e.id, e]));
  return times.map((t) => {
    const e = byId.get(t.eventId)!;
    const location = [e.locationName, e.address].filter(Boolean).join(', ');
    return {
      id: `calendar-event-${e.id}-${t.id}@${hostOf(o.publicUrl)}`,
      start: t.startsAt,
      end: t.endsAt ?? new Date(t.startsAt.getTime() + 3_600_000),
      stamp: new Date(),
      summary: e.title,
      ...(location ? { location } : {}),
      url: eventPageUrl(o.publicUrl, o.handle, e.slug),
      ...(e.status === 'cancelled' ? { status: ICalEventStatus.CANCELLED } : {}),
    };
  });
}

async function handleOf(db: Db, tenantId: number): Promise<string | null> {
  const p = await db.selectFrom('churchProfiles').select('handle').where('userId', '=', tenantId).executeTakeFirst();
  return p?.handle ?? null;
}

/** One event's .ics (every time, or only `timeId`'s), for staff, the confirmation email and the public page. */
export async function eventIcs(
  db: Db,
  tenantId: number,
  input: { id: number; timeId?: number },
  publicUrl: string,
): Promise<{ fileName: string; contentType: string; text: string }> {
  const e = await db
    .selectFrom('calendarEvents')
    .select(['id', 'title', 'slug', 'locationName', 'address', 'status'])
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!e) throw notFound(EVENT_NOT_FOUND);
  const entries = await calendarEntries(db, [e], {
    publicUrl,
    handle: await handleOf(db, tenantId),
    timeId: input.timeId,
  });
  return {
    fileName: `${e.slug}.ics`,
    contentType: 'text/calendar; charset=utf-8',
    text: renderCalendar({ prodId: PROD_ID, name: e.title }, entries),
  };
}

/** A church's public feed: its published public events, by handle (404 for an unknown handle). */
export async function churchEventsFeed(db: Db, handle: string, publicUrl: string): Promise<string> {
  const church = await db
    .selectFrom('churchProfiles as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['p.userId', 'p.handle', 'u.churchName'])
    .where('p.handle', '=', handle.toLowerCase())
    .executeTakeFirst();
  if (!church) throw notFound('Church not found');
  const events = await db
    .selectFrom('calendarEvents')
    .select(['id', 'title', 'slug', 'locationName', 'address', 'status'])
    .where('userId', '=', church.userId)
    .where('visibility', '=', 'public')
    .where('status', 'in', ['published', 'cancelled'])
    .where('publishedAt', 'is not', null)
    .orderBy('id')
    .limit(500)
    .execute();
  const entries = await calendarEntries(db, events, { publicUrl, handle: church.handle });
  return renderCalendar({ prodId: PROD_ID, name: `${church.churchName} events` }, entries);
}

/** The registrant list as CSV: one row per attendee, with the registration's and the attendee's answers. */
export async function registrantsCsv(
  db: Db,
  tenantId: number,
  input: { id: number },
): Promise<{ fileName: string; csv: string }> {
  const e = await db
    .selectFrom('calendarEvents')
    .select(['id', 'title'])
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!e) throw notFound(EVENT_NOT_FOUND);
  const [questions, ids] = await Promise.all([
    db
      .selectFrom('calendarQuestions')
      .select(['id', 'label', 'scope'])
      .where('eventId', '=', e.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db.selectFrom('calendarRegistrations').select('id').where('eventId', '=', e.id).orderBy('id').execute(),
  ]);
  const regs = await registrationsOut(
    db,
    ids.map((r) => r.id),
  );
  const show = (v: unknown): CsvCell => (Array.isArray(v) ? v.join('; ') : (v as CsvCell));
  const rows: CsvCell[][] = [
    [
      'Registration',
      'Status',
      'Starts',
      'Registrant',
      'Email',
      'Phone',
      'Attendee',
      'Ticket',
      'Price (cents)',
      'Total paid (cents)',
      'Checked in',
      ...questions.map((q) => q.label),
    ],
  ];
  for (const r of regs) {
    for (const a of r.attendees) {
      const answerOf = (q: { id: number; scope: string }) =>
        show(
          r.answers.find(
            (x) =>
              x.questionId === q.id && (q.scope === 'registration' ? x.attendeeId === null : x.attendeeId === a.id),
          )?.value,
        );
      rows.push([
        r.id,
        r.status,
        r.startsAt,
        r.name,
        r.email,
        r.phone,
        a.name,
        a.ticketTypeName,
        a.priceCents,
        r.paymentStatus === 'completed' ? r.totalCents - r.refundedCents : 0,
        a.checkedInAt,
        ...questions.map(answerOf),
      ]);
    }
  }
  return { fileName: `${slugOf(e.title, 60) || 'event'}-registrations.csv`, csv: toCsv(rows) };
}
