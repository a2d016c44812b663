import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { addContactToList, addMatchingContactsToList, createContactList } from './lists.js';

const { db } = await freshDatabase();
const register = (name: string) =>
  registerUser(db, { username: name, password: 'secret12', churchName: name, email: `${name}@example.org` });
const grace = await register('grace');
const hope = await register('hope');

async function people(tenantId: number, names: [string, string][]) {
  return db
    .insertInto('contacts')
    .values(names.map(([f, l]) => ({ userId: tenantId, firstName: f, lastName: l, email: `${f}.${l}@example.org` })))
    .returning('id')
    .execute();
}

const members = async (listId: number) =>
  (await db.selectFrom('contactsInLists').select('contactId').where('listId', '=', listId).execute()).length;

describe('adding every matching contact to a list', () => {
  it('adds the church’s matches in one go, counts only the newly added, and records their events', async () => {
    const [smith1] = await people(grace.id, [
      ['Ann', 'Smith'],
      ['Bob', 'Smith'],
      ['Cat', 'Smithers'],
      ['Dan', 'Jones'],
    ]);
    await people(hope.id, [['Eve', 'Smith']]);
    const list = await createContactList(db, grace.id, { name: 'Smiths', type: 'both' });
    await addContactToList(db, grace.id, { listId: list.id, contactId: smith1!.id });

    expect(await addMatchingContactsToList(db, grace.id, { listId: list.id, search: 'smith', tab: 'all' })).toBe(2);
    expect(await members(list.id)).toBe(3);
    const events = await db
      .selectFrom('events')
      .select('contactId')
      .where('userId', '=', grace.id)
      .where('type', '=', 'list.member_added')
      .execute();
    expect(events).toHaveLength(3);
    // Again: nobody new.
    expect(await addMatchingContactsToList(db, grace.id, { listId: list.id, search: 'smith', tab: 'all' })).toBe(0);
    // No search: everyone of the church.
    expect(await addMatchingContactsToList(db, grace.id, { listId: list.id, tab: 'all' })).toBe(1);
    expect(await members(list.id)).toBe(4);
    const hopeIn = await db.selectFrom('contactsInLists').select('contactId').where('userId', '=', hope.id).execute();
    expect(hopeIn).toHaveLength(0);
  });

  it('does not find another church’s list', async () => {
    const list = await createContactList(db, hope.id, { name: 'Hope list', type: 'both' });
    await expect(addMatchingContactsToList(db, grace.id, { listId: list.id, tab: 'all' })).rejects.toThrow(
      'List not found',
    );
    expect(await members(list.id)).toBe(0);
  });

  it('keeps to the tab: members only', async () => {
    await db
      .insertInto('contacts')
      .values([
        {
          userId: grace.id,
          firstName: 'Mo',
          lastName: 'Member',
          email: 'mo@example.org',
          metadata: JSON.stringify({ isChurchMember: true }),
        },
        {
          userId: grace.id,
          firstName: 'No',
          lastName: 'Member',
          email: 'no@example.org',
          metadata: JSON.stringify({ isChurchMember: false }),
        },
      ])
      .execute();
    const list = await createContactList(db, grace.id, { name: 'Members', type: 'both' });
    expect(await addMatchingContactsToList(db, grace.id, { listId: list.id, search: 'member', tab: 'members' })).toBe(
      1,
    );
  });
});
