import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';

const KEY = 'setup_token_sha256';
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * At start, when no administrator exists and the first account is not made admin automatically:
 * a new one-time setup token (only its hash is kept); null when an administrator exists.
 */
export async function issueSetupToken(db: Db): Promise<string | null> {
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (admin) {
    await db.deleteFrom('appSettings').where('key', '=', KEY).execute();
    return null;
  }
  const token = crypto.randomBytes(24).toString('base64url');
  await db
    .insertInto('appSettings')
    .values({ key: KEY, value: sha256(token) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: sha256(token) }))
    .execute();
  return token;
}

/** True (and the token is used up) when `token` is the current setup token and no administrator exists. */
export async function takeSetupToken(db: Db, token: string): Promise<boolean> {
  const row = await db.selectFrom('appSettings').select('value').where('key', '=', KEY).executeTakeFirst();
  if (!row) return false;
  const given = Buffer.from(sha256(token));
  if (!crypto.timingSafeEqual(given, Buffer.from(row.value.padEnd(given.length).slice(0, given.length)))) return false;
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (admin) return false;
  await db.deleteFrom('appSettings').where('key', '=', KEY).execute();
  return true;
}
