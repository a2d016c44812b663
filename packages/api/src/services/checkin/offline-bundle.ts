import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { MAX_OFFLINE_FAMILIES, OFFLINE_WEEKS, type offlineBundleOutputSchema } from '../../schemas/checkin/offline.js';
import { reserveCodeBlock } from './codes.js';
import { cardHashesOf, recentFamilies } from './families.js';
import { listRooms, listServices } from './rooms.js';
import { presentForPickups } from './roster.js';
import { churchToday, type CheckinScope } from './scope.js';

/** How many unused codes a station holds for offline check-ins (topped up with each bundle). */
const OFFLINE_CODES = 50;

/**
 * What a station keeps for working without the network: today's open rooms and services, the
 * families of the last weeks (and their cards' hashes), the station's reserved codes, and the
 * children present that it may pick up (none for a self-service station).
 */
export async function offlineBundle(db: Db, scope: CheckinScope): Promise<z.input<typeof offlineBundleOutputSchema>> {
  const day = await churchToday(db, scope);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  const rooms = await listRooms(db, scope.tenantId, { fromDay: day, openOn: day });
  const services = (await listServices(db, scope.tenantId)).filter((s) => s.weekday === weekday);
  const station = scope.station;
  const codes = station
    ? await db
        .transaction()
        .execute((trx) => reserveCodeBlock(trx, scope.tenantId, { day, stationId: station.id, size: OFFLINE_CODES }))
    : [];
  const families = await recentFamilies(db, scope, { day, weeks: OFFLINE_WEEKS, max: MAX_OFFLINE_FAMILIES });
  const [cards, present] = await Promise.all([
    cardHashesOf(
      db,
      scope.tenantId,
      families.map((f) => f.id),
    ),
    presentForPickups(db, scope, day),
  ]);
  return {
    date: day,
    generatedAt: scope.now,
    rooms: rooms.map(({ closedOn: _c, ...r }) => r),
    services: services.map(({ weekday: _w, ...s }) => s),
    families,
    cards,
    codes,
    present,
  };
}
