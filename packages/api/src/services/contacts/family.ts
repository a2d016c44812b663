import type { Db, FamilyRelationship } from '@lampstand/db';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { toContact } from './map.js';
import { assertChurchRow, deleteChurchRow } from '../church-rows.js';

/**
 * A contact's family: each link with the related contact, the relationship as stored, and
 * isInverse when this contact is the link's contact2 (then a stored 'parent' reads as Child).
 */
export async function listFamily(db: Db, tenantId: number, contactId: number) {
  await assertChurchRow(db, tenantId, { table: 'contacts', id: contactId, missing: 'Contact not found' });
  const links = await db
    .selectFrom('contactFamilyLinks')
    .selectAll()
    .where('userId', '=', tenantId)
    .where((eb) => eb.or([eb('contact1Id', '=', contactId), eb('contact2Id', '=', contactId)]))
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  if (links.length === 0) return [];
  const otherIds = links.map((l) => (l.contact1Id === contactId ? l.contact2Id : l.contact1Id));
  const others = await db
    .selectFrom('contacts')
    .selectAll()
    .where('userId', '=', tenantId)
    .where('id', 'in', otherIds)
    .execute();
  const byId = new Map(others.map((c) => [c.id, c]));
  return links.flatMap((l) => {
    const isInverse = l.contact2Id === contactId;
    const other = byId.get(isInverse ? l.contact1Id : l.contact2Id);
    if (!other) return [];
    return [
      {
        link: {
          id: l.id,
          contact1Id: l.contact1Id,
          contact2Id: l.contact2Id,
          relationship: l.relationship,
          createdAt: l.createdAt,
        },
        contact: toContact(other),
        relationship: l.relationship,
        isInverse,
      },
    ];
  });
}

/** Link two contacts of the same church: `relatedContactId` is `relationship` of `contactId`. */
export async function addFamilyLink(
  db: Db,
  tenantId: number,
  { contactId, ...input }: { contactId: number; relatedContactId: number; relationship: FamilyRelationship },
) {
  if (input.relatedContactId === contactId) throw badRequest('A contact cannot be linked to themself');
  const found = await db
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', tenantId)
    .where('id', 'in', [contactId, input.relatedContactId])
    .execute();
  if (!found.some((c) => c.id === contactId)) throw notFound('Contact not found');
  if (!found.some((c) => c.id === input.relatedContactId)) throw notFound('Related contact not found');
  try {
    const link = await db
      .insertInto('contactFamilyLinks')
      .values({
        userId: tenantId,
        contact1Id: contactId,
        contact2Id: input.relatedContactId,
        relationship: input.relationship,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      id: link.id,
      contact1Id: link.contact1Id,
      contact2Id: link.contact2Id,
      relationship: link.relationship,
      createdAt: link.createdAt,
    };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('These contacts are already linked');
    throw err;
  }
}

export async function removeFamilyLink(db: Db, tenantId: number, linkId: number) {
  return deleteChurchRow(db, tenantId, { table: 'contactFamilyLinks', id: linkId, missing: 'Family link not found' });
}
