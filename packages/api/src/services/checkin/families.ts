import { createHash, randomBytes } from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { familySchema, lookupInputSchema, newFamilyInputSchema } from '../../schemas/checkin/checkins.js';
import type { Room } from '../../schemas/checkin/setup.js';
import { notFound } from '../../errors.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { toE164 } from '../contacts/phone.js';
import { personOf, recordEvent } from '../events/record.js';
import { chooseRoom } from '../../shared/checkin-rooms.js';
import { listRooms } from './rooms.js';
import { type CheckinScope } from './scope.js';

/**
 * A family at check-in is the church's own family model: a contact, the contacts linked to them as
 * spouse (`contact_family_links`), and the children of any of them (`contact_children`). The
 * family's id is the contact found (the one whose phone, name or card matched).
 */
type Family = z.input<typeof familySchema>;
const MAX_FAMILIES = 20;

/** The contact and their spouses, for each contact asked. */
async function householdsOf(db: Db, tenantId: number, ids: number[]): Promise<Map<number, number[]>> {
  const links = ids.length
    ? await db
        .selectFrom('contactFamilyLinks')
        .select(['contact1Id', 'contact2Id'])
        .where('userId', '=', tenantId)
        .where('relationship', '=', 'spouse')
        .where((eb) => eb.or([eb('contact1Id', 'in', ids), eb('contact2Id', 'in', ids)]))
        .execute()
    : [];
  return new Map(
    ids.map((id) => [
      id,
      [id, ...links.flatMap((l) => (l.contact1Id === id ? [l.contact2Id] : l.contact2Id === id ? [l.contact1Id] : []))],
    ]),
  );
}

/** The families of these contacts, each with its children and the room chosen for each child. */
export async function familiesOf(
  db: Db,
  scope: CheckinScope,
  opts: { contactIds: number[]; day: string; serviceId: number | null; rooms?: Room[] },
): Promise<Family[]> {
  const { tenantId } = scope;
  const households = await householdsOf(db, tenantId, opts.contactIds);
  const seen = new Set<string>();
  const groups: [number, number[]][] = [];
  for (const [id, members] of households) {
    const key = [...members].sort((a, b) => a - b).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push([id, members]);
  }
  if (groups.length === 0) return [];
  const memberIds = [...new Set(groups.flatMap(([, m]) => m))];
  const [contacts, children, present, rooms] = await Promise.all([
    db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName', 'phone', 'phoneE164'])
      .where('userId', '=', tenantId)
      .where('id', 'in', memberIds)
      .execute(),
    db
      .selectFrom('contactChildren')
      .select(['id', 'parentContactId', 'name', 'dateOfBirth', 'grade', 'allergies'])
      .where('userId', '=', tenantId)
      .where('parentContactId', 'in', memberIds)
      .orderBy('dateOfBirth')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('checkins')
      .select('childId')
      .where('userId', '=', tenantId)
      .where('day', '=', opts.day)
      .where('checkedOutAt', 'is', null)
      .execute(),
    opts.rooms ?? listRooms(db, tenantId, { fromDay: opts.day, openOn: opts.day }),
  ]);
  const here = new Set(present.map((p) => p.childId));
  const byId = new Map(contacts.map((c) => [c.id, c]));
  return groups.flatMap(([id, members]) => {
    const c = byId.get(id);
    if (!c) return [];
    const digits = (c.phoneE164 ?? c.phone ?? '').replace(/\D/g, '');
    return [
      {
        id,
        name: personOf(c).name,
        phoneLast4: digits.length >= 4 ? digits.slice(-4) : null,
        children: children
          .filter((ch) => members.includes(ch.parentContactId))
          .map((ch) => {
            const room = chooseRoom(rooms, ch, opts.day, opts.serviceId);
            return {
              id: ch.id,
              name: ch.name,
              dateOfBirth: ch.dateOfBirth,
              grade: ch.grade,
              allergies: ch.allergies,
              roomId: room?.id ?? null,
              roomName: room?.name ?? null,
              checkedIn: here.has(ch.id),
            };
          }),
      },
    ];
  });
}

/** Find families by the last four digits of a phone, a name (a parent's or a child's), or a card. */
export async function lookupFamilies(
  db: Db,
  scope: CheckinScope,
  input: z.output<typeof lookupInputSchema>,
  day: string,
): Promise<Family[]> {
  const { tenantId } = scope;
  let ids: number[];
  if (input.card) {
    const card = await db
      .selectFrom('checkinFamilyCards')
      .select('contactId')
      .where('userId', '=', tenantId)
      .where('token', '=', input.card)
      .executeTakeFirst();
    if (!card) throw notFound('That card is not known here');
    ids = [card.contactId];
  } else if (input.phone) {
    // The expression of `contacts_phone_last4_idx`.
    const rows = await sql<{ id: number }>`
      select id from contacts
      where user_id = ${tenantId}
        and right(coalesce(phone_e164, regexp_replace(phone, '\\D', '', 'g')), 4) = ${input.phone}
      order by last_name, first_name, id limit ${MAX_FAMILIES}`.execute(db);
    ids = rows.rows.map((r) => r.id);
  } else {
    const words = input.name!.trim().split(/\s+/).slice(0, 4);
    const like = (w: string) => `%${w.replace(/[\\%_]/g, (m) => '\\' + m)}%`;
    const rows = await db
      .selectFrom('contacts as c')
      .select('c.id')
      .where('c.userId', '=', tenantId)
      .where((eb) =>
        eb.and(
          words.map((w) =>
            eb.or([
              eb('c.firstName', 'ilike', like(w)),
              eb('c.lastName', 'ilike', like(w)),
              eb.exists(
                eb
                  .selectFrom('contactChildren as k')
                  .select('k.id')
                  .whereRef('k.parentContactId', '=', 'c.id')
                  .where('k.name', 'ilike', like(w)),
              ),
            ]),
          ),
        ),
      )
      .where((eb) =>
        eb.exists(eb.selectFrom('contactChildren as k').select('k.id').whereRef('k.parentContactId', '=', 'c.id')),
      )
      .orderBy('c.lastName')
      .orderBy('c.firstName')
      .orderBy('c.id')
      .limit(MAX_FAMILIES)
      .execute();
    ids = rows.map((r) => r.id);
  }
  const families = await familiesOf(db, scope, { contactIds: ids, day, serviceId: input.serviceId ?? null });
  // A phone search finds adults without children too; only families with children check in.
  return families.filter((f) => f.children.length > 0);
}

