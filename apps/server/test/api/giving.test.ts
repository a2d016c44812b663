import { createHash } from 'node:crypto';
import { eventsSettled } from '@lampstand/api/server';
import { describe, expect, it } from 'vitest';
import { chargeDueSchedules, GIVE_PAGE_SCRIPT_FOR_TESTS } from '../helpers/giving.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle } from '../helpers/portal.js';

// Giving that recurs, in demo mode (no Stripe keys): funds on the giving page, one gift
// split across funds with the fee covered, recurring gifts charged by the job on a controlled clock.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await giveHandle(app.db, grace.user.id, 'grace-giving');
await giveHandle(app.db, hope.user.id, 'hope-giving');
const visitor = new HttpClient(app.url);

const fundsOf = async (client: HttpClient) =>
  (await client.get('/api/funds?status=all')).body as { id: number; name: string }[];
const general = (await fundsOf(grace.client)).find((f) => f.name === 'General')!;
const missions = (await grace.client.post('/api/funds', { name: 'Missions', description: 'Partners abroad' })).body;
const staffOnly = (await grace.client.post('/api/funds', { name: 'Benevolence', isPublic: false })).body;
const archived = (await grace.client.post('/api/funds', { name: 'Old roof' })).body;
await grace.client.patch(`/api/funds/${archived.id}`, { status: 'archived' });
const hopeFund = (await fundsOf(hope.client))[0]!;

const today = new Date().toISOString().slice(0, 10);
const deps = () => ({
  db: app.db,
  payments: app.deps.showUp.payments,
  cardFee: app.deps.showUp.cardFee,
  jobs: app.deps.jobs,
});

let keyCount = 0;
function gift(overrides: Record<string, unknown> = {}) {
  return {
    handle: 'grace-giving',
    lines: [
      { fundId: general.id, amountCents: 3000 },
      { fundId: missions.id, amountCents: 1000 },
    ],
    frequency: 'one_time',
    coverFees: true,
    donor: { name: 'Lydia Purple', email: 'lydia@example.org', address: { line1: '1 River Rd', city: 'Thyatira' } },
    note: 'For the work',
    idempotencyKey: `giving-test-key-${++keyCount}-xxxxxxxx`,
    ...overrides,
  };
}

describe('GET /c/{handle}/give', () => {
  it('shows the public funds, quick amounts, the frequencies and the fee; its script is allowed by the CSP', async () => {
    const res = await fetch(`${app.url}/c/grace-giving/give?fund=${missions.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1>Give to Grace Church</h1>');
    expect(html).toContain(`<option value="${missions.id}" selected>Missions — Partners abroad</option>`);
    expect(html).toContain('>General</option>');
    expect(html).not.toContain('Benevolence');
    expect(html).not.toContain('Old roof');
    for (const label of ['One time', 'Weekly', 'Every two weeks', 'Monthly', '1st and 15th', 'Yearly']) {
      expect(html).toContain(`>${label}</option>`);
    }
    expect(html).toContain('"fee":{"percentBasisPoints":290,"fixedCents":30}');
    const hash = createHash('sha256').update(GIVE_PAGE_SCRIPT_FOR_TESTS).digest('base64');
    expect(res.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`);
    // Giving itself is a second script from the church's own origin, loaded when the donor presses Give.
    const payPath = /"payScript":"([^"]+)"/.exec(html)?.[1];
    expect(payPath).toMatch(/^\/give\/pay\.js\?v=[0-9a-f]{12}$/);
    const pay = await fetch(`${app.url}${payPath}`);
    expect(pay.status).toBe(200);
    expect(pay.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(pay.headers.get('cache-control')).toContain('immutable');
    expect(await pay.text()).toContain("post('/api/giving/prepare',body)");
    expect(GIVE_PAGE_SCRIPT_FOR_TESTS).not.toContain('/api/giving/prepare');
  });

  it('answers 404 for an unknown church', async () => {
    expect((await fetch(`${app.url}/c/nobody-here/give`)).status).toBe(404);
  });
});

