import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { offlineAddFamilySchema, offlineCheckInSchema } from '../../schemas/checkin/offline.js';
import { badRequest, isUniqueViolation, notFound } from '../../errors.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { insertFamily } from './families.js';
import type { CheckinScope } from './scope.js';

/**
 * First-time families a station added without the network. The station names the family and each
 * child with its own id; `checkin_offline_families` keeps what each id became (unique per church),
 * so a batch sent twice adds the family once, and a check-in later in the batch finds the family
 * and its children by those ids.
 */
type AddFamily = z.output<typeof offlineAddFamilySchema>;
type OfflineCheckIn = z.output<typeof offlineCheckInSchema>;

const CLIENT_ID_KEY = 'checkin_offline_families_user_id_client_id_key';

async function familyOfClientId(db: Db, tenantId: number, clientId: string): Promise<number | null> {
  const row = await db
    .selectFrom('checkinOfflineFamilies')
    .select('contactId')
    .where('userId', '=', tenantId)
    .where('clientId', '=', clientId)
    .where('childId', 'is', null)
    .executeTakeFirst();
  return row?.contactId ?? null;
}

/**
 * Add an offline first-time family as the online form does (a new contact without consent to
 * campaigns, its children, `contact.created` with `via: 'checkin'`), once: `already` with the same
 * family when its client id was recorded before.
 */
export async function addOfflineFamily(
  db: Db,
  scope: CheckinScope & { station: NonNullable<CheckinScope['station']> },
  action: AddFamily,
): Promise<{ familyId: number; already: boolean }> {
  const { tenantId } = scope;
  const earlier = await familyOfClientId(db, tenantId, action.clientId);
  if (earlier !== null) return { familyId: earlier, already: true };
  const country = await churchCountryCode(db, tenantId);
  try {
    const familyId = await db.transaction().execute(async (trx) => {
      const { contactId, childIds } = await insertFamily(trx, tenantId, action, { country, at: new Date(action.at) });
      await trx
        .insertInto('checkinOfflineFamilies')
        .values([
          { userId: tenantId, clientId: action.clientId, contactId, childId: null, stationId: scope.station.id },
          ...action.children.map((c, i) => ({
            userId: tenantId,
            clientId: c.clientId,
            contactId,
            childId: childIds[i]!,
            stationId: scope.station.id,
          })),
        ])
        .execute();
      return contactId;
    });
    return { familyId, already: false };
  } catch (err) {
    if (!isUniqueViolation(err, CLIENT_ID_KEY)) throw err;
    // The same batch sent at once from two tabs: the other one added the family.
    const added = await familyOfClientId(db, tenantId, action.clientId);
    if (added !== null) return { familyId: added, already: true };
    throw badRequest('A client ID of this family was used before', 'children');
  }
}

/**
 * An offline check-in's family and children as ids: those given, or those its `familyClientId` and
 * `childClientId`s were added as. A family whose offline addition was refused (or not sent) is not found.
 */
export async function resolveOfflineIds(
  db: Db,
  tenantId: number,
  action: OfflineCheckIn,
): Promise<{
  familyId: number;
  children: { childId: number; roomId: number; ageOverride: boolean; clientId: string }[];
}> {
  const wanted = [action.familyClientId, ...action.children.map((c) => c.childClientId)].filter(
    (id): id is string => id !== undefined,
  );
  const rows = wanted.length
    ? await db
        .selectFrom('checkinOfflineFamilies')
        .select(['clientId', 'contactId', 'childId'])
        .where('userId', '=', tenantId)
        .where('clientId', 'in', wanted)
        .execute()
    : [];
  const familyId =
    action.familyId ?? rows.find((r) => r.clientId === action.familyClientId && r.childId === null)?.contactId;
  if (familyId === undefined) throw notFound('Family not found');
  const children = action.children.map((c) => {
    const childId = c.childId ?? rows.find((r) => r.clientId === c.childClientId && r.childId !== null)?.childId;
    if (childId === undefined || childId === null) throw notFound('Child not found');
    return { childId, roomId: c.roomId, ageOverride: c.ageOverride, clientId: c.clientId };
  });
  return { familyId, children };
}
