import crypto from 'node:crypto';
import type { Db } from './client.js';

/**
 * A value kept in the database under `key`, created once with `make()` by whichever instance
 * comes first; every instance then reads the same one (e.g. the session-signing secret).
 */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('appSettings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

export function randomSecret(bytes = 48): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
