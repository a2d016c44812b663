import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type {
  offlineCheckInSchema,
  offlineCheckoutSchema,
  syncInputSchema,
  syncOutputSchema,
} from '../../schemas/checkin/offline.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { claimReservedCode } from './codes.js';
import { checkIn } from './check-in.js';
import { checkOut } from './checkout.js';
import { addOfflineFamily, resolveOfflineIds } from './offline-families.js';
import { loadCheckins } from './records.js';
import { churchToday, type CheckinScope } from './scope.js';

type Result = z.input<typeof syncOutputSchema>['results'][number];
type StationScope = CheckinScope & { station: NonNullable<CheckinScope['station']> };

/**
 * A check-in made offline: its code is one of the station's reserved block, so no other station
 * gave it; the room's capacity was already confirmed on the device. A family added offline earlier
 * in the batch is named by its client id.
 */
async function syncCheckIn(
  db: Db,
  scope: StationScope,
  action: z.output<typeof offlineCheckInSchema>,
  day: string,
): Promise<Result> {
  const clientIds = action.children.map((c) => c.clientId);
  const earlier = await loadCheckins(db, scope.tenantId, { clientIds });
  if (earlier.length > 0)
    return { clientId: action.clientId, status: 'already', message: null, familyId: null, checkins: earlier };
  const { familyId, children } = await resolveOfflineIds(db, scope.tenantId, action);
  const done = await db.transaction().execute(async (trx) => {
    const code = await claimReservedCode(trx, scope.tenantId, {
      day,
      code: action.securityCode,
      stationId: scope.station.id,
    });
    if (!code) throw new AppError('BAD_REQUEST', 'That security code is not one reserved for this station today');
    return checkIn(
      trx,
      scope,
      { familyId, serviceId: action.serviceId, children, confirmOverCapacity: true },
      {
        day,
        code,
        clientIds: new Map(children.map((c) => [c.childId, c.clientId])),
        at: new Date(action.at),
      },
    );
  });
  return { clientId: action.clientId, status: 'recorded', message: null, familyId, checkins: done.checkins };
}

/** A pickup made offline: the code the device checked is checked again here (a wrong one is refused). */
async function syncCheckOut(
  db: Db,
  scope: StationScope,
  action: z.output<typeof offlineCheckoutSchema>,
): Promise<Result> {
  const target = action.checkinId
    ? (await loadCheckins(db, scope.tenantId, { ids: [action.checkinId] }))[0]
    : action.checkinClientId
      ? (await loadCheckins(db, scope.tenantId, { clientIds: [action.checkinClientId] }))[0]
      : undefined;
  if (!target) throw notFound('Check-in not found');
  if (target.checkedOutAt)
    return { clientId: action.clientId, status: 'already', message: null, familyId: null, checkins: [target] };
  const out = await checkOut(
    db,
    scope,
    { id: target.id, securityCode: action.securityCode, override: false, reason: null },
    { at: new Date(action.at), offline: true },
  );
  return { clientId: action.clientId, status: 'recorded', message: null, familyId: null, checkins: [out] };
}

/**
 * A station's offline batch, in the order it happened: first-time families, check-ins and pickups.
 * Each action carries the station's own id (`clientId`): one recorded before (an earlier sync, or
 * the same batch sent twice) answers 'already' and changes nothing. A refused action (another
 * church's family, a code not of this station's block, a wrong pickup code) is reported with its
 * reason and the rest go on.
 */
export async function syncOffline(
  db: Db,
  scope: CheckinScope,
  input: z.output<typeof syncInputSchema>,
): Promise<{ results: Result[] }> {
  const station = scope.station;
  if (!station) throw forbidden('Only a paired station sends offline check-ins');
  const stationScope: StationScope = { ...scope, station };
  const day = await churchToday(db, scope);
  const results: Result[] = [];
  for (const action of input.actions) {
    try {
      if (action.kind === 'add_family') {
        const added = await addOfflineFamily(db, stationScope, action);
        results.push({
          clientId: action.clientId,
          status: added.already ? 'already' : 'recorded',
          message: null,
          familyId: added.familyId,
          checkins: [],
        });
      } else if (action.kind === 'check_in') results.push(await syncCheckIn(db, stationScope, action, day));
      else results.push(await syncCheckOut(db, stationScope, action));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({
        clientId: action.clientId,
        status: 'refused',
        message: err.message,
        familyId: null,
        checkins: [],
      });
    }
  }
  return { results };
}
