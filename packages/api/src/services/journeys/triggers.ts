import { sql, type Db } from '@lampstand/db';
import type { JourneyTrigger } from '../../schemas/journeys.js';
import { parseDefinition, type JourneyDefinition, type JourneyRow } from './definitions.js';
import { enrollCandidates } from './enroll.js';
import { lockEnrollmentsFirst } from '../background/lock-first.js';
import { localParts } from './time.js';
import { recordEvents } from '../events/record.js';
import { lockedRows } from '../background/locked.js';
import type { NewEvent } from '../../schemas/events.js';
import { reachesWeeksInARow } from '../checkin/streaks.js';
import { GROUP_TRIGGER_EVENT, groupTriggerEntrants, isGroupTrigger } from './group-triggers.js';
import { registrationKey } from './runner/before-event.js';
import { readLog, settledAfter, type LogPosition } from '../events/log.js';

/**
 * Journeys' triggers read the event log through a cursor per church, like the webhook dispatcher:
 * one transaction claims the church's cursor (another reader skips it), reads the settled events
 * after it in the log's order, enrols the people they name and moves the cursor past them. Nothing
 * can appear behind the cursor later (events/log.ts): each event is read once, and if the
 * transaction fails nothing moved.
 */

/** Events read per church per transaction. */
const TRIGGER_BATCH = 2000;

/** The event each trigger kind reads (the birthday is a clock, manual enrolment an action). */
const TRIGGER_EVENT: Partial<Record<JourneyTrigger['kind'], string>> = {
  list_added: 'list.member_added',
  signup_confirmed: 'signup.confirmed',
  donation_succeeded: 'donation.succeeded',
  contact_created: 'contact.created',
  keyword: 'sms.received',
  checked_in: 'checkin.checked_in',
  ...GROUP_TRIGGER_EVENT,
  // A registration counts once it is confirmed (not while it is held for payment, waits for
  // approval or is on the waitlist).
  event_registered: 'registration.confirmed',
  event_attended: 'registration.checked_in',
};
/** Events that may mean a goal was reached: the people's enrolments are looked at now. */
const GOAL_EVENTS = ['list.member_added', 'donation.succeeded', 'contact.updated'];

interface EventRow {
  id: number;
  type: string;
  contactId: number | null;
  payload: Record<string, unknown>;
}

interface ActiveJourney {
  row: JourneyRow;
  d: JourneyDefinition;
}

async function activeJourneys(db: Db, tenantId: number | null): Promise<ActiveJourney[]> {
  const rows = await db
    .selectFrom('journeys as j')
    .innerJoin('journeyVersions as v', (join) =>
      join.onRef('v.journeyId', '=', 'j.id').onRef('v.version', '=', 'j.currentVersion'),
    )
    .selectAll('j')
    .select('v.definition')
    .where('j.status', '=', 'active')
    .$if(tenantId !== null, (q) => q.where('j.userId', '=', tenantId!))
    .orderBy('j.id')
    .execute();
  return rows.map(({ definition, ...row }) => ({ row: row, d: parseDefinition(row.name, definition) }));
}

const idOf = (v: unknown): number | null => (v && typeof v === 'object' && 'id' in v ? Number(v.id) : null);

/** The keyword of a text: the `keyword` the conversations issue records, else its first word. */
function keywordOf(payload: Record<string, unknown>): string {
  if (typeof payload.keyword === 'string') return payload.keyword.toUpperCase();
  const body = typeof payload.body === 'string' ? payload.body : '';
  return (body.trim().split(/\s+/)[0] ?? '').toUpperCase();
}

