import { describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

function contact(church = grace) {
  return addContact(church.client);
}

describe('contact lists', () => {
  it('creates (default type both), updates and deletes a list', async () => {
    const created = await grace.client.post('/api/contact-lists', { name: ' Youth ', description: 'Parents of youth' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Youth',
      description: 'Parents of youth',
      type: 'both',
      userId: grace.user.id,
    });
    const updated = await grace.client.put(`/api/contact-lists/${created.body.id}`, {
      name: 'Youth SMS',
      type: 'sms',
      description: '',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Youth SMS', type: 'sms', description: null });
    expect((await grace.client.delete(`/api/contact-lists/${created.body.id}`)).status).toBe(200);
    expect((await grace.client.get(`/api/contact-lists/${created.body.id}/contacts`)).status).toBe(404);
  });

  it.each([
    [{ name: '' }, 'name', 'List name is required'],
    [{ type: 'both' }, 'name', 'List name is required'],
    [{ name: 'X', type: 'fax' }, 'type', 'Please select a contact list type'],
  ])('rejects %j', async (payload, field, message) => {
    const res = await grace.client.post('/api/contact-lists', payload);
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe(field);
    expect(res.body.message).toBe(message);
  });

  it('adds and removes members; counts with include_counts=true; lists of a contact', async () => {
    const list = (await grace.client.post('/api/contact-lists', { name: 'Choir', type: 'email' })).body;
    const a = await contact();
    const b = await contact();
    expect((await grace.client.post(`/api/contact-lists/${list.id}/contacts/${a.id}`)).status).toBe(200);
    expect((await grace.client.post(`/api/contact-lists/${list.id}/contacts/${a.id}`)).status).toBe(200); // idempotent
    await grace.client.post(`/api/contact-lists/${list.id}/contacts/${b.id}`);

    const withCounts = await grace.client.get('/api/contact-lists?include_counts=true');
    expect(withCounts.body.find((l: { id: number }) => l.id === list.id)).toMatchObject({
      contactCount: 2,
      contactsCount: 2,
    });
    const without = await grace.client.get('/api/contact-lists');
    expect(without.body.find((l: { id: number }) => l.id === list.id).contactCount).toBeUndefined();

    const members = await grace.client.get(`/api/contact-lists/${list.id}/contacts`);
    expect(members.body.map((c: { id: number }) => c.id).sort()).toEqual([a.id, b.id].sort());
    const listsOfA = await grace.client.get(`/api/contacts/${a.id}/lists`);
    expect(listsOfA.body.map((l: { name: string }) => l.name)).toEqual(['Choir']);

    expect((await grace.client.delete(`/api/contact-lists/${list.id}/contacts/${a.id}`)).status).toBe(200);
    expect(
      (await grace.client.get(`/api/contact-lists/${list.id}/contacts`)).body.map((c: { id: number }) => c.id),
    ).toEqual([b.id]);

    // Deleting the list keeps its contacts.
    await grace.client.delete(`/api/contact-lists/${list.id}`);
    expect((await grace.client.get(`/api/contacts/${b.id}`)).status).toBe(200);
  });

  it("never joins two churches' rows, and hides the other church's lists", async () => {
    const mine = (await grace.client.post('/api/contact-lists', { name: 'Mine' })).body;
    const theirs = (await hope.client.post('/api/contact-lists', { name: 'Theirs' })).body;
    const myContact = await contact(grace);
    const theirContact = await contact(hope);
    expect((await grace.client.post(`/api/contact-lists/${theirs.id}/contacts/${myContact.id}`)).status).toBe(404);
    expect((await grace.client.post(`/api/contact-lists/${mine.id}/contacts/${theirContact.id}`)).status).toBe(404);
    expect((await grace.client.put(`/api/contact-lists/${theirs.id}`, { name: 'Hacked' })).status).toBe(404);
    expect((await grace.client.delete(`/api/contact-lists/${theirs.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/contact-lists/${theirs.id}/contacts`)).status).toBe(404);
    expect((await grace.client.get('/api/contact-lists')).body.map((l: { name: string }) => l.name)).not.toContain(
      'Theirs',
    );
    // Even a direct insert cannot mix churches: the composite foreign key refuses it.
    await expect(
      app.db
        .insertInto('contactsInLists')
        .values({ userId: grace.user.id, listId: mine.id, contactId: theirContact.id })
        .execute(),
    ).rejects.toThrow(/foreign key/);
  });

  it('adds every contact matching a search at once, counting the newly added; not to another church', async () => {
    const list = (await grace.client.post('/api/contact-lists', { name: 'Select all' })).body;
    await addContact(grace.client, { firstName: 'Zebedee', lastName: 'Fisher' });
    await addContact(grace.client, { firstName: 'Zebulun', lastName: 'Fisher' });
    await addContact(hope.client, { firstName: 'Zelda', lastName: 'Fisher' });
    const res = await grace.client.post(`/api/contact-lists/${list.id}/contacts/matching`, { search: 'fisher' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ listId: list.id, added: 2 });
    const again = await grace.client.post(`/api/contact-lists/${list.id}/contacts/matching`, { search: 'fisher' });
    expect(again.body.added).toBe(0);
    const theirs = await hope.client.post(`/api/contact-lists/${list.id}/contacts/matching`, { search: 'fisher' });
    expect(theirs.status).toBe(404);
    const bad = await grace.client.post(`/api/contact-lists/${list.id}/contacts/matching`, { tab: 'everyone' });
    expect(bad.status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/contact-lists')).status).toBe(401);
  });
});
