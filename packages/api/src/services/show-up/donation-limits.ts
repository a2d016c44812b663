import type { Db } from '@lampstand/db';
import { throttle } from '../rate-limit/buckets.js';

export const TOO_MANY_GIFTS = 'Too many gifts from this address. Please try again later.';
export const TOO_MANY_GIFT_LOOKUPS = 'Too many requests from this address. Please try again later.';
/** Thank-you page lookups an address may make for each gift it may start. */
export const LOOKUPS_PER_GIFT = 10;

/**
 * The public giving endpoints, per address, counted in PostgreSQL: starting a gift
 * or completing a demo payment (`start`: `perHour` an hour, which stops card testing through the
 * payment provider) and reading a gift by its payment id (`lookup`: LOOKUPS_PER_GIFT times that).
 */
export async function throttleDonations(
  db: Db,
  o: { ip: string; perHour: number; kind: 'start' | 'lookup' },
): Promise<void> {
  if (o.kind === 'start')
    return throttle(db, `donate:${o.ip}`, { limit: o.perHour, windowSeconds: 3600 }, TOO_MANY_GIFTS);
  return throttle(
    db,
    `donation-lookup:${o.ip}`,
    { limit: o.perHour * LOOKUPS_PER_GIFT, windowSeconds: 3600 },
    TOO_MANY_GIFT_LOOKUPS,
  );
}
