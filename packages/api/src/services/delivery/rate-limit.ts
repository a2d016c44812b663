import { sql, type Db } from '@lampstand/db';

/** The part of each second over which its slots are given out (the rest is for them to arrive). */
const SPREAD_MS = 900;

/**
 * Take one slot of `perSecond` in the current wall-clock second, shared by every process through
 * PostgreSQL; waits for the next second when this one is used up. The second is the database's,
 * read when the slot is taken: a slot asked for late in one second but granted in the next
 * belongs to the next. Slot n of a second is given out no earlier than n × 0.9/perSecond into it,
 * so sends are spread over the first 900 ms of the second instead of starting in a burst at its
 * beginning, and the last 100 ms are left for the messages to arrive: a receiver that counts by
 * the second and accepts each message within 100 ms of its slot sees at most `perSecond` in any of
 * its seconds (spread over the whole second, the last ones of a second arrived in the next, beside
 * its first ones: 103 in one second at 100 a second, in `bench:scale`). Returns the slot: its
 * second (epoch seconds) and how far into it the slot was given out.
 */
export async function takeRateSlot(
  db: Db,
  bucket: string,
  perSecond: number,
): Promise<{ second: number; offsetMs: number }> {
  for (;;) {
    const row = await sql<{ used: number; second: number; nowMs: number }>`
      with t as (select extract(epoch from clock_timestamp())::float8 * 1000 as ms)
      insert into rate_slots (bucket, second, used)
      select ${bucket}, floor(t.ms / 1000)::bigint, 1 from t
      on conflict (bucket, second) do update set used = rate_slots.used + 1
      where rate_slots.used < ${perSecond}
      returning used, second::float8 as second, (select ms from t) as now_ms`.execute(db);
    const slot = row.rows[0];
    if (slot) {
      if (Math.random() < 0.01) {
        await db
          .deleteFrom('rateSlots')
          .where('bucket', '=', bucket)
          .where('second', '<', slot.second - 60)
          .execute();
      }
      const offsetMs = ((slot.used - 1) * SPREAD_MS) / perSecond;
      const wait = slot.second * 1000 + offsetMs - slot.nowMs;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return { second: slot.second, offsetMs };
    }
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 2));
  }
}
