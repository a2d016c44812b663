import type { Db } from '@lampstand/db';
import { CompiledQuery } from 'kysely';
import type { z } from 'zod';
import { eventPayloadSchemas, type EventActor, type NewEvent } from '../../schemas/events.js';
import { actorOf, PUBLIC_ACTOR } from './actor.js';
import { EVENTS_CHANNEL } from '../webhooks/wake.js';

export { PUBLIC_ACTOR };

const INSERT_CHUNK = 2000;

/**
 * The insert of a chunk of events (see `recordEvents`), written once: no query tree built, walked by
 * the camel-case plugin and compiled per change. $1 the church, $2 its id as text, $3 and $4 the
 * actor, $5 the events as one JSON array.
 */
const INSERT_EVENTS = `
  with wake as materialized (
    select (select pg_notify('${EVENTS_CHANNEL}', $2) from webhook_endpoints
            where user_id = $1 and disabled_at is null limit 1)
  )
  insert into events (user_id, type, version, contact_id, actor_kind, actor_id, payload)
  select $1, e.v->>'t', 1, (e.v->>'c')::int, $3, $4::int, e.v->'p'
  from wake, jsonb_array_elements($5::jsonb) with ordinality as e(v, n)
  order by e.n`;

/** A payload that does not match its type's schema: a bug in the service that wrote it. */
export class BadEventPayloadError extends Error {
  constructor(type: string, detail: string) {
    super(`Event ${type} has a bad payload: ${detail}`);
    this.name = 'BadEventPayloadError';
  }
}

function checkedPayload(event: NewEvent): Record<string, unknown> {
  const schema: z.ZodType<object> = eventPayloadSchemas[event.type][1];
  const result = schema.safeParse(event.payload);
  if (!result.success) {
    const where = result.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ');
    throw new BadEventPayloadError(event.type, where);
  }
  return result.data as Record<string, unknown>;
}

/**
 * Records what a change did, in the change's own transaction (`trx`): the events commit with it or
 * not at all (an outbox). Writers do not wait on each other: each event keeps its transaction's id
 * (the `xid` column's default), and readers follow the log by (xid, id) through events whose
 * transaction has ended (events/log.ts), so none is skipped however the commits interleave. The
 * actor is whoever `trx` acts for (`actingAs`: the request's account, key or visitor), or `options.actor` where the service
 * knows better (a visitor's sign-up is the public's, whatever route carried it).
 */
export async function recordEvents(
  trx: Db,
  tenantId: number,
  events: readonly NewEvent[],
  options: { actor?: EventActor } = {},
): Promise<void> {
  if (events.length === 0) return;
  if (!trx.isTransaction) {
    throw new Error('recordEvents needs the transaction of the change it records');
  }
  const actor = options.actor ?? actorOf(trx);
  // One JSON document per chunk, unpacked by PostgreSQL: far cheaper than a parameter per column
  // per row for an import's thousands of events (record.test.ts, the import's events).
  const rows = events.map((e) => ({ t: e.type, c: e.contactId ?? null, p: checkedPayload(e) }));
  // A notification for the webhook workers when the church has an endpoint on (delivered at commit,
  // and once per transaction however many events it holds), in the statement that inserts the
  // chunk (`wake` is one row every inserted row joins; the materialized CTE is evaluated once): one
  // round trip for a change's few events.
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx.executeQuery(
      CompiledQuery.raw(INSERT_EVENTS, [
        tenantId,
        String(tenantId),
        actor.kind,
        actor.id,
        JSON.stringify(rows.slice(i, i + INSERT_CHUNK)),
      ]),
    );
  }
}

/** One event (see `recordEvents`). */
export function recordEvent(
  trx: Db,
  tenantId: number,
  event: NewEvent,
  options: { actor?: EventActor } = {},
): Promise<void> {
  return recordEvents(trx, tenantId, [event], options);
}

/** A person's details as events keep them (under `person`, dropped when the contact is deleted). */
export function personOf(c: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
}): { name: string; email: string | null; phone: string | null } {
  const name = [c.firstName, c.lastName].filter((s) => s && s.trim()).join(' ');
  return { name: name || c.email || c.phone || 'Someone', email: c.email ?? null, phone: c.phone ?? null };
}

/** The people of these contacts of the church as events keep them (`personOf`), by contact id. */
export async function peopleOf(
  trx: Db,
  tenantId: number,
  contactIds: readonly number[],
): Promise<Map<number, ReturnType<typeof personOf>>> {
  if (contactIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone'])
    .where('userId', '=', tenantId)
    .where('id', 'in', [...contactIds])
    .execute();
  return new Map(rows.map((c) => [c.id, personOf(c)]));
}
