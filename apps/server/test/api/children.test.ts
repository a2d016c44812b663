import { describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';
import { ageFromDateOfBirth } from '@lampstand/api/shared/contacts';

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

function contact(church = grace) {
  return addContact(church.client);
}

describe('child groups', () => {
  it('creates, lists, renames and deletes groups; deleting keeps its children', async () => {
    const g = await grace.client.post('/api/child-groups', {
      name: 'Little Lambs',
      description: 'Toddlers',
      ageMin: 2,
      ageMax: 4,
    });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ name: 'Little Lambs', ageMin: 2, ageMax: 4, userId: grace.user.id });
    const renamed = await grace.client.put(`/api/child-groups/${g.body.id}`, { name: 'Lambs', ageMin: 2, ageMax: 5 });
    expect(renamed.body).toMatchObject({ name: 'Lambs', ageMax: 5, description: null });
    expect((await grace.client.get('/api/child-groups')).body.map((x: { name: string }) => x.name)).toEqual(['Lambs']);
    expect((await hope.client.get('/api/child-groups')).body).toEqual([]);

    const parent = await contact();
    const child = (await grace.client.post(`/api/contacts/${parent.id}/children`, { name: 'Tim', groupId: g.body.id }))
      .body;
    expect(child.group).toMatchObject({ name: 'Lambs' });
    expect((await grace.client.delete(`/api/child-groups/${g.body.id}`)).status).toBe(200);
    const after = (await grace.client.get(`/api/contacts/${parent.id}/children`)).body;
    expect(after[0]).toMatchObject({ name: 'Tim', groupId: null, group: null });
  });

  it('validates names and ages', async () => {
    const noName = await grace.client.post('/api/child-groups', { name: '' });
    expect(noName.body.message).toBe('Group name is required');
    const backwards = await grace.client.post('/api/child-groups', { name: 'X', ageMin: 9, ageMax: 3 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.issues[0]).toEqual({
      path: 'ageMax',
      message: 'Maximum age must not be less than minimum age',
    });
  });

  it("another church's group is a 404", async () => {
    const theirs = (await hope.client.post('/api/child-groups', { name: 'Theirs' })).body;
    expect((await grace.client.put(`/api/child-groups/${theirs.id}`, { name: 'X' })).status).toBe(404);
    expect((await grace.client.delete(`/api/child-groups/${theirs.id}`)).status).toBe(404);
    const parent = await contact();
    expect(
      (await grace.client.post(`/api/contacts/${parent.id}/children`, { name: 'Kid', groupId: theirs.id })).status,
    ).toBe(404);
  });
});

describe('children', () => {
  it('adds, updates and removes a child, with numbers or null for age and group', async () => {
    const parent = await contact();
    const group = (await grace.client.post('/api/child-groups', { name: 'Juniors', ageMin: 6, ageMax: 9 })).body;
    const added = await grace.client.post(`/api/contacts/${parent.id}/children`, {
      name: 'Lily',
      dateOfBirth: '2018-03-04',
      age: '7',
      groupId: String(group.id),
      notes: 'Peanut allergy',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      name: 'Lily',
      dateOfBirth: '2018-03-04',
      // With a date of birth the age is worked out, not the one typed.
      age: ageFromDateOfBirth('2018-03-04'),
      groupId: group.id,
      notes: 'Peanut allergy',
      parentContactId: parent.id,
      listIds: [],
    });

    const updated = await grace.client.patch(`/api/contacts/children/${added.body.id}`, {
      name: 'Lily Rose',
      age: '',
      groupId: '',
      notes: '',
    });
    expect(updated.status).toBe(200);
    // Partial: the date of birth was not sent and stays.
    expect(updated.body).toMatchObject({
      name: 'Lily Rose',
      age: ageFromDateOfBirth('2018-03-04'),
      groupId: null,
      notes: null,
      dateOfBirth: '2018-03-04',
    });
    const renamed = await grace.client.patch(`/api/contacts/children/${added.body.id}`, { name: 'Lil' });
    expect(renamed.body).toMatchObject({ name: 'Lil', dateOfBirth: '2018-03-04', parentContactId: parent.id });
    const noDob = await grace.client.patch(`/api/contacts/children/${added.body.id}`, { dateOfBirth: '' });
    expect(noDob.body).toMatchObject({ name: 'Lil', dateOfBirth: null, age: null });
    const typedAge = await grace.client.patch(`/api/contacts/children/${added.body.id}`, { age: 6 });
    expect(typedAge.body).toMatchObject({ dateOfBirth: null, age: 6 });

    const list = (await grace.client.get(`/api/contacts/${parent.id}/children`)).body;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Lil']);
    expect((await grace.client.delete(`/api/contacts/children/${added.body.id}`)).status).toBe(200);
    expect((await grace.client.get(`/api/contacts/${parent.id}/children`)).body).toEqual([]);
  });

  it("validates: Child's name is required", async () => {
    const parent = await contact();
    const res = await grace.client.post(`/api/contacts/${parent.id}/children`, { name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Child's name is required");
    const badAge = await grace.client.post(`/api/contacts/${parent.id}/children`, { name: 'A', age: 'seven' });
    expect(badAge.status).toBe(400);
    expect(badAge.body.issues[0].path).toBe('age');
  });

  it('adds a child only to lists of type sms or both, and requires a list', async () => {
    const parent = await contact();
    const child = (await grace.client.post(`/api/contacts/${parent.id}/children`, { name: 'Ben' })).body;
    const sms = (await grace.client.post('/api/contact-lists', { name: 'Kids SMS', type: 'sms' })).body;
    const email = (await grace.client.post('/api/contact-lists', { name: 'Newsletter', type: 'email' })).body;
    expect((await grace.client.post(`/api/contacts/children/${child.id}/lists/${sms.id}`, {})).status).toBe(200);
    const kids = (await grace.client.get(`/api/contacts/${parent.id}/children`)).body;
    expect(kids[0].listIds).toEqual([sms.id]);
    const wrongType = await grace.client.post(`/api/contacts/children/${child.id}/lists/${email.id}`, {});
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('Children can only be added to lists of type SMS or both');
  });

  it("another church's parent, child or list is a 404", async () => {
    const theirParent = await contact(hope);
    const theirChild = (await hope.client.post(`/api/contacts/${theirParent.id}/children`, { name: 'Their kid' })).body;
    const theirList = (await hope.client.post('/api/contact-lists', { name: 'Theirs', type: 'sms' })).body;
    const myParent = await contact();
    const myChild = (await grace.client.post(`/api/contacts/${myParent.id}/children`, { name: 'Mine' })).body;
    expect((await grace.client.get(`/api/contacts/${theirParent.id}/children`)).status).toBe(404);
    expect((await grace.client.post(`/api/contacts/${theirParent.id}/children`, { name: 'X' })).status).toBe(404);
    expect((await grace.client.patch(`/api/contacts/children/${theirChild.id}`, { name: 'X' })).status).toBe(404);
    expect((await grace.client.delete(`/api/contacts/children/${theirChild.id}`)).status).toBe(404);
    expect((await grace.client.post(`/api/contacts/children/${myChild.id}/lists/${theirList.id}`, {})).status).toBe(
      404,
    );
    expect((await new HttpClient(app.url).get(`/api/contacts/${myParent.id}/children`)).status).toBe(401);
  });
});