/** Whether event `e` starts journey trigger `t` (a first gift is checked separately). */
function matches(t: JourneyTrigger, e: EventRow): boolean {
  if (TRIGGER_EVENT[t.kind] !== e.type) return false;
  switch (t.kind) {
    case 'list_added':
      return t.listId !== null && idOf(e.payload.list) === t.listId;
    case 'signup_confirmed':
      return t.pageId === null || idOf(e.payload.page) === t.pageId;
    case 'donation_succeeded':
      // A gift to the church names its funds; a Show Up gift its project.
      return (
        (t.projectId === null || idOf(e.payload.project) === t.projectId) &&
        (t.fundId === null ||
          (Array.isArray(e.payload.funds) &&
            (e.payload.funds as { fund?: unknown }[]).some((l) => idOf(l.fund) === t.fundId)))
      );
    case 'contact_created':
      return t.source === null || e.payload.via === t.source;
    case 'keyword':
      return !!t.keyword && keywordOf(e.payload) === t.keyword.toUpperCase();
    case 'checked_in':
      return !t.firstTimeOnly || e.payload.firstTime === true;
    case 'event_registered':
    case 'event_attended':
      return t.eventId === null || idOf(e.payload.calendarEvent) === t.eventId;
    default:
      return false;
  }
}

/** One batch of one church's events, in the transaction that holds its cursor: the enrolments made. */
async function churchEvents(trx: Db, tenantId: number, after: LogPosition, now: Date): Promise<number> {
  const journeys = await activeJourneys(trx, tenantId);
  const types = [...new Set([...journeys.map((j) => TRIGGER_EVENT[j.d.trigger.kind]).filter(Boolean), ...GOAL_EVENTS])];
  const page = await readLog(trx, tenantId, { after, types: types as string[], limit: TRIGGER_BATCH });
  const events: EventRow[] = page.events;
  const moveTo = page.end ?? after;
  let enrolled = 0;
  const entered: NewEvent[] = [];
  for (const j of journeys) {
    if (isGroupTrigger(j.d.trigger)) {
      // One enrolment call per event: each has its own trigger key (the group that started it).
      for (const e of events) {
        if (Number(e.id) <= Number(j.row.activatedEventId)) continue;
        const entrants = await groupTriggerEntrants(trx, tenantId, j.d.trigger, e);
        if (!entrants) continue;
        enrolled += await enrollCandidates(trx, j.row, j.d, sql`select unnest(${entrants.contactIds}::int[]) as id`, {
          now,
          triggerKey: entrants.key,
          events: entered,
        });
      }
      continue;
    }
    const contacts: number[] = [];
    for (const e of events) {
      if (!e.contactId || Number(e.id) <= Number(j.row.activatedEventId) || !matches(j.d.trigger, e)) continue;
      if (j.d.trigger.kind === 'donation_succeeded' && j.d.trigger.firstGiftOnly) {
        const earlier = await trx
          .selectFrom('events')
          .select('id')
          .where('userId', '=', tenantId)
          .where('contactId', '=', e.contactId)
          .where('type', '=', 'donation.succeeded')
          .where('id', '<', e.id)
          .limit(1)
          .executeTakeFirst();
        if (earlier) continue;
      }
      if (j.d.trigger.kind === 'checked_in' && j.d.trigger.weeksInARow) {
        const day = typeof e.payload.date === 'string' ? e.payload.date : null;
        if (
          !day ||
          !(await reachesWeeksInARow(trx, tenantId, { familyId: e.contactId, day, weeks: j.d.trigger.weeksInARow }))
        )
          continue;
      }
      // A family's children check in together: one enrolment for the family's events of a batch.
      if (j.d.trigger.kind === 'checked_in' && contacts.includes(e.contactId)) continue;
      // An event trigger enters each registration once, keyed by it (its reminders know its time).
      const registrationId = Number(e.payload.registrationId);
      if (j.d.trigger.kind.startsWith('event_') && Number.isInteger(registrationId)) {
        enrolled += await enrollCandidates(trx, j.row, j.d, sql`select ${e.contactId}::int as id`, {
          now,
          events: entered,
          triggerKey: registrationKey(registrationId),
        });
        continue;
      }
      contacts.push(e.contactId);
    }
    if (contacts.length === 0) continue;
    enrolled += await enrollCandidates(trx, j.row, j.d, sql`select unnest(${contacts}::int[]) as id`, {
      now,
      events: entered,
    });
  }
  // Goals: people who may have reached one are looked at now rather than at their next step.
  const goalContacts = [
    ...new Set(events.filter((e) => GOAL_EVENTS.includes(e.type) && e.contactId).map((e) => e.contactId!)),
  ];
  if (goalContacts.length > 0) {
    // Locked in id order first, as the runner takes them (an update's join would take them in any order).
    await lockEnrollmentsFirst(trx, tenantId, { contactIds: goalContacts });
    await sql`
      update journey_enrollments e set next_run_at = ${now}
      from journey_versions v
      where v.journey_id = e.journey_id and v.version = e.version and v.definition->'goal' is not null
        and jsonb_typeof(v.definition->'goal') = 'object'
        and e.user_id = ${tenantId} and e.status = 'active' and e.contact_id = any(${goalContacts}::int[])
        and e.next_run_at > ${now}`.execute(trx);
  }
  await trx
    .updateTable('journeyTriggerCursors')
    .set({ lastEventXid: moveTo.xid, lastEventId: moveTo.id, updatedAt: new Date() })
    .where('userId', '=', tenantId)
    .execute();
  await recordEvents(trx, tenantId, entered);
  return enrolled;
}