/**
 * The families a station keeps for offline use: those who checked children in during the `weeks`
 * weeks before `day` (at most `max`), with their children and rooms as a lookup gives them.
 */
export async function recentFamilies(
  db: Db,
  scope: CheckinScope,
  opts: { day: string; weeks: number; max: number },
): Promise<Family[]> {
  const since = new Date(`${opts.day}T00:00:00Z`);
  since.setUTCDate(since.getUTCDate() - 7 * opts.weeks);
  const rows = await db
    .selectFrom('checkins')
    .select('familyContactId')
    .distinct()
    .where('userId', '=', scope.tenantId)
    .where('day', '>=', since.toISOString().slice(0, 10))
    .orderBy('familyContactId')
    .limit(opts.max)
    .execute();
  return familiesOf(db, scope, { contactIds: rows.map((r) => r.familyContactId), day: opts.day, serviceId: null });
}

/**
 * Insert a first-time family in `trx`: the parent (a new contact, no consent to campaigns: the
 * parent gets operational messages only) and their children, with the `contact.created` event
 * (`via: 'checkin'`). The contact's id and the children's ids, in the order given.
 */
export async function insertFamily(
  trx: Db,
  tenantId: number,
  input: z.output<typeof newFamilyInputSchema>,
  opts: { country: string; at?: Date },
): Promise<{ contactId: number; childIds: number[] }> {
  const c = await trx
    .insertInto('contacts')
    .values({
      userId: tenantId,
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      phoneE164: toE164(input.phone, opts.country),
      email: input.email,
      emailConsent: 'unsubscribed',
      emailConsentSource: 'checkin',
      smsConsent: 'unsubscribed',
      smsConsentSource: 'checkin',
      metadata: JSON.stringify({ countryCode: opts.country }),
      ...(opts.at ? { createdAt: opts.at } : {}),
    })
    .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
    .executeTakeFirstOrThrow();
  const childIds: number[] = [];
  for (const ch of input.children) {
    const row = await trx
      .insertInto('contactChildren')
      .values({
        userId: tenantId,
        parentContactId: c.id,
        name: ch.name,
        dateOfBirth: ch.dateOfBirth,
        grade: ch.grade,
        allergies: ch.allergies,
        medicalNotes: ch.medicalNotes,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    childIds.push(row.id);
  }
  await recordEvent(trx, tenantId, {
    type: 'contact.created',
    contactId: c.id,
    payload: { person: personOf(c), via: 'checkin' },
  });
  return { contactId: c.id, childIds };
}

/** A first-time family added at the station: the parent (a new contact) and their children. */
export async function addFamily(
  db: Db,
  scope: CheckinScope,
  input: z.output<typeof newFamilyInputSchema>,
  day: string,
): Promise<Family> {
  const country = await churchCountryCode(db, scope.tenantId);
  const { contactId } = await db.transaction().execute((trx) => insertFamily(trx, scope.tenantId, input, { country }));
  return (await familiesOf(db, scope, { contactIds: [contactId], day, serviceId: null }))[0]!;
}

/** The QR cards of these families, as the SHA-256 (hex) of each token (for matching a scan offline). */
export async function cardHashesOf(
  db: Db,
  tenantId: number,
  contactIds: number[],
): Promise<{ familyId: number; tokenSha256: string }[]> {
  if (contactIds.length === 0) return [];
  const rows = await db
    .selectFrom('checkinFamilyCards')
    .select(['contactId', 'token'])
    .where('userId', '=', tenantId)
    .where('contactId', 'in', contactIds)
    .execute();
  return rows.map((r) => ({ familyId: r.contactId, tokenSha256: createHash('sha256').update(r.token).digest('hex') }));
}

/** The token of a family's QR code (made once, then the same). Staff only. */
export async function familyCard(db: Db, tenantId: number, contactId: number): Promise<{ token: string }> {
  const exists = await db
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', tenantId)
    .where('id', '=', contactId)
    .executeTakeFirst();
  if (!exists) throw notFound('Family not found');
  await db
    .insertInto('checkinFamilyCards')
    .values({ userId: tenantId, contactId, token: randomBytes(16).toString('base64url') })
    .onConflict((oc) => oc.columns(['userId', 'contactId']).doNothing())
    .execute();
  const row = await db
    .selectFrom('checkinFamilyCards')
    .select('token')
    .where('userId', '=', tenantId)
    .where('contactId', '=', contactId)
    .executeTakeFirstOrThrow();
  return { token: row.token };
}