describe('POST /api/giving/prepare', () => {
  it('refuses bad input naming the field', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ frequency: 'fortnightly' }, 400, /Frequency must be one time, weekly/],
      [{ frequency: 'monthly', startDate: '2020-01-01' }, 400, /Start date cannot be in the past/],
      [{ frequency: 'monthly', startDate: '2026-02-30' }, 400, /Start date must be a date/],
      [{ lines: [{ fundId: general.id, amountCents: 49 }] }, 400, /Each amount must be at least \$0.50/],
      [{ lines: [{ fundId: general.id, amountCents: 10.5 }] }, 400, /whole number of cents/],
      [{ lines: [] }, 400, /Add at least one fund/],
      [
        { lines: Array.from({ length: 11 }, () => ({ fundId: general.id, amountCents: 100 })) },
        400,
        /At most 10 funds/,
      ],
      [{ amountCents: 5000 }, 400, /The amounts add up to \$40.00, not \$50.00/],
      [{ lines: [{ fundId: archived.id, amountCents: 500 }] }, 400, /Old roof is archived/],
      [{ lines: [{ fundId: hopeFund.id, amountCents: 500 }] }, 404, /Fund not found/],
      [{ lines: [{ fundId: staffOnly.id, amountCents: 500 }] }, 404, /Fund not found/],
      [{ handle: 'nobody-here' }, 404, /Church not found/],
      [{ donor: { name: 'X', email: 'not-an-email' } }, 400, /valid email address/],
      [{ donor: { name: '', email: 'a@example.org' } }, 400, /Name is required/],
      // One card charge at most (the processor's $999,999.99), a start within a year.
      [
        { lines: Array.from({ length: 10 }, () => ({ fundId: general.id, amountCents: 99_999_999 })) },
        400,
        /The lines add up to more than \$999,999.99, the most one card payment can be/,
      ],
      [
        { lines: [{ fundId: general.id, amountCents: 99_999_999 }], coverFees: true },
        400,
        /With the fees covered the gift is \$1,029,866.42, more than \$999,999.99/,
      ],
      [{ frequency: 'monthly', startDate: '9999-12-31' }, 400, /Start date must be within a year from today/],
    ];
    for (const [override, status, message] of cases) {
      const res = await visitor.post('/api/giving/prepare', gift(override));
      expect(res.status, JSON.stringify(override)).toBe(status);
      expect(res.text, JSON.stringify(override)).toMatch(message);
    }
    const field = await visitor.post('/api/giving/prepare', gift({ frequency: 'fortnightly' }));
    expect(field.body.issues?.[0]?.path).toBe('frequency');
    const past = await visitor.post('/api/giving/prepare', gift({ frequency: 'weekly', startDate: '2020-01-01' }));
    expect(past.body.issues?.[0]?.path).toBe('startDate');
    const far = await visitor.post('/api/giving/prepare', gift({ frequency: 'weekly', startDate: '9999-12-31' }));
    expect(far.body.issues?.[0]?.path).toBe('startDate');
    const huge = await visitor.post(
      '/api/giving/prepare',
      gift({ lines: Array.from({ length: 10 }, () => ({ fundId: general.id, amountCents: 99_999_999 })) }),
    );
    expect(huge.body.issues?.[0]?.path).toBe('lines');
    const archivedLine = await visitor.post(
      '/api/giving/prepare',
      gift({ lines: [{ fundId: archived.id, amountCents: 500 }] }),
    );
    expect(archivedLine.body.issues?.[0]?.path).toBe('lines.0.fundId');
  });

  it('gives $40 split $30 General / $10 Missions with the fees covered, in whole cents, once', async () => {
    const body = gift();
    const prepared = await visitor.post('/api/giving/prepare', body);
    expect(prepared.status, prepared.text).toBe(200);
    // (4000 + 30) / (1 - 0.029) = 4150.36… → 4151: the fee is $1.51.
    expect(prepared.body).toMatchObject({
      kind: 'payment',
      linesCents: 4000,
      feeCents: 151,
      totalCents: 4151,
      frequency: 'one_time',
      mode: 'demo',
    });
    expect(prepared.text).not.toContain('lydia@example.org');
    const again = await visitor.post('/api/giving/prepare', body);
    expect(again.body.giftId).toBe(prepared.body.giftId);
    expect(again.body.intentId).toBe(prepared.body.intentId);

    const done = await visitor.post('/api/giving/demo-complete', {
      intentId: prepared.body.intentId,
      clientSecret: prepared.body.clientSecret,
    });
    expect(done.status, done.text).toBe(200);
    const gifts = await grace.client.get('/api/giving/gifts?status=completed');
    expect(gifts.status, gifts.text).toBe(200);
    const g = gifts.body.gifts.find((x: { id: number }) => x.id === prepared.body.giftId);
    expect(g).toMatchObject({
      amountCents: 4151,
      feeCents: 151,
      status: 'completed',
      donorEmail: 'lydia@example.org',
      method: 'card',
      lines: [
        { fundId: general.id, fundName: 'General', amountCents: 3000 },
        { fundId: missions.id, fundName: 'Missions', amountCents: 1000 },
      ],
    });
    expect(g.contactId).toBeTruthy();
    const contact = await grace.client.get(`/api/contacts/${g.contactId}`);
    expect(contact.body).toMatchObject({ firstName: 'Lydia', lastName: 'Purple', email: 'lydia@example.org' });
    await eventsSettled(app.db);
    const events = await grace.client.get(`/api/events?types=donation.succeeded`);
    const e = events.body.events.find((x: { data: { donationId: number } }) => x.data.donationId === g.id);
    expect(e.data).toMatchObject({
      amountCents: 4151,
      gift: { id: g.id, frequency: 'one_time', scheduleId: null },
      funds: [
        { fund: { id: general.id, name: 'General' }, amountCents: 3000 },
        { fund: { id: missions.id, name: 'Missions' }, amountCents: 1000 },
      ],
    });
    expect(e.contactId).toBe(g.contactId);
    // The fund counts its gift line; another church sees none of it.
    expect((await fundsOf(grace.client)).length).toBeGreaterThan(1);
    const hopeGifts = await hope.client.get('/api/giving/gifts');
    expect(hopeGifts.body.total).toBe(0);
  });

  it('filters and pages the gifts; bad filters are a 400 naming them', async () => {
    const byFund = await grace.client.get(`/api/giving/gifts?fundId=${missions.id}&pageSize=1`);
    expect(byFund.body).toMatchObject({ page: 1, pageSize: 1 });
    expect(
      byFund.body.gifts.every((g: { lines: { fundId: number }[] }) => g.lines.some((l) => l.fundId === missions.id)),
    ).toBe(true);
    expect((await grace.client.get('/api/giving/gifts?status=lost')).status).toBe(400);
    expect((await grace.client.get('/api/giving/gifts?pageSize=500')).text).toMatch(/Page size must be 1 to 200/);
    expect((await visitor.get('/api/giving/gifts')).status).toBe(401);
  });
});

