import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { updateChurchSettings } from '../settings/church-settings.js';
import { deleteExpiredEvents } from './retention.js';

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);

/** `n` events of `church`, `daysAgo` old. */
async function eventsAged(church: number, daysAgo: number, n: number) {
  await sql`
    insert into events (user_id, type, actor_kind, payload, occurred_at)
    select ${church}, 'contact.deleted', 'system', '{}'::jsonb, now() - make_interval(days => ${daysAgo}::int)
    from generate_series(1, ${n})`.execute(db);
}
async function ages(church: number) {
  const { rows } = await sql<{ days: number; n: number }>`
    select extract(day from now() - occurred_at)::int as days, count(*)::int as n
    from events where user_id = ${church} group by 1 order by 1`.execute(db);
  return rows.map((r) => [r.days, r.n]);
}

describe('deleteExpiredEvents', () => {
  it("deletes each church's events past its own retention, in batches, and nothing newer", async () => {
    // Church A keeps the default two years; church B chose 30 days.
    await updateChurchSettings(db, churchB, { eventRetentionDays: 30 });
    await eventsAged(churchA, 800, 7);
    await eventsAged(churchA, 700, 2);
    await eventsAged(churchB, 31, 5);
    await eventsAged(churchB, 29, 1);

    // Batches of 3: church A's 7 take three statements, church B's 5 two.
    expect(await deleteExpiredEvents(db, { batchSize: 3 })).toBe(12);
    expect(await ages(churchA)).toEqual([[700, 2]]);
    expect(await ages(churchB)).toEqual([[29, 1]]);
    expect(await deleteExpiredEvents(db)).toBe(0);
  });

  it('the setting is a whole number of days from 30 to 3650 (the table refuses anything else)', async () => {
    await expect(updateChurchSettings(db, churchA, { eventRetentionDays: 29 })).rejects.toThrow(/check constraint/);
    const saved = await updateChurchSettings(db, churchA, { eventRetentionDays: 3650 });
    expect(saved.eventRetentionDays).toBe(3650);
  });
});
