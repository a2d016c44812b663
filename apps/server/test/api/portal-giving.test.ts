import { describe, expect, it } from 'vitest';
import { chargeDueSchedules, pdfText, statementRunDone } from '../helpers/giving.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, linkInOutbox, Member } from '../helpers/portal.js';

// 'My giving' in the members' portal (demo mode): the donor's gifts with receipts,
// their recurring gift (pause until a date, skip the next one, change amounts, funds and
// frequency, cancel after asking), their statements; another donor's gifts are invisible.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-portal-giving');
const base = `/c/${handle}/me`;
const LINK = /http:\/\/\S+\/c\/grace-portal-giving\/me\/link\/[\w-]+/;
const visitor = new HttpClient(app.url);
const funds = (await grace.client.get('/api/funds')).body as { id: number; name: string }[];
const general = funds.find((f) => f.name === 'General')!;
const missions = (await grace.client.post('/api/funds', { name: 'Missions' })).body as { id: number };
const today = new Date().toISOString().slice(0, 10);
const DAY = 86_400_000;
const chargeDeps = () => ({
  db: app.db,
  payments: app.deps.showUp.payments,
  cardFee: app.deps.showUp.cardFee,
  jobs: app.deps.jobs,
});

let keys = 0;
/** A weekly gift of $20 General + $5 Missions from `email`, its card saved and today charged. */
async function weeklyGift(name: string, email: string) {
  const prepared = await visitor.post('/api/giving/prepare', {
    handle,
    lines: [
      { fundId: general.id, amountCents: 2000 },
      { fundId: missions.id, amountCents: 500 },
    ],
    frequency: 'weekly',
    startDate: today,
    coverFees: false,
    donor: { name, email },
    idempotencyKey: `portal-giving-key-${++keys}-xxxxxxxxxx`,
  });
  expect(prepared.status, prepared.text).toBe(200);
  await visitor.post('/api/giving/demo-complete', {
    intentId: prepared.body.intentId,
    clientSecret: prepared.body.clientSecret,
  });
  await chargeDueSchedules(chargeDeps(), { now: new Date() });
  return prepared.body.scheduleId as number;
}

async function signIn(email: string) {
  const member = new Member(app.url);
  await app.db.deleteFrom('rateLimitBuckets').where('key', 'like', 'portal-sign-in:client:%').execute();
  expect((await member.post(`${base}/sign-in`, { address: email })).status).toBe(200);
  const link = await linkInOutbox(app.db, email, LINK);
  expect((await member.post(new URL(link).pathname)).status).toBe(303);
  return member;
}

const mine = await weeklyGift('Lydia Purple', 'lydia-portal@example.org');
const theirs = await weeklyGift('Demas Away', 'demas-portal@example.org');
const recurring = async (id: number) =>
  ((await grace.client.get('/api/giving/recurring')).body as Record<string, unknown>[]).find((s) => s.id === id)!;

