import { type ContactListType, type Database, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { ContactListsTable } from '@lampstand/db';
import type { contactListSchema } from '../../schemas/contacts.js';
import { notFound } from '../../errors.js';
import type { ContactTab } from '../../schemas/contacts.js';
import { matchingContacts } from './contacts.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';
import { peopleOf, personOf, recordEvent, recordEvents } from '../events/record.js';

function toList(r: Selectable<ContactListsTable>, count?: number): z.input<typeof contactListSchema> {
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    description: r.description,
    type: r.type,
    isPublic: r.isPublic,
    publicDescription: r.publicDescription,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(count === undefined ? {} : { contactCount: count, contactsCount: count }),
  };
}

export interface ListFields {
  name: string;
  description?: string | null;
  type: ContactListType;
  isPublic?: boolean;
  publicDescription?: string | null;
}

/** The columns a list's fields set (a list is private unless it says otherwise). */
const listColumns = (input: ListFields) => ({
  name: input.name,
  description: input.description ?? null,
  type: input.type,
  isPublic: input.isPublic ?? false,
  publicDescription: input.publicDescription ?? '',
});

export async function listContactLists(
  db: Db,
  tenantId: number,
  opts: { includeCounts: boolean },
): Promise<z.input<typeof contactListSchema>[]> {
  if (!opts.includeCounts) {
    const rows = await db
      .selectFrom('contactLists')
      .selectAll()
      .where('userId', '=', tenantId)
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map((r) => toList(r));
  }
  const rows = await db
    .selectFrom('contactLists as l')
    .selectAll('l')
    .select((eb) =>
      eb
        .selectFrom('contactsInLists as m')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('m.listId', '=', 'l.id')
        .as('contactCount'),
    )
    .where('l.userId', '=', tenantId)
    .orderBy('l.name')
    .orderBy('l.id')
    .execute();
  return rows.map((r) => toList(r, Number(r.contactCount ?? 0)));
}

async function getContactList(db: Db, tenantId: number, id: number): Promise<z.input<typeof contactListSchema>> {
  const row = await findChurchRow(db, tenantId, { table: 'contactLists', id: id, missing: 'List not found' });
  return toList(row);
}

export async function createContactList(
  db: Db,
  tenantId: number,
  input: ListFields,
): Promise<z.input<typeof contactListSchema>> {
  const row = await db
    .insertInto('contactLists')
    .values({ userId: tenantId, ...listColumns(input) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toList(row, 0);
}

export async function updateContactList(
  db: Db,
  tenantId: number,
  { id, ...input }: ListFields & { id: number },
): Promise<z.input<typeof contactListSchema>> {
  const row = await db
    .updateTable('contactLists')
    .set({ ...listColumns(input), updatedAt: new Date() })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('List not found');
  return toList(row);
}

/** Deletes the list and its memberships (the contacts stay). */
export async function deleteContactList(db: Db, tenantId: number, id: number): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'contactLists', id: id, missing: 'List not found' });
}

async function assertContact(db: Db, tenantId: number, contactId: number) {
  return findChurchRow(db, tenantId, {
    table: 'contacts',
    id: contactId,
    columns: ['id', 'firstName', 'lastName', 'email', 'phone'],
    missing: 'Contact not found',
  });
}

/**
 * Add a contact to a list, or take it off, with its event; adding one already there (or removing
 * one not there) changes nothing and records nothing.
 */
async function changeMembership(
  db: Db,
  tenantId: number,
  { listId, contactId }: { listId: number; contactId: number },
  op: 'add' | 'remove',
) {
  return db.transaction().execute(async (trx) => {
    const list = await getContactList(trx, tenantId, listId);
    const contact = await assertContact(trx, tenantId, contactId);
    const changed =
      op === 'add'
        ? await trx
            .insertInto('contactsInLists')
            .values({ userId: tenantId, listId, contactId })
            .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
            .executeTakeFirst()
        : await trx
            .deleteFrom('contactsInLists')
            .where('listId', '=', listId)
            .where('contactId', '=', contactId)
            .where('userId', '=', tenantId)
            .executeTakeFirst();
    const rows = 'numInsertedOrUpdatedRows' in changed ? changed.numInsertedOrUpdatedRows : changed.numDeletedRows;
    if (Number(rows ?? 0) > 0) {
      await recordEvent(trx, tenantId, {
        type: op === 'add' ? 'list.member_added' : 'list.member_removed',
        contactId,
        payload: { person: personOf(contact), list: { id: list.id, name: list.name } },
      });
    }
    return { listId, contactId };
  });
}

/** Add a contact to a list; adding one already there changes nothing. */
export function addContactToList(db: Db, tenantId: number, input: { listId: number; contactId: number }) {
  return changeMembership(db, tenantId, input, 'add');
}

/**
 * Add many of the church's contacts to a list at once (each newly added one a `list.member_added`
 * event, in one transaction); those already there change nothing. The number newly added.
 */
export async function addContactsToList(
  db: Db,
  tenantId: number,
  input: { listId: number; contactIds: readonly number[] },
): Promise<number> {
  if (input.contactIds.length === 0) {
    await getContactList(db, tenantId, input.listId);
    return 0;
  }
  return addToListWhere(db, tenantId, input.listId, (trx) =>
    trx
      .selectFrom('contacts')
      .where('userId', '=', tenantId)
      .where('id', 'in', [...input.contactIds]),
  );
}

/**
 * Every contact matching a search (and tab) added to a list in one statement, those already there
 * left as they are: the picker's "Select all", for a church of any size. The number newly added.
 */
export function addMatchingContactsToList(
  db: Db,
  tenantId: number,
  input: { listId: number; search?: string; tab: ContactTab },
): Promise<number> {
  return addToListWhere(db, tenantId, input.listId, (trx) =>
    matchingContacts(trx, tenantId, { search: input.search, tab: input.tab }),
  );
}

/** The contacts `from` selects (the church's own) added to a list, with their events, in one transaction. */
async function addToListWhere(
  db: Db,
  tenantId: number,
  listId: number,
  from: (trx: Db) => SelectQueryBuilder<Database, 'contacts', object>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const list = await getContactList(trx, tenantId, listId);
    const added = await trx
      .insertInto('contactsInLists')
      .columns(['userId', 'listId', 'contactId'])
      .expression((eb) =>
        from(trx).select([eb.val(tenantId).as('userId'), eb.val(list.id).as('listId'), 'contacts.id']),
      )
      .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
      .returning('contactId')
      .execute();
    if (added.length === 0) return 0;
    const people = await peopleOf(
      trx,
      tenantId,
      added.map((a) => a.contactId),
    );
    await recordEvents(
      trx,
      tenantId,
      [...people].map(([contactId, person]) => ({
        type: 'list.member_added' as const,
        contactId,
        payload: { person, list: { id: list.id, name: list.name } },
      })),
    );
    return added.length;
  });
}

export function removeContactFromList(db: Db, tenantId: number, input: { listId: number; contactId: number }) {
  return changeMembership(db, tenantId, input, 'remove');
}

export async function listsOfContact(
  db: Db,
  tenantId: number,
  contactId: number,
): Promise<z.input<typeof contactListSchema>[]> {
  await assertContact(db, tenantId, contactId);
  const rows = await db
    .selectFrom('contactLists as l')
    .innerJoin('contactsInLists as m', 'm.listId', 'l.id')
    .selectAll('l')
    .where('m.contactId', '=', contactId)
    .where('l.userId', '=', tenantId)
    .orderBy('l.name')
    .execute();
  return rows.map((r) => toList(r));
}
