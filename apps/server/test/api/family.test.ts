import { describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

function contact(church = grace, firstName?: string) {
  return addContact(church.client, firstName ? { firstName } : {});
}

describe('family links', () => {
  it('shows the link from both sides, inverse on the other contact', async () => {
    const mum = await contact(grace, 'Mum');
    const son = await contact(grace, 'Son');
    // "Son is the child of Mum", added on Mum's page.
    const added = await grace.client.post(`/api/contacts/${mum.id}/family`, {
      relatedContactId: son.id,
      relationship: 'child',
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ contact1Id: mum.id, contact2Id: son.id, relationship: 'child' });

    const fromMum = await grace.client.get(`/api/contacts/${mum.id}/family`);
    expect(fromMum.body).toHaveLength(1);
    expect(fromMum.body[0]).toMatchObject({
      relationship: 'child',
      isInverse: false,
      contact: { id: son.id, firstName: 'Son' },
      link: { id: added.body.id },
    });

    const fromSon = await grace.client.get(`/api/contacts/${son.id}/family`);
    expect(fromSon.body[0]).toMatchObject({
      relationship: 'child',
      isInverse: true,
      contact: { id: mum.id, firstName: 'Mum' },
    });

    expect((await grace.client.delete(`/api/contacts/family/${added.body.id}`)).status).toBe(200);
    expect((await grace.client.get(`/api/contacts/${son.id}/family`)).body).toEqual([]);
    expect((await grace.client.delete(`/api/contacts/family/${added.body.id}`)).status).toBe(404);
  });

  it('refuses a second link between the same two contacts, either way round (409)', async () => {
    const a = await contact();
    const b = await contact();
    await grace.client.post(`/api/contacts/${a.id}/family`, { relatedContactId: b.id, relationship: 'spouse' });
    const again = await grace.client.post(`/api/contacts/${b.id}/family`, {
      relatedContactId: a.id,
      relationship: 'spouse',
    });
    expect(again.status).toBe(409);
  });

  it('validates: a contact and a relationship are both required, not oneself', async () => {
    const a = await contact();
    const b = await contact();
    const noRel = await grace.client.post(`/api/contacts/${a.id}/family`, { relatedContactId: b.id });
    expect(noRel.status).toBe(400);
    expect(noRel.body.message).toBe('Please select a contact and relationship type.');
    const badRel = await grace.client.post(`/api/contacts/${a.id}/family`, {
      relatedContactId: b.id,
      relationship: 'cousin',
    });
    expect(badRel.status).toBe(400);
    const noContact = await grace.client.post(`/api/contacts/${a.id}/family`, { relationship: 'spouse' });
    expect(noContact.status).toBe(400);
    expect(noContact.body.issues[0].path).toBe('relatedContactId');
    const self = await grace.client.post(`/api/contacts/${a.id}/family`, {
      relatedContactId: a.id,
      relationship: 'spouse',
    });
    expect(self.status).toBe(400);
  });

  it("cannot link to another church's contact, nor read or remove its links", async () => {
    const mine = await contact(grace);
    const theirA = await contact(hope);
    const theirB = await contact(hope);
    expect(
      (
        await grace.client.post(`/api/contacts/${mine.id}/family`, {
          relatedContactId: theirA.id,
          relationship: 'sibling',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await grace.client.post(`/api/contacts/${theirA.id}/family`, {
          relatedContactId: mine.id,
          relationship: 'sibling',
        })
      ).status,
    ).toBe(404);
    const link = (
      await hope.client.post(`/api/contacts/${theirA.id}/family`, {
        relatedContactId: theirB.id,
        relationship: 'sibling',
      })
    ).body;
    expect((await grace.client.get(`/api/contacts/${theirA.id}/family`)).status).toBe(404);
    expect((await grace.client.delete(`/api/contacts/family/${link.id}`)).status).toBe(404);
    expect((await hope.client.get(`/api/contacts/${theirA.id}/family`)).body).toHaveLength(1);
    expect((await new HttpClient(app.url).get(`/api/contacts/${theirA.id}/family`)).status).toBe(401);
  });
});
