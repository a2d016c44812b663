import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';

export interface ChurchSettings {
  churchName: string;
  postalAddress: string | null;
  timeZone: string;
}

export async function getChurchSettings(db: Db, tenantId: number): Promise<ChurchSettings> {
  const row = await db
    .selectFrom('users')
    .leftJoin('churchSettings as s', 's.userId', 'users.id')
    .select(['users.churchName', 's.postalAddress', 's.timeZone'])
    .where('users.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Account not found');
  return { churchName: row.churchName, postalAddress: row.postalAddress ?? null, timeZone: row.timeZone ?? 'UTC' };
}

/** Partial: a field left undefined keeps its value (the row is created on the first save). */
export async function updateChurchSettings(
  db: Db,
  tenantId: number,
  input: { postalAddress?: string | null; timeZone?: string },
): Promise<ChurchSettings> {
  const set = {
    ...(input.postalAddress !== undefined ? { postalAddress: input.postalAddress } : {}),
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
  };
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, ...set })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...set, updatedAt: new Date() }))
    .execute();
  return getChurchSettings(db, tenantId);
}
