import { sql, type Db } from '@lampstand/db';

/**
 * Take one slot of `perSecond` in the current wall-clock second, shared by every process through
 * PostgreSQL; waits for the next second when this one is used up.
 */
export async function takeRateSlot(db: Db, bucket: string, perSecond: number): Promise<void> {
  for (;;) {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    const row = await sql<{ used: number }>`
      insert into rate_slots (bucket, second, used) values (${bucket}, ${second}, 1)
      on conflict (bucket, second) do update set used = rate_slots.used + 1
      where rate_slots.used < ${perSecond}
      returning used`.execute(db);
    if (row.rows.length > 0) {
      if (Math.random() < 0.01) {
        await db
          .deleteFrom('rateSlots')
          .where('bucket', '=', bucket)
          .where('second', '<', second - 60)
          .execute();
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 2));
  }
}
