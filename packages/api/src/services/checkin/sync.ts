import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { syncInputSchema, syncOutputSchema } from '../../schemas/checkin/offline.js';
import { AppError, forbidden } from '../../errors.js';
import { claimReservedCode } from './codes.js';
import { checkIn } from './check-in.js';
import { checkOut } from './checkout.js';
import { loadCheckins } from './records.js';
import { churchToday, type CheckinScope } from './scope.js';

type Result = z.input<typeof syncOutputSchema>['results'][number];

/**
 * A station's offline batch, in the order it happened. Each action carries the station's own id
 * (`clientId`): one recorded before (an earlier sync, or the same batch sent twice) answers
 * 'already' and changes nothing. A check-in uses a code from the station's reserved block, so no
 * other station gave it; it was checked in with the room's capacity already confirmed on the device.
 * A refused action (another church's family, a code not of this station's block) is reported with
 * its reason and the rest go on.
 */
export async function syncOffline(
  db: Db,
  scope: CheckinScope,
  input: z.output<typeof syncInputSchema>,
): Promise<{ results: Result[] }> {
  if (!scope.station) throw forbidden('Only a paired station sends offline check-ins');
  const station = scope.station;
  const day = await churchToday(db, scope);
  const results: Result[] = [];
  for (const action of input.actions) {
    try {
      if (action.kind === 'check_in') {
        const clientIds = action.children.map((c) => c.clientId);
        const earlier = await loadCheckins(db, scope.tenantId, { clientIds });
        if (earlier.length > 0) {
          results.push({ clientId: action.clientId, status: 'already', message: null, checkins: earlier });
          continue;
        }
        const done = await db.transaction().execute(async (trx) => {
          const code = await claimReservedCode(trx, scope.tenantId, {
            day,
            code: action.securityCode,
            stationId: station.id,
          });
          if (!code) throw new AppError('BAD_REQUEST', 'That security code is not one reserved for this station today');
          return checkIn(
            trx,
            scope,
            {
              familyId: action.familyId,
              serviceId: action.serviceId,
              children: action.children,
              confirmOverCapacity: true,
            },
            {
              day,
              code,
              clientIds: new Map(action.children.map((c) => [c.childId, c.clientId])),
              at: new Date(action.at),
            },
          );
        });
        results.push({ clientId: action.clientId, status: 'recorded', message: null, checkins: done.checkins });
      } else {
        const target = action.checkinId
          ? (await loadCheckins(db, scope.tenantId, { ids: [action.checkinId] }))[0]
          : action.checkinClientId
            ? (await loadCheckins(db, scope.tenantId, { clientIds: [action.checkinClientId] }))[0]
            : undefined;
        if (!target) throw new AppError('NOT_FOUND', 'Check-in not found');
        if (target.checkedOutAt) {
          results.push({ clientId: action.clientId, status: 'already', message: null, checkins: [target] });
          continue;
        }
        const out = await checkOut(
          db,
          scope,
          { id: target.id, securityCode: action.securityCode, override: false, reason: null },
          { at: new Date(action.at), offline: true },
        );
        results.push({ clientId: action.clientId, status: 'recorded', message: null, checkins: [out] });
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ clientId: action.clientId, status: 'refused', message: err.message, checkins: [] });
    }
  }
  return { results };
}
