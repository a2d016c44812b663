import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';

/** One row per token issued (only its hash is kept): `setup_token_sha256:<hash>`. */
const PREFIX = 'setup_token_sha256:';
/** Where a single token lived before several instances could each print their own. */
const LEGACY_KEY = 'setup_token_sha256';
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

async function forgetTokens(db: Db): Promise<void> {
  await db
    .deleteFrom('appSettings')
    .where((eb) => eb.or([eb('key', '=', LEGACY_KEY), eb('key', 'like', `${PREFIX}%`)]))
    .execute();
}

/**
 * At start, when no administrator exists and the first account is not made admin automatically:
 * a new one-time setup token, printed by the instance that issued it; null when an administrator
 * exists. Every token issued stays valid until one of them makes the administrator, so each of
 * several instances started together prints a token that works (one overwriting another's left
 * the first log's token dead).
 */
export async function issueSetupToken(db: Db): Promise<string | null> {
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (admin) {
    await forgetTokens(db);
    return null;
  }
  const token = crypto.randomBytes(24).toString('base64url');
  await db
    .insertInto('appSettings')
    .values({ key: PREFIX + sha256(token), value: new Date().toISOString() })
    .execute();
  return token;
}

/** True (and every token is used up) when `token` was issued and no administrator exists yet. */
export async function takeSetupToken(db: Db, token: string): Promise<boolean> {
  // The hash is looked up, not compared: a lookup by a SHA-256 of the guess reveals nothing usable.
  const row = await db
    .selectFrom('appSettings')
    .select('key')
    .where('key', '=', PREFIX + sha256(token))
    .executeTakeFirst();
  if (!row) return false;
  // Two registrations with tokens at once: one administrator (the other waits, then sees it).
  await sql`select pg_advisory_xact_lock(hashtext('lampstand:setup-token'))`.execute(db);
  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (admin) return false;
  await forgetTokens(db);
  return true;
}
