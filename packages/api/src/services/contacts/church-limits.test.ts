import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { AppError } from '../../errors.js';
import { acquireExportSlot, CHURCH_LIMITS, EXPORT_BUSY, EXPORTS_BUSY, PROCESS_EXPORT_LIMIT } from './church-limits.js';

// Each export slot holds a connection of the church pool: the pool must hold them all and one more.
const { db } = await freshDatabase({ poolMax: PROCESS_EXPORT_LIMIT + 2 });
const churches = (
  await db
    .insertInto('users')
    .values(
      Array.from({ length: PROCESS_EXPORT_LIMIT + 1 }, (_, i) => ({
        username: `church-${i}`,
        passwordHash: 'x',
        churchName: `Church ${i}`,
        email: `c${i}@x.test`,
      })),
    )
    .returning('id')
    .execute()
).map((r) => r.id);

// Each export holds a pooled connection for its whole length, so one process
// streams at most PROCESS_EXPORT_LIMIT at once, whichever churches ask; the pool keeps the rest.
describe('exports in one process', () => {
  it('are at most PROCESS_EXPORT_LIMIT at once across churches (429), and a finished one frees its place', async () => {
    expect(PROCESS_EXPORT_LIMIT).toBeLessThan(10); // the pool's default size
    const held = [];
    for (const id of churches.slice(0, PROCESS_EXPORT_LIMIT)) held.push(await acquireExportSlot(db, id));
    const refused = await acquireExportSlot(db, churches[PROCESS_EXPORT_LIMIT]!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ message: EXPORTS_BUSY });
    await held.pop()!.release();
    await held.pop()!.release(); // twice is safe and counts once
    const next = await acquireExportSlot(db, churches[PROCESS_EXPORT_LIMIT]!);
    held.push(next);
    for (const slot of held) await slot.release();
  });

  it("a church's own limit still applies below the process's", async () => {
    expect(CHURCH_LIMITS.exports).toBeLessThan(PROCESS_EXPORT_LIMIT);
    const id = churches[0]!;
    const mine = [];
    for (let i = 0; i < CHURCH_LIMITS.exports; i++) mine.push(await acquireExportSlot(db, id));
    await expect(acquireExportSlot(db, id)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', message: EXPORT_BUSY });
    for (const slot of mine) await slot.release();
    // Every place is free again: the process limit was not consumed by the refused attempts.
    const all = [];
    for (const c of churches.slice(0, PROCESS_EXPORT_LIMIT)) all.push(await acquireExportSlot(db, c));
    for (const slot of all) await slot.release();
  });
});
