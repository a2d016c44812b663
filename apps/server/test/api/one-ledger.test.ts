import { describe, expect, it } from 'vitest';
import { chargeDueSchedules, pdfText, statementRunDone } from '../helpers/giving.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, linkInOutbox, Member } from '../helpers/portal.js';
import { demoGift, projectPayload } from '../helpers/show-up.js';

// One ledger: a donor gave $40 to the roof project (Show Up), $25 once and $10 a month
// on the giving page, and $50 by check in a batch. Before, the project gift lived in its own table
// and the statement said $85. Now every one of the four is a gift of the ledger: the year-end
// statement, the giving overview, the gift list and the portal's My giving each show all four, to
// the cent, and the project's raised amount is read from the same ledger (demo mode throughout).

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-one-ledger');
const visitor = new HttpClient(app.url);
const EMAIL = 'lydia-ledger@example.org';
const today = new Date().toISOString().slice(0, 10);
const general = ((await grace.client.get('/api/funds')).body as { id: number; name: string }[]).find(
  (f) => f.name === 'General',
)!;

// 1. The project gift: $40 to the roof, on the project's public page.
const roof = (await grace.client.post('/api/show-up/projects', projectPayload({ title: 'Church roof' }))).body as {
  id: number;
};
await demoGift(visitor, { projectId: roof.id, amount: 40, donorEmail: EMAIL, donorName: 'Lydia Purple' });

// 2. A one-time gift of $25 and 3. a monthly gift of $10, on the church's giving page.
let keys = 0;
async function give(frequency: 'one_time' | 'monthly', amountCents: number) {
  const prepared = await visitor.post('/api/giving/prepare', {
    handle,
    lines: [{ fundId: general.id, amountCents }],
    frequency,
    ...(frequency === 'monthly' ? { startDate: today } : {}),
    coverFees: false,
    donor: { name: 'Lydia Purple', email: EMAIL },
    idempotencyKey: `one-ledger-key-${++keys}-xxxxxxxxxxxx`,
  });
  expect(prepared.status, prepared.text).toBe(200);
  const done = await visitor.post('/api/giving/demo-complete', {
    intentId: prepared.body.intentId,
    clientSecret: prepared.body.clientSecret,
  });
  expect(done.status, done.text).toBe(200);
}
await give('one_time', 2500);
await give('monthly', 1000);
await chargeDueSchedules(
  { db: app.db, payments: app.deps.showUp.payments, cardFee: app.deps.showUp.cardFee, jobs: app.deps.jobs },
  { now: new Date() },
);

// 4. A check for $50 in a batch, for the same person (the contact her first gift made).
const lydia = await app.db
  .selectFrom('contacts')
  .select('id')
  .where('userId', '=', grace.user.id)
  .where('emailLower', '=', EMAIL)
  .executeTakeFirstOrThrow();
const batch = (await grace.client.post('/api/giving/batches', { batchDate: today, expectedTotalCents: 5000 })).body;
const line = await grace.client.post(`/api/giving/batches/${batch.id}/lines`, {
  contactId: lydia.id,
  fundId: general.id,
  amountCents: 5000,
  method: 'check',
  checkNumber: '1001',
});
expect(line.status, line.text).toBe(201);
expect((await grace.client.post(`/api/giving/batches/${batch.id}/commit`, {})).status).toBe(200);

const ALL_FOUR = 4000 + 2500 + 1000 + 5000;

describe('one ledger: a project, a one-time, a recurring and a batch gift of one donor', () => {
  it('the gift list has all four on her contact, to the cent', async () => {
    const list = await grace.client.get(`/api/giving/gifts?contactId=${lydia.id}&status=completed&pageSize=100`);
    expect(list.status, list.text).toBe(200);
    const gifts = list.body.gifts as { amountCents: number; lines: { fundName: string; amountCents: number }[] }[];
    expect(list.body.total).toBe(4);
    expect(gifts.reduce((s, g) => s + g.amountCents, 0)).toBe(ALL_FOUR);
    expect(gifts.flatMap((g) => g.lines.map((l) => `${l.fundName} ${l.amountCents}`)).sort()).toEqual([
      'Church roof 4000',
      'General 1000',
      'General 2500',
      'General 5000',
    ]);
  });

  it('the giving overview counts all four, the project gift under its project', async () => {
    const o = (await grace.client.get('/api/giving/overview')).body;
    expect(o.totalCents).toBe(ALL_FOUR);
    expect(o.funds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fundName: 'General', totalCents: 8500 }),
        expect.objectContaining({ fundName: 'Church roof', totalCents: 4000 }),
      ]),
    );
  });

  it("the year-end statement and the portal's My giving show all four, to the cent", async () => {
    const runId = await statementRunDone(grace.client, { from: today, to: today });
    expect((await grace.client.get(`/api/giving/statements/${runId}`)).body.totalCents).toBe(ALL_FOUR);

    // The donor signs in to the portal: My giving lists the four gifts and her statement.
    const member = new Member(app.url);
    await app.db.deleteFrom('rateLimitBuckets').where('key', 'like', 'portal-sign-in:client:%').execute();
    expect((await member.post(`/c/${handle}/me/sign-in`, { address: EMAIL })).status).toBe(200);
    const link = await linkInOutbox(app.db, EMAIL, /http:\/\/\S+\/c\/grace-one-ledger\/me\/link\/[\w-]+/);
    expect((await member.post(new URL(link).pathname)).status).toBe(303);
    const page = (await member.get(`/c/${handle}/me/giving`)).text;
    const giftIds = [...new Set([...page.matchAll(/\/giving\/gifts\/(\d+)/g)].map((m) => Number(m[1])))];
    expect(giftIds).toHaveLength(4);
    const receipts = await Promise.all(
      giftIds.map(async (id) => (await member.get(`/c/${handle}/me/giving/gifts/${id}`)).text),
    );
    for (const total of ['$40.00', '$25.00', '$10.00', '$50.00']) {
      expect(receipts.some((r) => r.includes(`Total: ${total}`))).toBe(true);
    }
    const statementId = /\/giving\/statements\/(\d+)/.exec(page)![1];
    const pdf = await fetch(`${app.url}/c/${handle}/me/giving/statements/${statementId}`, {
      headers: { cookie: [...member.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(pdf.status).toBe(200);
    const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toMatch(/Church roof\s+Card\s+\$40\.00/);
    expect(text).toMatch(/General\s+Card\s+\$25\.00/);
    expect(text).toMatch(/General\s+Card\s+\$10\.00/);
    expect(text).toMatch(/General\s+Check #1001\s+\$50\.00/);
    expect(text).toMatch(/Total\s+\$125\.00/);
  });

  it("the project's raised amount and supporters are read from the ledger: a check to its fund counts too", async () => {
    const before = (await visitor.get(`/api/show-up/projects/${roof.id}`)).body;
    expect(before).toMatchObject({ raisedAmount: 40, donationsCount: 1 });
    const fund = ((await grace.client.get('/api/funds?status=all')).body as { id: number; name: string }[]).find(
      (f) => f.name === 'Church roof',
    )!;
    const b = (await grace.client.post('/api/giving/batches', { batchDate: today, expectedTotalCents: 1500 })).body;
    await grace.client.post(`/api/giving/batches/${b.id}/lines`, {
      fundId: fund.id,
      amountCents: 1500,
      method: 'cash',
    });
    expect((await grace.client.post(`/api/giving/batches/${b.id}/commit`, {})).status).toBe(200);
    const after = (await visitor.get(`/api/show-up/projects/${roof.id}`)).body;
    expect(after).toMatchObject({ raisedAmount: 55, donationsCount: 2 });
  });
});
