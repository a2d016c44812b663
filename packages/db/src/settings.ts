import crypto from 'node:crypto';
import type { Db } from './client.js';
import { openSecret, sealSecret } from './secrets.js';

/**
 * A secret kept in the database under `key`, created once with `make()` by whichever instance
 * comes first; every instance then reads the same one (e.g. the session-signing secret). Stored
 * sealed with the app's key (secrets.ts); its key must be listed in `SECRET_COLUMNS`.
 */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('appSettings')
    .values({ key, value: sealSecret(make()) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return openSecret(row.value);
}

export function randomSecret(bytes = 48): string {
  return crypto.randomBytes(bytes).toString('base64url');
}
