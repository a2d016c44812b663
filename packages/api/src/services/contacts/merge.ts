import { sql, type ContactMetadata, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { contactSchema, contactMergeResultSchema, DuplicateContact } from '../../schemas/contacts.js';
import { badRequest, notFound } from '../../errors.js';
import { toContact, type ContactRow } from './map.js';
import { churchCountryCode, type CountryCode } from '../settings/church-settings.js';
import { toE164 } from './phone.js';
import { personOf, recordEvents } from '../events/record.js';
import { consentEvent } from './consent.js';
import { lockPeopleWorkFirst } from '../background/lock-first.js';
import { carryOver } from './merge-carried.js';

/**
 * Contacts of the church with this email (any case) or this phone (compared in E.164, so
 * '0412 345 678' and '+61 412 345 678' match): what the contact form warns about.
 */
export async function findDuplicateContacts(
  db: Db,
  tenantId: number,
  input: { email?: string; phone?: string; countryCode?: string; excludeId?: number },
): Promise<DuplicateContact[]> {
  const email = input.email?.trim().toLowerCase() || null;
  const e164 = input.phone ? toE164(input.phone, input.countryCode ?? (await churchCountryCode(db, tenantId))) : null;
  if (!email && !e164) return [];
  const rows = await db
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone', 'phoneE164'])
    .where('userId', '=', tenantId)
    .where((eb) =>
      eb.or([...(email ? [eb('emailLower', '=', email)] : []), ...(e164 ? [eb('phoneE164', '=', e164)] : [])]),
    )
    .$if(!!input.excludeId, (q) => q.where('id', '<>', input.excludeId!))
    .orderBy('id')
    .limit(5)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    matchedOn: [
      ...(email && r.email?.toLowerCase() === email ? (['email'] as const) : []),
      ...(e164 && r.phoneE164 === e164 ? (['phone'] as const) : []),
    ],
  }));
}