/**
 * Every church with an active journey and events after its cursor, one batch each, each cursor
 * claimed for its transaction (the claim primitive's `lockedRows`: another reader skips it); the
 * enrolments made.
 */
export async function processJourneyTriggers(db: Db, now: Date): Promise<number> {
  const churches = lockedRows(db, {
    due: (trx) =>
      trx
        .selectFrom('journeyTriggerCursors as c')
        .select(['c.userId', 'c.lastEventXid', 'c.lastEventId'])
        .where(sql<boolean>`exists (select 1 from journeys j where j.user_id = c.user_id and j.status = 'active')`)
        .where(
          sql<boolean>`exists (select 1 from events e where ${settledAfter('e', sql.ref('c.user_id'), {
            xid: sql.ref('c.last_event_xid'),
            id: sql.ref('c.last_event_id'),
          })})`,
        )
        .orderBy('c.userId'),
    once: { column: 'c.userId', id: (c) => c.userId },
    work: (trx, c) => churchEvents(trx, c.userId, { xid: c.lastEventXid, id: c.lastEventId }, now),
  });
  let made = 0;
  for await (const { out } of churches) made += out;
  return made;
}

/**
 * The yearly birthday trigger: at 9:00 on a person's birthday in the church's time zone (or any
 * time later that day), they enter each active birthday journey once that year (the enrolment's
 * trigger key). Someone born on 29 February is greeted on 28 February in other years.
 */
export async function runBirthdayTriggers(db: Db, now: Date): Promise<number> {
  const journeys = (await activeJourneys(db, null)).filter((j) => j.d.trigger.kind === 'date');
  let made = 0;
  for (const j of journeys) {
    const s = await db
      .selectFrom('churchSettings')
      .select('timeZone')
      .where('userId', '=', j.row.userId)
      .executeTakeFirst();
    const local = localParts(now, s?.timeZone ?? 'UTC');
    if (local.hour < 9) continue;
    const leap = (local.year % 4 === 0 && local.year % 100 !== 0) || local.year % 400 === 0;
    const feb28 = local.month === 2 && local.day === 28 && !leap;
    made += await db.transaction().execute((trx) =>
      enrollCandidates(
        trx,
        j.row,
        j.d,
        sql`select id from contacts where user_id = ${j.row.userId} and date_of_birth is not null
            and ((extract(month from date_of_birth) = ${local.month} and extract(day from date_of_birth) = ${local.day})
                 or (${feb28} and extract(month from date_of_birth) = 2 and extract(day from date_of_birth) = 29))`,
        { now, triggerKey: `birthday:${local.year}` },
      ),
    );
  }
  return made;
}
