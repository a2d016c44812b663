import type { Db } from '@lampstand/db';
import { throttle } from '../rate-limit/buckets.js';

const TOO_MANY_REGISTRATIONS = 'Too many accounts were created from this address. Please try again later.';

/** At most `perHour` registrations from one address an hour (counted atomically in PostgreSQL). */
export async function throttleRegistration(db: Db, opts: { ip: string; perHour: number }): Promise<void> {
  await throttle(db, `register:${opts.ip}`, { limit: opts.perHour, windowSeconds: 3600 }, TOO_MANY_REGISTRATIONS);
}