const fullName = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`.trim();

/**
 * The kept contact's values, with its empty ones filled from the other; flags are kept if either
 * has them. A contact stored without a country code is read in the church's default country.
 */
function mergedColumns(keep: ContactRow, other: ContactRow, churchCountry: CountryCode) {
  const a: ContactMetadata = keep.metadata ?? {};
  const b: ContactMetadata = other.metadata ?? {};
  const takePhone = !keep.phone && !!other.phone;
  const metadata: ContactMetadata = { ...b, ...Object.fromEntries(Object.entries(a).filter(([, v]) => v != null)) };
  metadata.countryCode = takePhone ? (b.countryCode ?? churchCountry) : (a.countryCode ?? churchCountry);
  for (const flag of ['isChurchMember', 'isBaptised', 'isSeeker', 'isServiceStaff'] as const) {
    metadata[flag] = !!a[flag] || !!b[flag];
  }
  if (metadata.isServiceStaff) {
    metadata.staffRole = (a.isServiceStaff ? a.staffRole : null) ?? (b.isServiceStaff ? b.staffRole : null) ?? null;
    metadata.wwccNumber = (a.isServiceStaff ? a.wwccNumber : null) ?? (b.isServiceStaff ? b.wwccNumber : null) ?? null;
  }
  metadata.notes = [a.notes, b.notes].filter((n, i, all) => n && all.indexOf(n) === i).join('\n\n') || null;
  const phone = takePhone ? other.phone : keep.phone;
  return {
    email: keep.email || other.email,
    phone,
    phoneE164: toE164(phone, metadata.countryCode),
    dateOfBirth: keep.dateOfBirth ?? other.dateOfBirth,
    tags: [...new Set([...(keep.tags ?? []), ...(other.tags ?? [])])],
    metadata: JSON.stringify(metadata),
  };
}

/**
 * Merge `otherId` into `id` in one transaction: the kept contact gains the other's list
 * memberships, family links, children, consent history, campaign deliveries, sign-ups and team
 * membership, journeys and tasks, and everything else that names them (`CARRIED`: gifts, groups,
 * check-ins…), and its empty fields are filled from the other. An unsubscribe on either contact
 * wins (nobody who said stop is written to again). The other contact is deleted and the merge is
 * logged in `contact_merges` with a snapshot of it.
 */
export async function mergeContacts(
  db: Db,
  tenantId: number,
  input: { id: number; otherId: number; mergedBy: string },
): Promise<z.input<typeof contactMergeResultSchema>> {
  const { id: keepId, otherId } = input;
  return db.transaction().execute(async (trx) => {
    // What background work holds of both people (journey enrolments, recurring gifts) before their
    // rows: a visit or a charge in flight is waited for, not deadlocked with.
    await lockPeopleWorkFirst(trx, tenantId, [keepId, otherId]);
    const rows = await trx
      .selectFrom('contacts')
      .selectAll()
      .where('userId', '=', tenantId)
      .where('id', 'in', [keepId, otherId])
      .orderBy('id')
      .forUpdate()
      .execute();
    const keep = rows.find((r) => r.id === keepId);
    const other = rows.find((r) => r.id === otherId);
    if (!keep || !other) throw notFound('Contact not found');
    // After the tenant check: another church's contact is a 404 whatever the ids.
    if (keepId === otherId) throw badRequest('Choose a different contact to merge with', 'otherId');
    const tenant = { userId: tenantId };

    const lists = await sql<{ listId: number }>`
      insert into contacts_in_lists (user_id, contact_id, list_id, created_at)
      select user_id, ${keepId}, list_id, created_at from contacts_in_lists
      where user_id = ${tenantId} and contact_id = ${otherId}
      on conflict do nothing returning list_id`.execute(trx);

    // A link between the two would become a link to itself; a link both have to the same person
    // is kept once (the kept contact's).
    await trx
      .deleteFrom('contactFamilyLinks')
      .where('userId', '=', tenantId)
      .where((eb) =>
        eb.or([
          eb.and([eb('contact1Id', '=', otherId), eb('contact2Id', '=', keepId)]),
          eb.and([eb('contact1Id', '=', keepId), eb('contact2Id', '=', otherId)]),
        ]),
      )
      .execute();
    await sql`
      delete from contact_family_links o
      where o.user_id = ${tenantId} and ${otherId} in (o.contact1_id, o.contact2_id)
        and exists (
          select 1 from contact_family_links k
          where k.user_id = ${tenantId} and ${keepId} in (k.contact1_id, k.contact2_id)
            and (case when k.contact1_id = ${keepId} then k.contact2_id else k.contact1_id end)
              = (case when o.contact1_id = ${otherId} then o.contact2_id else o.contact1_id end))`.execute(trx);
    // Point a column of a table (tenant-scoped) from the other contact to the kept one.
    const repoint = async (table: string, column: string) => {
      const r = await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${keepId}
        where user_id = ${tenantId} and ${sql.ref(column)} = ${otherId}`.execute(trx);
      return Number(r.numAffectedRows ?? 0);
    };
    const familyLinks =
      (await repoint('contact_family_links', 'contact1_id')) + (await repoint('contact_family_links', 'contact2_id'));
    // A group both are in keeps the kept contact's membership: it leads if either did.
    await sql`
      update group_members k set role = 'leader'
      from group_members o
      where k.user_id = ${tenantId} and k.contact_id = ${keepId} and k.role <> 'leader'
        and o.user_id = ${tenantId} and o.contact_id = ${otherId} and o.group_id = k.group_id and o.role = 'leader'`.execute(
      trx,
    );
    // Children, consent history, deliveries, sign-ups, teams, journeys, tasks, giving, groups,
    // check-ins and the rest: every other table that names a person.
    const carried = await carryOver(trx, tenantId, { keepId, otherId });

    const now = new Date();
    const unsubscribes = (['email', 'sms'] as const).filter((channel) =>
      channel === 'email'
        ? other.emailConsent === 'unsubscribed' && keep.emailConsent === 'subscribed'
        : other.smsConsent === 'unsubscribed' && keep.smsConsent === 'subscribed',
    );
    const consent = {
      ...(unsubscribes.includes('email')
        ? { emailConsent: 'unsubscribed' as const, emailConsentAt: now, emailConsentSource: 'merge' }
        : {}),
      ...(unsubscribes.includes('sms')
        ? { smsConsent: 'unsubscribed' as const, smsConsentAt: now, smsConsentSource: 'merge' }
        : {}),
    };
    if (unsubscribes.length > 0) {
      await trx
        .insertInto('contactConsentEvents')
        .values(
          unsubscribes.map((channel) => ({
            ...tenant,
            contactId: keepId,
            channel,
            status: 'unsubscribed' as const,
            source: 'merge',
            note: `Unsubscribed as ${fullName(other)} (contact ${otherId}), merged into this contact`,
            at: now,
          })),
        )
        .execute();
    }

    const moved = {
      lists: lists.rows.length,
      familyLinks,
      children: carried.contactChildren ?? 0,
      consentEvents: carried.contactConsentEvents ?? 0,
      deliveries: carried.deliveries ?? 0,
      signups: carried.landingPageSignups ?? 0,
      teamMembers: carried.teamMembers ?? 0,
      gifts: carried.gifts ?? 0,
      recurringGifts: carried.giftSchedules ?? 0,
      groups: carried.groupMembers ?? 0,
      checkIns: carried.checkins ?? 0,
    };
    await trx
      .insertInto('contactMerges')
      .values({
        ...tenant,
        keptContactId: keepId,
        mergedContactId: otherId,
        mergedContact: JSON.stringify(toContact(other)),
        moved: JSON.stringify({ ...moved, carried }),
        mergedBy: input.mergedBy,
      })
      .execute();
    // The other contact's events become the kept one's before the delete, which would anonymise them.
    await trx
      .updateTable('events')
      .set({ contactId: keepId })
      .where('userId', '=', tenantId)
      .where('contactId', '=', otherId)
      .execute();
    await trx.deleteFrom('contacts').where('id', '=', otherId).where('userId', '=', tenantId).execute();
    const updated = await trx
      .updateTable('contacts')
      .set({ ...mergedColumns(keep, other, await churchCountryCode(trx, tenantId)), ...consent, updatedAt: now })
      .where('id', '=', keepId)
      .where('userId', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordEvents(trx, tenantId, [
      {
        type: 'contact.merged',
        contactId: keepId,
        payload: { person: personOf(updated), merged: { id: otherId, name: fullName(other) } },
      },
      ...unsubscribes.map((channel) => consentEvent(updated, channel, 'subscribed', 'unsubscribed', 'merge')),
    ]);
    return { contact: toContact(updated) satisfies z.input<typeof contactSchema>, mergedContactId: otherId, moved };
  });
}
