import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';

export async function getChurchSettings(db: Db, tenantId: number) {
  const row = await db
    .selectFrom('users')
    .leftJoin('churchSettings as s', 's.userId', 'users.id')
    .select(['users.churchName', 's.postalAddress'])
    .where('users.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Account not found');
  return { churchName: row.churchName, postalAddress: row.postalAddress ?? null };
}

export async function updateChurchSettings(db: Db, tenantId: number, input: { postalAddress: string | null }) {
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, postalAddress: input.postalAddress })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ postalAddress: input.postalAddress, updatedAt: new Date() }))
    .execute();
  return getChurchSettings(db, tenantId);
}