describe('Recurring gifts (demo mode, a controlled clock)', () => {
  it('saves the card, then the job charges each date exactly once, split across funds', async () => {
    const prepared = await visitor.post(
      '/api/giving/prepare',
      gift({ frequency: 'monthly', startDate: today, donor: { name: 'Phoebe Deacon', email: 'phoebe@example.org' } }),
    );
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.body).toMatchObject({ kind: 'setup', giftId: null, totalCents: 4151, frequency: 'monthly' });
    const scheduleId = prepared.body.scheduleId as number;
    const pending = await grace.client.get('/api/giving/recurring?status=pending');
    expect(pending.body.map((s: { id: number }) => s.id)).toContain(scheduleId);

    const saved = await visitor.post('/api/giving/demo-complete', {
      intentId: prepared.body.intentId,
      clientSecret: prepared.body.clientSecret,
    });
    expect(saved.status, saved.text).toBe(200);
    const active = (await grace.client.get('/api/giving/recurring?status=active')).body.find(
      (s: { id: number }) => s.id === scheduleId,
    );
    expect(active).toMatchObject({ status: 'active', nextDate: today, amountCents: 4000, feeCents: 151 });
    expect(active.contactId).toBeTruthy();

    // Two workers at once, twice: one gift for today.
    const now = new Date();
    await Promise.all([chargeDueSchedules(deps(), { now }), chargeDueSchedules(deps(), { now })]);
    await chargeDueSchedules(deps(), { now });
    const charged = await grace.client.get(`/api/giving/gifts?scheduleId=${scheduleId}`);
    expect(charged.body.total).toBe(1);
    expect(charged.body.gifts[0]).toMatchObject({
      status: 'completed',
      amountCents: 4151,
      chargeDate: today,
      frequency: 'monthly',
    });
    expect(charged.body.gifts[0].lines.map((l: { amountCents: number }) => l.amountCents)).toEqual([3000, 1000]);

    // A month and a half later: the next date is charged, once.
    const later = new Date(now.getTime() + 45 * 86_400_000);
    await chargeDueSchedules(deps(), { now: later });
    await chargeDueSchedules(deps(), { now: later });
    const two = await grace.client.get(`/api/giving/gifts?scheduleId=${scheduleId}`);
    expect(two.body.total).toBe(2);
    const after = (await grace.client.get('/api/giving/recurring')).body.find(
      (s: { id: number }) => s.id === scheduleId,
    );
    expect(after.nextDate > two.body.gifts[0].chargeDate).toBe(true);
  });

  it('staff pause, resume and cancel a recurring gift; filters by fund; CSV export; another church: 404', async () => {
    const prepared = await visitor.post(
      '/api/giving/prepare',
      gift({
        frequency: 'weekly',
        lines: [{ fundId: missions.id, amountCents: 2500 }],
        coverFees: false,
        donor: { name: 'Priscilla Tent', email: 'priscilla@example.org' },
      }),
    );
    const id = prepared.body.scheduleId as number;
    await visitor.post('/api/giving/demo-complete', {
      intentId: prepared.body.intentId,
      clientSecret: prepared.body.clientSecret,
    });

    const byFund = await grace.client.get(`/api/giving/recurring?fundId=${missions.id}`);
    expect(byFund.body.map((s: { id: number }) => s.id)).toContain(id);
    const byGeneralOnly = await grace.client.get(`/api/giving/recurring?fundId=${staffOnly.id}`);
    expect(byGeneralOnly.body).toEqual([]);

    const noDate = await grace.client.patch(`/api/giving/recurring/${id}`, { status: 'paused' });
    expect(noDate.status).toBe(400);
    expect(noDate.text).toMatch(/Choose the date to resume/);
    const resume = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const paused = await grace.client.patch(`/api/giving/recurring/${id}`, { status: 'paused', pausedUntil: resume });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({
      status: 'paused',
      pausedUntil: resume,
      frequency: 'weekly',
      amountCents: 2500,
    });
    // Paused: its dates pass without a charge. (The worker's charge job, queued a second after the
    // card was saved, may have charged today's date before the pause on a slow machine: counted.)
    const giftsOfSchedule = async () =>
      (await grace.client.get(`/api/giving/gifts?scheduleId=${id}`)).body.total as number;
    const chargedBeforePause = await giftsOfSchedule();
    expect(chargedBeforePause).toBeLessThanOrEqual(1);
    await chargeDueSchedules(deps(), { now: new Date(Date.now() + 7 * 86_400_000) });
    expect(await giftsOfSchedule()).toBe(chargedBeforePause);

    const changed = await grace.client.patch(`/api/giving/recurring/${id}`, {
      lines: [
        { fundId: general.id, amountCents: 2000 },
        { fundId: missions.id, amountCents: 1500 },
      ],
    });
    expect(changed.body).toMatchObject({ status: 'paused', amountCents: 3500, feeCents: 0 });
    expect(changed.body.lines.map((l: { fundName: string }) => l.fundName)).toEqual(['General', 'Missions']);
    expect((await grace.client.patch(`/api/giving/recurring/${id}`, { frequency: 'daily' })).status).toBe(400);
    const tooMuch = await grace.client.patch(`/api/giving/recurring/${id}`, {
      lines: [
        { fundId: general.id, amountCents: 99_999_950 },
        { fundId: missions.id, amountCents: 50 },
      ],
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.issues?.[0]?.path).toBe('lines');
    const farNext = await grace.client.patch(`/api/giving/recurring/${id}`, { nextDate: '9999-12-31' });
    expect(farNext.status).toBe(400);
    expect(farNext.text).toMatch(/Next date must be within a year from today/);
    expect(farNext.body.issues?.[0]?.path).toBe('nextDate');
    expect(
      (await grace.client.patch(`/api/giving/recurring/${id}`, { lines: [{ fundId: hopeFund.id, amountCents: 500 }] }))
        .status,
    ).toBe(404);
    expect((await hope.client.patch(`/api/giving/recurring/${id}`, { status: 'cancelled' })).status).toBe(404);
    expect((await hope.client.get('/api/giving/recurring')).body).toEqual([]);

    const csv = await grace.client.get(`/api/giving/recurring/export?status=paused`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text).toContain('Priscilla Tent,priscilla@example.org,Weekly,paused');
    expect(csv.text).toContain('General: 20.00; Missions: 15.00');

    const cancelled = await grace.client.patch(`/api/giving/recurring/${id}`, { status: 'cancelled' });
    expect(cancelled.body.status).toBe('cancelled');
    await chargeDueSchedules(deps(), { now: new Date(Date.now() + 60 * 86_400_000) });
    expect(await giftsOfSchedule()).toBe(chargedBeforePause);
  });
});
