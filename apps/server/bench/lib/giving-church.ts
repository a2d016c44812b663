import type { Db } from '@lampstand/db';

/** The giving benchmarks' church and its one fund. */
export async function seedGivingChurch(db: Db): Promise<{ userId: number; fundId: number }> {
  const church = await db
    .insertInto('users')
    .values({ username: 'bench-church', email: 'bench@example.org', passwordHash: 'x', churchName: 'Grace Church' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fund = await db
    .insertInto('funds')
    .values({ userId: church.id, name: 'Bench General' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: church.id, fundId: fund.id };
}
