import { sql, type Db } from '@lampstand/db';
import type { LoginInput, SessionUser } from '../../schemas/auth.js';
import { tooManyRequests, unauthorized } from '../../errors.js';
import { verifyAgainstDummy, verifyPassword } from './password.js';
import { findUserByUsername, toSessionUser } from './users.js';

export const LOGIN_WINDOW_MINUTES = 15;
/** Failures allowed in the window; the next attempt is refused with 429. */
export const LOGIN_MAX_FAILURES = 10;
export const INVALID_CREDENTIALS = 'Invalid username or password';
export const TOO_MANY_ATTEMPTS = `Too many failed login attempts. Please try again in ${LOGIN_WINDOW_MINUTES} minutes.`;

/**
 * Check a username and password. Failures are counted in PostgreSQL, per username and per IP,
 * so every server instance sees the same count: after 10 failures within 15 minutes the next
 * attempt gets 429 whatever the password.
 */
export async function login(db: Db, input: LoginInput & { ip: string }): Promise<SessionUser> {
  const username = input.username.toLowerCase();
  const counts = await db
    .selectFrom('loginFailures')
    .select([
      sql<number>`count(*) filter (where username = ${username})`.as('byUser'),
      sql<number>`count(*) filter (where ip = ${input.ip})`.as('byIp'),
    ])
    .where('at', '>', sql<Date>`now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})`)
    .where((eb) => eb.or([eb('username', '=', username), eb('ip', '=', input.ip)]))
    .executeTakeFirstOrThrow();
  if (Number(counts.byUser) >= LOGIN_MAX_FAILURES || Number(counts.byIp) >= LOGIN_MAX_FAILURES) {
    throw tooManyRequests(TOO_MANY_ATTEMPTS);
  }

  const user = await findUserByUsername(db, input.username);
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : (await verifyAgainstDummy(input.password), false);
  if (!user || !ok) {
    await db.insertInto('loginFailures').values({ username, ip: input.ip }).execute();
    await db
      .deleteFrom('loginFailures')
      .where('at', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await db.deleteFrom('loginFailures').where('username', '=', username).execute();
  return toSessionUser(user);
}
