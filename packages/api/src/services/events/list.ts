import type { Db, Row } from '@lampstand/db';
import type { EventOut, EventType } from '../../schemas/events.js';
import { assertChurchRow } from '../church-rows.js';
import { readLog } from './log.js';

const COLUMNS = ['id', 'type', 'version', 'occurredAt', 'contactId', 'actorKind', 'actorId', 'payload'] as const;

export function toEventOut(row: Pick<Row<'events'>, (typeof COLUMNS)[number]>): EventOut {
  return {
    id: row.id,
    type: row.type,
    version: row.version,
    occurredAt: row.occurredAt.toISOString(),
    contactId: row.contactId,
    actor: { kind: row.actorKind, id: row.actorId },
    data: row.payload,
  };
}

/**
 * The church's log after `after`, in the log's order, for integrators who cannot receive webhooks:
 * settled events only (events/log.ts), so the next page, after the last event of this one, never
 * misses one that commits late. `after` is an event's id; its place in the log is looked up.
 */
export async function listEvents(
  db: Db,
  tenantId: number,
  input: { after: number; types?: EventType[]; limit: number },
): Promise<{ events: EventOut[]; next: number }> {
  const page = await readLog(db, tenantId, { after: { eventId: input.after }, types: input.types, limit: input.limit });
  const events = page.events.map(toEventOut);
  return { events, next: events.at(-1)?.id ?? input.after };
}

/**
 * A person's timeline: newest first, older than `cursor`, of the given kinds ('email', 'donation', …).
 * By id, without the log's settling (events/log.ts): people see what has committed at once, and an
 * older page read later may show an event that committed meanwhile.
 */
export async function contactActivity(
  db: Db,
  tenantId: number,
  input: { contactId: number; cursor?: number | null; kinds?: string[]; limit: number },
): Promise<{ events: EventOut[]; next: number | null }> {
  await assertChurchRow(db, tenantId, { table: 'contacts', id: input.contactId, missing: 'Contact not found' });
  let q = db
    .selectFrom('events')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .where('contactId', '=', input.contactId);
  if (input.cursor) q = q.where('id', '<', input.cursor);
  if (input.kinds?.length) {
    const kinds = input.kinds;
    q = q.where((eb) => eb.or(kinds.map((k) => eb('type', 'like', `${k}.%`))));
  }
  const rows = await q
    .orderBy('id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const events = await withActorNames(db, tenantId, rows.slice(0, input.limit).map(toEventOut));
  return { events, next: rows.length > input.limit ? events.at(-1)!.id : null };
}

/**
 * The actors named, for a timeline read by people: the church's account by its user name, a person
 * acting in the portal by their name (none when the account or the person is gone, or for an
 * administrator's support session).
 */
async function withActorNames(db: Db, tenantId: number, events: EventOut[]): Promise<EventOut[]> {
  const idsOf = (kind: EventOut['actor']['kind']) => [
    ...new Set(events.flatMap((e) => (e.actor.kind === kind && e.actor.id !== null ? [e.actor.id] : []))),
  ];
  const people = idsOf('portal');
  const account = idsOf('user').includes(tenantId)
    ? await db.selectFrom('users').select('username').where('id', '=', tenantId).executeTakeFirst()
    : undefined;
  const names = new Map<number, string>();
  if (people.length) {
    const rows = await db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName'])
      .where('userId', '=', tenantId)
      .where('id', 'in', people)
      .execute();
    for (const r of rows) names.set(r.id, [r.firstName, r.lastName].filter(Boolean).join(' '));
  }
  return events.map((e) => {
    const name =
      e.actor.kind === 'portal' && e.actor.id !== null
        ? names.get(e.actor.id)
        : e.actor.kind === 'user' && e.actor.id === tenantId
          ? account?.username
          : undefined;
    return { ...e, actor: { ...e.actor, name: name || null } };
  });
}
