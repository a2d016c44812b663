import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { createContactSchema } from '../../schemas/contacts.js';
import { registerUser } from '../auth/register-user.js';
import { actingAs } from '../events/actor.js';
import { setConsent } from './consent.js';
import { createContact, deleteContact, updateContact } from './contacts.js';
import { uploadImport } from './import.js';
import { runContactImport } from './import-run.js';
import { addContactToList, createContactList, removeContactFromList } from './lists.js';
import { mergeContacts } from './merge.js';

// Every change to a contact writes its event in the change's transaction.
const { db } = await freshDatabase();
const church = (
  await registerUser(db, { username: 'grace', password: 'secret12', churchName: 'Grace', email: 'g@example.org' })
).id;
const staff = { kind: 'user', id: church } as const;
/** The church's staff: the handle a staff member's request records through. */
const staffDb = actingAs(db, staff);

/** The events written since `after`, oldest first. */
async function eventsAfter(after: number) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'contactId', 'actorKind', 'actorId', 'payload'])
    .where('userId', '=', church)
    .where('id', '>', after)
    .orderBy('id')
    .execute();
}
async function lastId() {
  const r = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(r?.id ?? 0);
}
let n = 0;
const phone = () => `0412 000 ${String(++n).padStart(3, '0')}`;
const newContact = (first: string, extra: Record<string, unknown> = {}) =>
  createContact(
    staffDb,
    church,
    createContactSchema.parse({
      firstName: first,
      lastName: 'Smith',
      email: `${first}@x.test`,
      phone: phone(),
      ...extra,
    }),
  );

