import { describe, expect, it } from 'vitest';
import { addContact, HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Giving → Overview: the 12 months up to today by month and by fund, new donors this
// month, lapsed donors (gave in the last 12 months, nothing in the last 90 days) sent to a list or a
// journey, and gifts by source. Gifts come from committed batches dated days before today.

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const general = ((await grace.client.get('/api/funds')).body as { id: number }[])[0]!;
const missions = (await grace.client.post('/api/funds', { name: 'Missions' })).body as { id: number };
const ruth = await addContact(grace.client, { firstName: 'Ruth', lastName: 'Moab' });
const boaz = await addContact(grace.client, { firstName: 'Boaz', lastName: 'Bethlehem' });
const naomi = await addContact(grace.client, { firstName: 'Naomi', lastName: 'Moab' });
const eli = await addContact(grace.client, { firstName: 'Eli', lastName: 'Shiloh' });

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** A committed batch on `date` with these lines. */
async function batch(date: string, lines: { contactId?: number; fundId: number; amountCents: number }[]) {
  const total = lines.reduce((s, l) => s + l.amountCents, 0);
  const b = await grace.client.post('/api/giving/batches', { batchDate: date, expectedTotalCents: total });
  expect(b.status, b.text).toBe(201);
  for (const l of lines) {
    const r = await grace.client.post(`/api/giving/batches/${b.body.id}/lines`, { ...l, method: 'check' });
    expect(r.status, r.text).toBe(201);
  }
  expect((await grace.client.post(`/api/giving/batches/${b.body.id}/commit`)).status).toBe(200);
}

await batch(daysAgo(400), [{ contactId: naomi.id, fundId: general.id, amountCents: 2000 }]);
await batch(daysAgo(200), [{ contactId: boaz.id, fundId: general.id, amountCents: 3000 }]);
await batch(daysAgo(120), [{ contactId: ruth.id, fundId: general.id, amountCents: 10000 }]);
await batch(daysAgo(10), [
  { contactId: boaz.id, fundId: missions.id, amountCents: 5000 },
  { fundId: general.id, amountCents: 4000 },
]);
await batch(daysAgo(0), [{ contactId: eli.id, fundId: missions.id, amountCents: 1000 }]);

describe('Giving overview', () => {
  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/giving/overview')).status).toBe(401);
  });

  it('totals the 12 months by month and by fund, counts new donors and lists the lapsed', async () => {
    const res = await grace.client.get('/api/giving/overview');
    expect(res.status, res.text).toBe(200);
    const o = res.body;
    expect(o.months).toHaveLength(12);
    expect(o.months[11].month).toBe(o.today.slice(0, 7));
    // Naomi's gift, 400 days ago, is before the 12 months.
    expect(o.totalCents).toBe(3000 + 10000 + 5000 + 4000 + 1000);
    expect(o.months.reduce((s: number, m: { totalCents: number }) => s + m.totalCents, 0)).toBe(o.totalCents);
    expect(o.funds).toEqual([
      { fundId: general.id, fundName: 'General', totalCents: 17000 },
      { fundId: missions.id, fundName: 'Missions', totalCents: 6000 },
    ]);
    expect(o.recurring).toEqual({ count: 0, monthlyCents: 0 });
    // Eli's first gift is today; Boaz gave before this month.
    expect(o.newDonorsThisMonth).toBe(1);
    // Ruth gave 120 days ago and nothing since; Naomi's last gift is over a year old; Boaz gave lately.
    expect(o.lapsed).toEqual({
      count: 1,
      donors: [{ contactId: ruth.id, name: 'Ruth Moab', lastGiftOn: daysAgo(120), totalCents: 10000 }],
    });
    expect(o.sources.find((s: { source: string }) => s.source === 'direct')).toEqual({
      source: 'direct',
      count: 5,
      totalCents: 23000,
    });
    // Another church sees only its own (none).
    const theirs = (await hope.client.get('/api/giving/overview')).body;
    expect(theirs).toMatchObject({ totalCents: 0, newDonorsThisMonth: 0, lapsed: { count: 0, donors: [] } });
  });

  it('adds the lapsed donors to a list once, and enrols them in a journey', async () => {
    const list = (await grace.client.post('/api/contact-lists', { name: 'Lapsed givers' })).body as { id: number };
    const theirList = (await hope.client.post('/api/contact-lists', { name: 'Theirs' })).body as { id: number };
    expect((await grace.client.post('/api/giving/lapsed/list', { listId: theirList.id })).status).toBe(404);
    expect((await grace.client.post('/api/giving/lapsed/list', { listId: list.id })).body).toEqual({
      donors: 1,
      added: 1,
    });
    expect((await grace.client.post('/api/giving/lapsed/list', { listId: list.id })).body).toEqual({
      donors: 1,
      added: 0,
    });
    const members = (await grace.client.get(`/api/contact-lists/${list.id}/contacts`)).body;
    const ids = (Array.isArray(members) ? members : members.contacts).map((c: { id: number }) => c.id);
    expect(ids).toEqual([ruth.id]);
    const activity = await grace.client.get(`/api/contacts/${ruth.id}/events?kinds=list`);
    expect(activity.body.events.map((e: { type: string }) => e.type)).toContain('list.member_added');

    const journey = (
      await grace.client.post('/api/journeys', {
        name: 'We miss you',
        trigger: { kind: 'manual' },
        steps: [{ id: 't', kind: 'add_tag', tag: 'lapsed', next: null }],
      })
    ).body as { id: number };
    expect((await grace.client.post(`/api/journeys/${journey.id}/activate`)).status).toBe(200);
    expect((await hope.client.post('/api/giving/lapsed/journey', { journeyId: journey.id })).status).toBe(404);
    const enrolled = await grace.client.post('/api/giving/lapsed/journey', { journeyId: journey.id });
    expect(enrolled.body).toEqual({ enrolled: 1, skipped: 0 });
    expect((await grace.client.post('/api/giving/lapsed/journey', { journeyId: 'x' })).status).toBe(400);
  });
});
