import type { Db } from '@lampstand/db';
import { throttle } from '../rate-limit/buckets.js';

/**
 * Registrations one address may send an hour: ten for each gift it may start (a church's members
 * behind one address register for themselves and their families; card testing is the giving limit's).
 * The register route and the public pages' form share the bucket.
 */
export const throttleRegistrations = (db: Db, ip: string, donationsPerAddressPerHour: number) =>
  throttle(
    db,
    `calendar-register:${ip}`,
    { limit: donationsPerAddressPerHour * 10, windowSeconds: 3600 },
    'Too many registrations from this address. Please try again later.',
  );
