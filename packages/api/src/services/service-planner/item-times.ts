import { sql, type Db } from '@lampstand/db';

/**
 * Store each item's start time ('HH:MM', from the plan's start and the durations before it) in
 * service_items.start_time, in one statement, after anything that moves the times: an item added,
 * removed, resized or reordered, or the plan's start changed. Reads compute the same with
 * `computeItemTimes`; the column is for those who read the table directly.
 */
export async function storeItemStartTimes(db: Db, tenantId: number, o: { planId: number }): Promise<void> {
  await sql`
    update service_items i
    set start_time = case when p.start_time is null then null
      else to_char(p.start_time::time + make_interval(mins => s.before::int), 'HH24:MI') end
    from (
      select id, coalesce(sum(duration) over (order by position, id rows between unbounded preceding and 1 preceding), 0) as before
      from service_items where service_plan_id = ${o.planId} and user_id = ${tenantId}
    ) s, service_plans p
    where i.id = s.id and p.id = ${o.planId} and p.user_id = ${tenantId} and i.user_id = ${tenantId}
      and i.start_time is distinct from case when p.start_time is null then null
        else to_char(p.start_time::time + make_interval(mins => s.before::int), 'HH24:MI') end`.execute(db);
}
