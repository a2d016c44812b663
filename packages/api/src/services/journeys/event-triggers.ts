import { sql, type Db } from '@lampstand/db';
import { parseDefinition } from './definitions.js';
import { enrollCandidates } from './enroll.js';
import { registrationKey } from './runner/before-event.js';

/** How long after an event's time ends a missed registration may still enter a journey. */
const MISSED_WITHIN_DAYS = 7;
/** A time without an end is taken to last this long. */
const DEFAULT_LENGTH = '1 hour';

/**
 * The 'did not attend' trigger, a clock like birthdays: a confirmed registration whose time has
 * ended (within the last week) with none of its attendees checked in enters each active journey
 * with the trigger once (its trigger key), on the registrant's contact.
 */
export async function runMissedEventTriggers(db: Db, now: Date): Promise<number> {
  const journeys = await db
    .selectFrom('journeys as j')
    .innerJoin('journeyVersions as v', (join) =>
      join.onRef('v.journeyId', '=', 'j.id').onRef('v.version', '=', 'j.currentVersion'),
    )
    .selectAll('j')
    .select('v.definition')
    .where('j.status', '=', 'active')
    .where(sql<boolean>`v.definition->'trigger'->>'kind' = 'event_missed'`)
    .orderBy('j.id')
    .execute();
  let made = 0;
  for (const { definition, ...row } of journeys) {
    const d = parseDefinition(row.name, definition);
    if (d.trigger.kind !== 'event_missed') continue;
    const eventId = d.trigger.eventId;
    const missed = await db
      .selectFrom('calendarRegistrations as r')
      .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
      .select(['r.id', 'r.contactId'])
      .where('r.userId', '=', row.userId)
      .where('r.status', '=', 'confirmed')
      .where('r.contactId', 'is not', null)
      .$if(eventId !== null, (q) => q.where('r.eventId', '=', eventId!))
      .where(sql<boolean>`coalesce(t.ends_at, t.starts_at + ${DEFAULT_LENGTH}::interval) <= ${now}`)
      .where(
        sql<boolean>`coalesce(t.ends_at, t.starts_at + ${DEFAULT_LENGTH}::interval) > ${now}::timestamptz - make_interval(days => ${MISSED_WITHIN_DAYS})`,
      )
      .where(
        sql<boolean>`not exists (select 1 from calendar_attendees a where a.registration_id = r.id and a.checked_in_at is not null)`,
      )
      .where(
        sql<boolean>`not exists (select 1 from journey_enrollments e where e.journey_id = ${row.id} and e.trigger_key = 'registration:' || r.id)`,
      )
      .orderBy('r.id')
      .limit(1000)
      .execute();
    for (const r of missed) {
      made += await db.transaction().execute((trx) =>
        enrollCandidates(trx, row, d, sql`select ${r.contactId}::int as id`, {
          now,
          triggerKey: registrationKey(r.id),
        }),
      );
    }
  }
  return made;
}