describe('contact events', () => {
  it('contact.created names staff, or an API key as api', async () => {
    const since = await lastId();
    const mary = await newContact('mary');
    await createContact(
      actingAs(db, { kind: 'api_key', id: 7 }),
      church,
      createContactSchema.parse({ firstName: 'Api', lastName: 'Made', email: 'api@x.test', phone: phone() }),
    );
    const events = await eventsAfter(since);
    expect(events.map((e) => [e.type, e.actorKind, e.actorId, e.payload.via])).toEqual([
      ['contact.created', 'user', church, 'staff'],
      ['contact.created', 'api_key', 7, 'api'],
    ]);
    expect(events[0]).toMatchObject({
      contactId: mary.id,
      payload: { person: { name: 'mary Smith', email: 'mary@x.test', phone: '0412 000 001' } },
    });
  });

  it('contact.updated names the fields that changed, and nothing when nothing did', async () => {
    const c = await newContact('ruth');
    const since = await lastId();
    await updateContact(staffDb, church, { id: c.id, lastName: 'Jones', metadata: { city: 'Perth' } });
    await updateContact(staffDb, church, { id: c.id, lastName: 'Jones' });
    const events = await eventsAfter(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'contact.updated',
      contactId: c.id,
      actorKind: 'user',
      payload: { person: { name: 'ruth Jones' }, changed: ['lastName', 'city'] },
    });
  });

  it('contact.deleted names the id only; the earlier events lose the person', async () => {
    const c = await newContact('gone');
    const since = await lastId();
    await deleteContact(staffDb, church, c.id);
    expect(await eventsAfter(since)).toMatchObject([
      { type: 'contact.deleted', contactId: c.id, actorKind: 'user', payload: {} },
    ]);
    const created = await db
      .selectFrom('events')
      .select(['contactId', 'payload'])
      .where('id', '<=', since)
      .where('type', '=', 'contact.created')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(created).toEqual({ contactId: null, payload: { via: 'staff' } });
  });

  it('list.member_added and member_removed, once each', async () => {
    const c = await newContact('lee');
    const list = await createContactList(db, church, { name: 'Choir', type: 'both' });
    const since = await lastId();
    await addContactToList(staffDb, church, { listId: list.id, contactId: c.id });
    await addContactToList(staffDb, church, { listId: list.id, contactId: c.id });
    await removeContactFromList(staffDb, church, { listId: list.id, contactId: c.id });
    await removeContactFromList(staffDb, church, { listId: list.id, contactId: c.id });
    const events = await eventsAfter(since);
    expect(events.map((e) => [e.type, e.contactId, e.payload.list])).toEqual([
      ['list.member_added', c.id, { id: list.id, name: 'Choir' }],
      ['list.member_removed', c.id, { id: list.id, name: 'Choir' }],
    ]);
  });

  it('consent.changed from staff, with from and to; the same status again records nothing', async () => {
    const c = await newContact('sam');
    const since = await lastId();
    const unsubscribe = () =>
      setConsent(staffDb, church, { contactId: c.id, channel: 'sms', status: 'unsubscribed', source: 'staff' });
    await unsubscribe();
    await unsubscribe();
    expect(await eventsAfter(since)).toMatchObject([
      {
        type: 'consent.changed',
        contactId: c.id,
        actorKind: 'user',
        payload: {
          person: { name: 'sam Smith' },
          channel: 'sms',
          from: 'subscribed',
          to: 'unsubscribed',
          reason: 'staff',
        },
      },
    ]);
  });

  it("contact.merged on the kept contact, which takes over the other's events (not anonymised)", async () => {
    const keep = await newContact('anna');
    const other = await newContact('anne');
    await setConsent(staffDb, church, {
      contactId: other.id,
      channel: 'email',
      status: 'unsubscribed',
      source: 'staff',
    });
    const since = await lastId();
    await mergeContacts(staffDb, church, { id: keep.id, otherId: other.id, mergedBy: 'staff' });
    const events = await eventsAfter(since);
    expect(events.map((e) => [e.type, e.contactId, e.payload.merged ?? e.payload.reason])).toEqual([
      ['contact.merged', keep.id, { id: other.id, name: 'anne Smith' }],
      ['consent.changed', keep.id, 'merge'],
    ]);
    const moved = await db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('contactId', '=', keep.id)
      .where('id', '<=', since)
      .orderBy('id')
      .execute();
    expect(moved.map((e) => [e.type, (e.payload.person as { name: string }).name])).toEqual([
      ['contact.created', 'anna Smith'],
      ['contact.created', 'anne Smith'],
      ['consent.changed', 'anne Smith'],
    ]);
  });

  it('an import writes contact.created (naming its list), contact.updated, list.member_added and consent.changed, as the system', async () => {
    const existing = await newContact('old');
    const list = await createContactList(db, church, { name: 'Imported', type: 'both' });
    const imp = await uploadImport(db, church, {
      fileName: 'people.csv',
      csv: 'First,Last,Email,Email status\nNew,Person,new@x.test,unsubscribed\nOld,Smith,old@x.test,\n',
    });
    await db
      .updateTable('contactImports')
      .set({
        status: 'queued',
        listId: list.id,
        mapping: JSON.stringify({
          First: 'firstName',
          Last: 'lastName',
          Email: 'email',
          'Email status': 'emailConsent',
        }),
      })
      .where('id', '=', imp.id)
      .execute();
    const since = await lastId();
    await runContactImport(db, imp.id);
    const events = await eventsAfter(since);
    const created = events.find((e) => e.type === 'contact.created')!;
    // One event per row: a new contact's names the list it joined.
    expect(created).toMatchObject({
      actorKind: 'system',
      payload: {
        via: 'import',
        person: { name: 'New Person', email: 'new@x.test' },
        list: { id: list.id, name: 'Imported' },
      },
    });
    expect(events.map((e) => [e.type, e.contactId])).toEqual([
      ['contact.created', created.contactId],
      ['consent.changed', created.contactId],
      ['contact.updated', existing.id],
      ['list.member_added', existing.id],
    ]);
    expect(events[2]!.payload.changed).toEqual(['firstName', 'lastName', 'email']);
    expect(events[3]!.payload.list).toEqual({ id: list.id, name: 'Imported' });
  });
});
