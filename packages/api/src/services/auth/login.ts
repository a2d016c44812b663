import type { Db } from '@lampstand/db';
import type { LoginInput, SessionUser } from '../../schemas/auth.js';
import { tooManyRequests, unauthorized } from '../../errors.js';
import { pruneBuckets, releaseAttempt, resetBucket, takeAttempt } from '../rate-limit/buckets.js';
import { verifyAgainstDummy, verifyPassword } from './password.js';
import { findUserByUsername, normalizeUsername, toSessionUser } from './users.js';

const LOGIN_WINDOW_MINUTES = 15;
/** Attempts per username + address in the window; the next is refused with 429. */
const LOGIN_MAX_FAILURES = 10;
/** Attempts per address an hour (offices behind one router), with growing delays after 20. */
const LOGIN_MAX_PER_ADDRESS = 100;
const LOGIN_DELAY_AFTER = 20;
const INVALID_CREDENTIALS = 'Invalid username or password';
const TOO_MANY_ATTEMPTS = `Too many failed login attempts. Please try again in ${LOGIN_WINDOW_MINUTES} minutes.`;

/**
 * Check a username and password. Each attempt (each call of a tRPC batch too) is counted in
 * PostgreSQL BEFORE the password is checked, in one locked step, per username + address (10 in 15
 * minutes) and per address (100 an hour, growing delays after 20). There is no per-username lock:
 * failures from other addresses never block the right password from yours.
 */
export async function login(db: Db, input: LoginInput & { ip: string }): Promise<SessionUser> {
  const userKey = `login:${normalizeUsername(input.username)}|${input.ip}`;
  const addressKey = `login-address:${input.ip}`;
  const byUser = await takeAttempt(db, userKey, {
    limit: LOGIN_MAX_FAILURES,
    windowSeconds: LOGIN_WINDOW_MINUTES * 60,
  });
  if (!byUser.allowed) throw tooManyRequests(TOO_MANY_ATTEMPTS, byUser.retryAfterSeconds);
  const byAddress = await takeAttempt(db, addressKey, {
    limit: LOGIN_MAX_PER_ADDRESS,
    windowSeconds: 3600,
    delayAfter: LOGIN_DELAY_AFTER,
  });
  if (!byAddress.allowed) {
    await releaseAttempt(db, userKey);
    throw tooManyRequests(TOO_MANY_ATTEMPTS, byAddress.retryAfterSeconds);
  }

  const user = await findUserByUsername(db, input.username);
  const ok = user
    ? await verifyPassword(user.passwordHash, input.password)
    : (await verifyAgainstDummy(input.password), false);
  if (!user || !ok) {
    if (Math.random() < 0.01) await pruneBuckets(db);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  await resetBucket(db, userKey);
  await releaseAttempt(db, addressKey);
  return toSessionUser(user);
}