describe("the portal's My giving", () => {
  it('shows the donor their own gifts and recurring gift, with a receipt; another donor’s are invisible', async () => {
    const member = await signIn('lydia-portal@example.org');
    const page = await member.get(`${base}/giving`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>My giving</h1>');
    expect(page.text).toContain('Weekly gift of $25.00');
    expect(page.text).toContain('General $20.00, Missions $5.00');
    expect(page.text).toContain(`/give/manage/`);
    expect(page.text).not.toContain('Demas');
    const giftIds = [...new Set([...page.text.matchAll(/\/giving\/gifts\/(\d+)/g)].map((m) => Number(m[1])))];
    expect(giftIds).toHaveLength(1);
    expect(page.text).toContain(`${base}/giving/gifts/${giftIds[0]}/receipt`);

    const receipt = await member.get(`${base}/giving/gifts/${giftIds[0]}`);
    expect(receipt.status).toBe(200);
    expect(receipt.text).toContain('Total: $25.00');
    expect(receipt.text).toContain('No goods or services were provided in exchange for these contributions.');
    // The receipt as a PDF, from the statements' writer: each fund, the total.
    const pdf = await fetch(`${app.url}${base}/giving/gifts/${giftIds[0]}/receipt`, {
      headers: { cookie: [...member.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Gift receipt');
    expect(text).toMatch(/General\s+Card\s+\$20\.00/);
    expect(text).toMatch(/Missions\s+Card\s+\$5\.00/);
    expect(text).toMatch(/Total\s+\$25\.00/);

    // Another donor's gift and recurring gift: 404, and no change happens.
    const other = (await grace.client.get(`/api/giving/gifts?scheduleId=${theirs}`)).body.gifts[0].id as number;
    expect((await member.get(`${base}/giving/gifts/${other}`)).status).toBe(404);
    expect((await member.get(`${base}/giving/gifts/${other}/receipt`)).status).toBe(404);
    const csrf = await member.csrf(`${base}/giving`);
    expect((await member.post(`${base}/giving/recurring/${theirs}/cancel`, { csrf })).status).toBe(404);
    expect((await member.get(`${base}/giving/recurring/${theirs}/cancel`)).status).toBe(404);
    expect((await recurring(theirs)).status).toBe('active');
    // Not signed in: no giving page.
    expect((await new Member(app.url).get(`${base}/giving`)).status).toBe(303);
  });

  it('pauses until a date, skips the next one, changes amounts, funds and frequency, and cancels after asking', async () => {
    const member = await signIn('lydia-portal@example.org');
    const csrf = await member.csrf(`${base}/giving`);
    const post = (what: string, form: Record<string, string | string[]> = {}) =>
      member.post(`${base}/giving/recurring/${mine}/${what}`, { csrf, ...form });

    // A date in the past is refused, naming why, on the page.
    const past = await post('pause', { until: today });
    expect(past.status).toBe(400);
    expect(past.text).toContain('Paused until must be after today');
    const until = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10);
    const paused = await post('pause', { until });
    expect(paused.status).toBe(303);
    expect(paused.headers.get('location')).toBe(`${base}/giving?done=gift-saved`);
    expect(await recurring(mine)).toMatchObject({ status: 'paused', pausedUntil: until });
    expect((await member.get(`${base}/giving?done=gift-saved`)).text).toContain('Your recurring gift is saved.');
    // Paused: the next weeks pass without a gift.
    await chargeDueSchedules(chargeDeps(), { now: new Date(Date.now() + 14 * DAY) });
    expect((await grace.client.get(`/api/giving/gifts?scheduleId=${mine}`)).body.total).toBe(1);

    expect((await post('resume')).status).toBe(303);
    const before = (await recurring(mine)).nextDate as string;
    expect((await post('skip')).status).toBe(303);
    const after = (await recurring(mine)).nextDate as string;
    expect(Date.parse(after) - Date.parse(before)).toBe(7 * DAY);

    const changed = await post('lines', {
      fund: [String(general.id), String(missions.id), ''],
      amount: ['30.00', '', ''],
    });
    expect(changed.status, changed.text).toBe(303);
    expect(await recurring(mine)).toMatchObject({
      amountCents: 3000,
      lines: [{ fundId: general.id, amountCents: 3000 }],
    });
    const tooSmall = await post('lines', { fund: [String(general.id)], amount: ['0.20'] });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.text).toMatch(/at least \$0\.50/);
    expect((await post('frequency', { frequency: 'monthly' })).status).toBe(303);
    expect((await recurring(mine)).frequency).toBe('monthly');
    expect((await post('frequency', { frequency: 'daily' })).status).toBe(400);

    // A staff-only fund is neither offered nor accepted, and its name never shown.
    const staffOnly = (await grace.client.post('/api/funds', { name: 'Pastor Discretionary', isPublic: false }))
      .body as { id: number };
    expect((await member.get(`${base}/giving`)).text).not.toContain('Pastor Discretionary');
    const hidden = await post('lines', { fund: [String(staffOnly.id)], amount: ['40.00'] });
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain('Pastor Discretionary');
    expect((await recurring(mine)).lines).toEqual([expect.objectContaining({ fundId: general.id, amountCents: 3000 })]);
    expect((await member.get(`${base}/giving`)).text).not.toContain('Pastor Discretionary');

    // A cancel asks first.
    const ask = await member.get(`${base}/giving/recurring/${mine}/cancel`);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Cancel this recurring gift?');
    expect(ask.text).toContain('Keep it');
    expect((await recurring(mine)).status).toBe('active');
    const cancelled = await post('cancel');
    expect(cancelled.headers.get('location')).toBe(`${base}/giving?done=gift-cancelled`);
    expect((await recurring(mine)).status).toBe('cancelled');
    expect((await member.get(`${base}/giving`)).text).toContain('No recurring gifts.');
  });

  it("lists the donor's statements and downloads their own PDF only", async () => {
    await statementRunDone(grace.client, { from: today, to: today });
    const member = await signIn('lydia-portal@example.org');
    const page = await member.get(`${base}/giving`);
    const ids = [...page.text.matchAll(/\/giving\/statements\/(\d+)/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(1);
    const pdf = await member.get(`${base}/giving/statements/${ids[0]}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const all = await app.db.selectFrom('givingStatements').select(['id']).execute();
    const other = all.map((s) => s.id).find((id) => id !== ids[0])!;
    expect((await member.get(`${base}/giving/statements/${other}`)).status).toBe(404);
  });
});
