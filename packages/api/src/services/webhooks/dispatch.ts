import { sql, type Db } from '@lampstand/db';
import { lockedRows } from '../background/locked.js';
import { lastSettled, logOrder, settledAfter } from '../events/log.js';

/** Events turned into deliveries per endpoint per transaction. */
const DISPATCH_BATCH = 5000;

interface Endpoint {
  id: number;
  userId: number;
  lastEventXid: string;
  lastEventId: number;
  eventTypes: string[] | null;
}

/**
 * One step for one endpoint, in the transaction that holds it (another dispatcher skips it
 * meanwhile), in one statement (one snapshot): read the church's settled events after its cursor
 * that it wants, in the log's order, insert their deliveries and move the cursor past them — or,
 * when fewer than a batch matched, past every settled event. Nothing can appear behind the cursor
 * later (events/log.ts), so an event is dispatched exactly once, and if the transaction fails
 * nothing moved. Returns the deliveries made.
 */
async function dispatchEndpoint(trx: Db, ep: Endpoint, limit = DISPATCH_BATCH): Promise<number> {
  const types = ep.eventTypes;
  const after = { xid: ep.lastEventXid, id: ep.lastEventId };
  const { rows } = await sql<{ made: number }>`
    with ev as (
      select e.id, e.xid, e.type from events e
      where ${settledAfter('e', ep.userId, after)}
        ${types === null ? sql`` : sql`and e.type = any(${types}::text[])`}
      order by ${logOrder('e')} limit ${limit}
    ),
    latest as (${lastSettled(ep.userId, after)}),
    made as (
      insert into webhook_deliveries (user_id, endpoint_id, event_id, type)
      select ${ep.userId}, ${ep.id}, ev.id, ev.type from ev order by ev.xid, ev.id
      returning 1
    ),
    moved as (
      select xid, id from ev where (select count(*) from ev) >= ${limit}
      union all select xid, id from latest where (select count(*) from ev) < ${limit}
      order by xid desc, id desc limit 1
    )
    update webhook_endpoints w set last_event_xid = moved.xid, last_event_id = moved.id
    from moved
    where w.id = ${ep.id} and (moved.xid, moved.id) > (w.last_event_xid, w.last_event_id)
    returning (select count(*) from made)::int as made`.execute(trx);
  return rows[0]?.made ?? 0;
}

/**
 * Every endpoint that is on and behind its church's log, one batch each, each claimed for its
 * transaction (the claim primitive's `lockedRows`): the deliveries made, and whether some endpoint
 * is still behind (call again, after sending what is due: a backlog of 100,000 events starts going
 * out after its first batch, not after the last).
 */
export async function dispatchEvents(db: Db): Promise<{ made: number; more: boolean }> {
  const endpoints = lockedRows(db, {
    due: (trx) =>
      trx
        .selectFrom('webhookEndpoints as w')
        .select(['w.id', 'w.userId', 'w.lastEventXid', 'w.lastEventId', 'w.eventTypes'])
        .where('w.disabledAt', 'is', null)
        .where(
          sql<boolean>`exists (select 1 from events e where ${settledAfter('e', sql.ref('w.user_id'), {
            xid: sql.ref('w.last_event_xid'),
            id: sql.ref('w.last_event_id'),
          })})`,
        )
        .orderBy('w.id'),
    once: { column: 'w.id', id: (w) => w.id },
    work: (trx, ep: Endpoint) => dispatchEndpoint(trx, ep),
  });
  let made = 0;
  let more = false;
  for await (const { out } of endpoints) {
    made += out;
    if (out >= DISPATCH_BATCH) more = true;
  }
  return { made, more };
}
