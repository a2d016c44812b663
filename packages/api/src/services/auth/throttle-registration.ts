import type { Db } from '@lampstand/db';
import { tooManyRequests } from '../../errors.js';
import { takeAttempt } from '../rate-limit/buckets.js';

export const TOO_MANY_REGISTRATIONS = 'Too many accounts were created from this address. Please try again later.';

/** At most `perHour` registrations from one address an hour (counted atomically in PostgreSQL). */
export async function throttleRegistration(db: Db, opts: { ip: string; perHour: number }): Promise<void> {
  const verdict = await takeAttempt(db, `register:${opts.ip}`, { limit: opts.perHour, windowSeconds: 3600 });
  if (!verdict.allowed) throw tooManyRequests(TOO_MANY_REGISTRATIONS);
}
