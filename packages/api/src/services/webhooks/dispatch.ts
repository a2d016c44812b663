import { sql, type Db } from '@lampstand/db';

/** Events turned into deliveries per endpoint per transaction. */
const DISPATCH_BATCH = 5000;

/**
 * One step for one endpoint, in one statement (one snapshot, one transaction): lock the endpoint
 * (another dispatcher skips it meanwhile), read the church's events after its cursor that it wants,
 * insert their deliveries and move the cursor past them — or, when fewer than a batch matched, past
 * every event this snapshot sees. Ids of a church's events commit in order (events/record.ts), so
 * nothing after the cursor can still appear below it: an event is dispatched exactly once, and if
 * the transaction fails nothing moved. Returns the deliveries made, or null when the endpoint was
 * locked, off or gone.
 */
export async function dispatchEndpoint(db: Db, endpointId: number, limit = DISPATCH_BATCH): Promise<number | null> {
  const { rows } = await sql<{ made: number }>`
    with ep as (
      select id, user_id, last_event_id, event_types from webhook_endpoints
      where id = ${endpointId} and disabled_at is null
      for update skip locked
    ),
    ev as (
      select e.id, e.type from events e, ep
      where e.user_id = ep.user_id and e.id > ep.last_event_id
        and (ep.event_types is null or e.type = any(ep.event_types))
      order by e.id limit ${limit}
    ),
    latest as (
      select max(e.id) as id from events e, ep where e.user_id = ep.user_id and e.id > ep.last_event_id
    ),
    made as (
      insert into webhook_deliveries (user_id, endpoint_id, event_id, type)
      select ep.user_id, ep.id, ev.id, ev.type from ev, ep order by ev.id
      returning 1
    )
    update webhook_endpoints w
    set last_event_id = greatest(
      w.last_event_id,
      case when (select count(*) from ev) >= ${limit} then (select max(id) from ev) else (select id from latest) end
    )
    from ep where w.id = ep.id
    returning (select count(*) from made)::int as made`.execute(db);
  return rows[0]?.made ?? null;
}

/**
 * Every endpoint that is on and behind its church's log, one batch each: the deliveries made, and
 * whether some endpoint is still behind (call again, after sending what is due: a backlog of
 * 100,000 events starts going out after its first batch, not after the last).
 */
export async function dispatchEvents(db: Db): Promise<{ made: number; more: boolean }> {
  const { rows } = await sql<{ id: number }>`
    select w.id from webhook_endpoints w
    where w.disabled_at is null
      and exists (select 1 from events e where e.user_id = w.user_id and e.id > w.last_event_id)`.execute(db);
  let made = 0;
  let more = false;
  for (const { id } of rows) {
    const n = await dispatchEndpoint(db, id);
    made += n ?? 0;
    if (n !== null && n >= DISPATCH_BATCH) more = true;
  }
  return { made, more };
}
