import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');

describe('Funds API', () => {
  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/funds')).status).toBe(401);
  });

  it("makes 'General' for every church at registration", async () => {
    const res = await grace.client.get('/api/funds');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ name: 'General', isPublic: true, status: 'active', giftCount: 0 }),
    ]);
    const other = await hope.client.get('/api/funds');
    expect(other.body.map((f: { name: string }) => f.name)).toEqual(['General']);
    expect(other.body[0].id).not.toBe(res.body[0].id);
  });

  it('adds, lists and changes a fund (PATCH is partial)', async () => {
    const created = await grace.client.post('/api/funds', { name: 'Missions', description: 'Partners abroad' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Missions',
      description: 'Partners abroad',
      isPublic: true,
      status: 'active',
    });
    const patched = await grace.client.patch(`/api/funds/${created.body.id}`, { isPublic: false });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Missions', description: 'Partners abroad', isPublic: false });
    const list = await grace.client.get('/api/funds');
    expect(list.body.map((f: { name: string }) => f.name)).toEqual(['General', 'Missions']);
  });

  it('refuses bad input naming the field', async () => {
    const empty = await grace.client.post('/api/funds', { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/Name is required/);
    const long = await grace.client.post('/api/funds', { name: 'x'.repeat(81) });
    expect(long.status).toBe(400);
    expect(long.text).toMatch(/Name must be at most 80 characters/);
    const badPublic = await grace.client.post('/api/funds', { name: 'Youth', isPublic: 'yes' });
    expect(badPublic.status).toBe(400);
    expect(badPublic.text).toMatch(/Public must be true or false/);
    const dup = await grace.client.post('/api/funds', { name: 'general' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A fund with this name already exists');
    const badStatus = await grace.client.patch('/api/funds/1', { status: 'gone' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.text).toMatch(/Status must be active or archived/);
    const badId = await grace.client.patch('/api/funds/abc', { name: 'X' });
    expect(badId.status).toBe(400);
  });

  it("answers 404 for another church's fund", async () => {
    const theirs = await hope.client.post('/api/funds', { name: 'Building' });
    expect(theirs.status).toBe(201);
    expect((await grace.client.patch(`/api/funds/${theirs.body.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await grace.client.delete(`/api/funds/${theirs.body.id}`)).status).toBe(404);
    const still = await hope.client.get('/api/funds');
    expect(still.body.map((f: { name: string }) => f.name)).toContain('Building');
  });

  it('keeps General: no rename, no archive, no delete', async () => {
    const general = (await grace.client.get('/api/funds')).body[0];
    expect((await grace.client.patch(`/api/funds/${general.id}`, { name: 'Other' })).status).toBe(400);
    expect((await grace.client.patch(`/api/funds/${general.id}`, { status: 'archived' })).status).toBe(400);
    expect((await grace.client.delete(`/api/funds/${general.id}`)).status).toBe(400);
    const described = await grace.client.patch(`/api/funds/${general.id}`, { description: 'Where it is needed most' });
    expect(described.body).toMatchObject({ name: 'General', description: 'Where it is needed most' });
  });

  it('deletes an unused fund; archives one with gifts instead', async () => {
    const unused = await grace.client.post('/api/funds', { name: 'Choir robes' });
    const del = await grace.client.delete(`/api/funds/${unused.body.id}`);
    expect(del.body).toEqual({ id: unused.body.id, outcome: 'deleted' });
    expect((await grace.client.get('/api/funds')).body.map((f: { id: number }) => f.id)).not.toContain(unused.body.id);

    const building = await grace.client.post('/api/funds', { name: 'Building' });
    // A completed gift with a line to the fund (as a card gift or a batch would write it).
    await app.db.transaction().execute(async (trx) => {
      const gift = await trx
        .insertInto('gifts')
        .values({
          userId: grace.user.id,
          amountCents: 2500,
          status: 'completed',
          idempotencyKey: 'funds-test-gift',
          receiptToken: 'funds-test-receipt-token',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('giftLines')
        .values({ userId: grace.user.id, giftId: gift.id, fundId: building.body.id, amountCents: 2500 })
        .execute();
    });
    const archived = await grace.client.delete(`/api/funds/${building.body.id}`);
    expect(archived.body).toEqual({ id: building.body.id, outcome: 'archived' });
    const active = await grace.client.get('/api/funds?status=active');
    expect(active.body.map((f: { name: string }) => f.name)).not.toContain('Building');
    const all = await grace.client.get('/api/funds?status=all');
    expect(all.body.find((f: { id: number }) => f.id === building.body.id)).toMatchObject({
      status: 'archived',
      giftCount: 1,
    });
    const back = await grace.client.patch(`/api/funds/${building.body.id}`, { status: 'active' });
    expect(back.body.status).toBe('active');
  });
});
