import type { Db } from '@lampstand/db';
import type { CheckinOut } from '../../schemas/checkin/checkins.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { peopleOf, recordEvent } from '../events/record.js';
import { releaseCodeIfDone } from './codes.js';
import { loadCheckins } from './records.js';
import { assertStationMay, churchToday, type CheckinScope } from './scope.js';
import { WRONG_CODE } from '../../shared/checkin-words.js';

/**
 * Pick a child up: the parent's code must match the child's, or staff override it (a signed-in
 * account, never a station), with the reason kept on the check-in and in the event. The family's
 * code is released once all its children are picked up. A station reaches only today's check-ins.
 */
export async function checkOut(
  db: Db,
  scope: CheckinScope,
  input: { id: number; securityCode?: string; override: boolean; reason: string | null },
  how: { at?: Date; offline?: boolean } = {},
): Promise<CheckinOut> {
  const { tenantId } = scope;
  if (input.override && scope.station) throw forbidden('Only staff can pick a child up without the code');
  const today = scope.station ? await churchToday(db, scope) : null;
  await db.transaction().execute(async (trx) => {
    const k = await trx
      .selectFrom('checkins as k')
      .innerJoin('checkinCodes as c', 'c.id', 'k.codeId')
      .innerJoin('contactChildren as ch', 'ch.id', 'k.childId')
      .innerJoin('checkinRooms as r', 'r.id', 'k.roomId')
      .select([
        'k.id',
        'k.day',
        'k.codeId',
        'k.checkedOutAt',
        'k.familyContactId',
        'k.childId',
        'ch.name as childName',
        'k.roomId',
        'r.name as roomName',
        'c.code',
      ])
      .where('k.userId', '=', tenantId)
      .where('k.id', '=', input.id)
      .forUpdate('k')
      .executeTakeFirst();
    if (!k || (today !== null && String(k.day) !== today)) throw notFound('Check-in not found');
    assertStationMay(scope, 'pick_up', k.roomId);
    if (k.checkedOutAt) throw conflict(`${k.childName} has already been picked up`);
    if (!input.override && input.securityCode !== k.code) throw badRequest(WRONG_CODE, 'securityCode');
    const at = how.at ?? scope.now;
    await trx
      .updateTable('checkins')
      .set({
        checkedOutAt: at,
        checkedOutByUser: scope.userId,
        checkedOutByStation: scope.station?.id ?? null,
        checkoutOverride: input.override,
        checkoutOverrideReason: input.override ? input.reason : null,
      })
      .where('id', '=', k.id)
      .execute();
    await releaseCodeIfDone(trx, tenantId, k.codeId, at);
    const people = await peopleOf(trx, tenantId, [k.familyContactId]);
    await recordEvent(
      trx,
      tenantId,
      {
        type: 'checkin.checked_out',
        contactId: k.familyContactId,
        payload: {
          person: people.get(k.familyContactId),
          checkinId: k.id,
          date: String(k.day),
          child: { id: k.childId, name: k.childName },
          room: { id: k.roomId, name: k.roomName },
          station: scope.station ? { id: scope.station.id, name: scope.station.name } : null,
          offline: how.offline ?? false,
          override: input.override ? { reason: input.reason ?? '' } : null,
        },
      },
      scope.station ? { actor: { kind: 'station', id: scope.station.id } } : {},
    );
  });
  return (await loadCheckins(db, tenantId, { ids: [input.id] }))[0]!;
}
