import { describe, expect, it } from 'vitest';
import { runDueEnrollments } from '@lampstand/api/server';
import { moveIn, moveInFixture } from '../helpers/move-in.js';
import { giveHandle } from '../helpers/portal.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Recurring givers after a move: the old system's recurring-gift export through the move-in
// preview and commit, each giver's personal link to the giving page, re-enrolment when the
// schedule made through it has its card saved (demo payments), the journey that asks them back,
// and the staff totals.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const breezeChurch = await registerChurch(app.url, 'Breeze Church');
await giveHandle(app.db, grace.user.id, 'grace-renew');
await giveHandle(app.db, breezeChurch.user.id, 'breeze-renew');
const visitor = new HttpClient(app.url);

const { upload, committed } = moveIn(app.url);
/** POST /api/imports with a fixture of test/fixtures/move-in, under its own name. */
const uploadRest = (client: HttpClient, file: string, fields: Record<string, string> = {}) =>
  upload(client, moveInFixture(file), file, fields);

interface Renewal {
  id: number;
  contactId: number | null;
  donorName: string;
  frequency: string;
  lines: { fundId: number; fundName: string; amountCents: number }[];
  monthlyCents: number;
  lastChargeDate: string | null;
  startDate: string;
  status: string;
  link: string | null;
}
const renewals = async (client: HttpClient) => (await client.get('/api/imports/recurring')).body;
const byName = (list: Renewal[], name: string) => list.find((r) => r.donorName === name)!;
const tokenOf = (r: Renewal) => new URL(r.link!).searchParams.get('renew')!;
/** The link on this test's server (the link itself names the configured public address). */
const open = async (link: string) => {
  const u = new URL(link);
  return (await fetch(`${app.url}${u.pathname}${u.search}`)).text();
};
const DAY = 86_400_000;

/** Noon in Grace's time zone, `days` days from today: a text is never held by quiet hours then. */
async function noonInChurch(days: number): Promise<Date> {
  const settings = await app.db
    .selectFrom('churchSettings')
    .select('timeZone')
    .where('userId', '=', grace.user.id)
    .executeTakeFirst();
  const hourIn = new Intl.DateTimeFormat('en-US', {
    timeZone: settings?.timeZone ?? 'UTC',
    hour: 'numeric',
    hourCycle: 'h23',
  });
  const midnight = Date.parse(`${new Date(Date.now() + days * DAY).toISOString().slice(0, 10)}T00:00:00Z`);
  for (let h = 0; h < 48; h++) {
    const t = new Date(midnight + h * 3_600_000);
    if (Number(hourIn.format(t)) === 12) return t;
  }
  throw new Error('no noon found');
}

describe('recurring givers from Planning Center', () => {
  let importId = 0;
  it('recognises the recurring donations export and previews it: donors matched, per month per fund', async () => {
    const people = await uploadRest(grace.client, 'planning-center-people.csv');
    expect(people.status).toBe(201);
    await committed(grace.client, people.body.id);
    const before = await renewals(grace.client);
    expect(before.totals).toEqual({
      givers: 0,
      renewed: 0,
      linkSent: 0,
      monthlyCentsBefore: 0,
      monthlyCentsRecovered: 0,
    });
    const res = await uploadRest(grace.client, 'planning-center-recurring.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    importId = res.body.id;
    expect(res.body).toMatchObject({
      source: 'planning-center-recurring',
      sourceLabel: 'Planning Center Giving recurring donations export',
      kind: 'recurring',
      status: 'previewed',
    });
    expect(res.body.preview.problems).toEqual([]);
    expect(res.body.preview.recurring).toEqual({
      count: 3,
      donorsMatched: 2,
      donorsNotFound: 1,
      inactive: 1,
      // José $1,050 a month; Zoë $25 every two weeks ($54.17); Ada $120 a year ($10).
      monthlyCents: 105_000 + 5_417 + 1_000,
      funds: [
        { name: 'Building Fund', isNew: true, monthlyCents: 1_000 },
        { name: 'General Fund', isNew: true, monthlyCents: 100_000 + 5_417 },
        { name: 'Missions', isNew: true, monthlyCents: 5_000 },
      ],
    });
    // A dry run: nothing written.
    expect((await renewals(grace.client)).totals.givers).toBe(0);
  });

  it('commits renewals (not schedules) with a personal link each, and enrols the givers found in the journey', async () => {
    const done = await committed(grace.client, importId);
    expect(done.report.recurring).toEqual({ created: 3, enrolled: 2 });
    expect((await grace.client.get('/api/giving/recurring')).body).toEqual([]);
    const list = await renewals(grace.client);
    expect(list.totals).toEqual({
      givers: 3,
      renewed: 0,
      linkSent: 0,
      monthlyCentsBefore: 111_417,
      monthlyCentsRecovered: 0,
    });
    expect(list.journey).toMatchObject({ name: 'Bring recurring givers back', status: 'active' });
    const jose = byName(list.renewals, 'José Muñoz');
    expect(jose).toMatchObject({
      frequency: 'monthly',
      lastChargeDate: '2026-11-01',
      startDate: '2026-12-01',
      monthlyCents: 105_000,
      status: 'not_yet',
    });
    expect(jose.lines.map((l) => [l.fundName, l.amountCents])).toEqual([
      ['General Fund', 100_000],
      ['Missions', 5_000],
    ]);
    expect(jose.link).toMatch(/\/c\/grace-renew\/give\?renew=[A-Za-z0-9_-]{43}$/);
    expect(byName(list.renewals, 'Zoë Muñoz')).toMatchObject({ frequency: 'every_two_weeks', startDate: '2026-12-04' });
    expect(byName(list.renewals, 'Ada Lovelace')).toMatchObject({ contactId: null, startDate: '2027-02-10' });
    // The same file again adds nobody.
    const again = await uploadRest(grace.client, 'planning-center-recurring.csv');
    expect((await committed(grace.client, again.body.id)).report.recurring).toEqual({ created: 0, enrolled: 0 });
    expect((await renewals(grace.client)).totals.givers).toBe(3);
  });

  it('runs the journey through the contact rule: no email or text without consent', async () => {
    const jose = byName((await renewals(grace.client)).renewals, 'José Muñoz');
    const e = await app.db
      .selectFrom('journeyEnrollments')
      .select('id')
      .where('contactId', '=', jose.contactId!)
      .executeTakeFirstOrThrow();
    const stepRuns = () =>
      app.db
        .selectFrom('journeyStepRuns')
        .select(['stepId', 'outcome', 'detail'])
        .where('enrollmentId', '=', e.id)
        .orderBy('id')
        .execute();
    // The app's own runner may hold the enrolment (its lease) while it takes the first step at the
    // real time; the test's clock moves it on once that is committed, whoever took it.
    await expect
      .poll(
        async () => {
          await runDueEnrollments(app.db, { now: new Date() });
          return (await stepRuns()).some((r) => r.stepId === 'link');
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect
      .poll(
        async () => {
          await runDueEnrollments(app.db, { now: await noonInChurch(4) });
          return (await stepRuns()).some((r) => r.stepId === 'text');
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const runs = await stepRuns();
    // José's address is shared with Zoë, whom the file does not say opted in (the one contact rule).
    expect(runs.find((r) => r.stepId === 'link')).toMatchObject({
      outcome: 'skipped',
      detail: 'Unsubscribed from email',
    });
    expect(runs.find((r) => r.stepId === 'text')).toMatchObject({
      outcome: 'skipped',
      detail: 'Unsubscribed from texts',
    });
  });

  it("prefills the giving page from the personal link, with the giver's funds even off the page", async () => {
    const jose = byName((await renewals(grace.client)).renewals, 'José Muñoz');
    const html = await open(jose.link!);
    expect(html).toContain('Welcome back, José Muñoz');
    expect(html).toMatch(/<option value="\d+" selected>General Fund<\/option>/);
    expect(html).toMatch(/<option value="\d+" selected>Missions<\/option>/);
    expect(html).toContain('value="1000.00"');
    expect(html).toContain('value="50.00"');
    expect(html).toContain('<option value="monthly" selected>Monthly</option>');
    expect(html).toContain('value="jose.munoz@example.org"');
    const today = new Date().toISOString().slice(0, 10);
    if (jose.startDate >= today) expect(html).toContain(`name="startDate" min="${today}" value="${jose.startDate}"`);
    expect(html).toContain(`"renew":"${tokenOf(jose)}"`);
    // The plain page does not offer funds that are off it; a wrong token says the link is not open.
    const plain = await (await fetch(`${app.url}/c/grace-renew/give`)).text();
    expect(plain).not.toContain('Missions');
    const wrong = await (await fetch(`${app.url}/c/grace-renew/give?renew=${'x'.repeat(43)}`)).text();
    expect(wrong).toContain('This personal link is no longer open');
    expect(wrong).not.toContain('Missions');
  });

  it('re-enrols the giver when the schedule made through the link has its card saved, and the journey stops', async () => {
    const jose = byName((await renewals(grace.client)).renewals, 'José Muñoz');
    const body = {
      handle: 'grace-renew',
      lines: jose.lines.map((l) => ({ fundId: l.fundId, amountCents: l.amountCents })),
      frequency: 'monthly',
      coverFees: false,
      donor: { name: 'José Muñoz', email: 'jose.munoz@example.org' },
      renew: tokenOf(jose),
      idempotencyKey: 'renew-jose-key-0001',
    };
    // Without the link, a fund off the page is not found.
    const refused = await visitor.post('/api/giving/prepare', {
      ...body,
      renew: undefined,
      idempotencyKey: 'x'.repeat(20),
    });
    expect(refused.status).toBe(404);
    const prepared = await visitor.post('/api/giving/prepare', body);
    expect(prepared.status, prepared.text).toBe(200);
    expect(prepared.body.kind).toBe('setup');
    // Prepared is not yet re-enrolled: the card is not saved.
    expect(byName((await renewals(grace.client)).renewals, 'José Muñoz').status).not.toBe('renewed');
    const done = await visitor.post('/api/giving/demo-complete', {
      intentId: prepared.body.intentId,
      clientSecret: prepared.body.clientSecret,
    });
    expect(done.status, done.text).toBe(200);
    const list = await renewals(grace.client);
    expect(byName(list.renewals, 'José Muñoz')).toMatchObject({
      status: 'renewed',
      scheduleId: prepared.body.scheduleId,
    });
    expect(list.totals).toMatchObject({
      givers: 3,
      renewed: 1,
      monthlyCentsBefore: 111_417,
      monthlyCentsRecovered: 105_000,
    });
    // The link is used: the page no longer prefills it.
    expect(await open(jose.link!)).toContain('This personal link is no longer open');
    // As above: the app's own runner may be holding the enrolment when the test's clock moves.
    await expect
      .poll(
        async () => {
          await runDueEnrollments(app.db, { now: new Date(Date.now() + 12 * DAY) });
          const e = await app.db
            .selectFrom('journeyEnrollments')
            .select('status')
            .where('contactId', '=', jose.contactId!)
            .executeTakeFirstOrThrow();
          return e.status;
        },
        { timeout: 20_000 },
      )
      .toBe('converted');
  });

  it("keeps another church's import and givers out of sight", async () => {
    expect((await hope.client.get(`/api/imports/${importId}`)).status).toBe(404);
    expect((await renewals(hope.client)).renewals).toEqual([]);
    expect((await hope.client.post(`/api/imports/${importId}/commit`, { policy: {} })).status).toBe(404);
  });
});

describe('recurring givers from Breeze', () => {
  it('previews and commits the recurring contributions export', async () => {
    const people = await uploadRest(breezeChurch.client, 'breeze-people.csv');
    await committed(breezeChurch.client, people.body.id);
    const res = await uploadRest(breezeChurch.client, 'breeze-recurring.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ source: 'breeze-recurring', kind: 'recurring' });
    expect(res.body.preview.recurring).toMatchObject({
      count: 2,
      donorsMatched: 2,
      donorsNotFound: 0,
      // $200 twice a month, $40 weekly ($173.33).
      monthlyCents: 40_000 + 17_333,
    });
    await committed(breezeChurch.client, res.body.id);
    const list = await renewals(breezeChurch.client);
    expect(byName(list.renewals, 'Élodie Fairbanks')).toMatchObject({
      frequency: 'first_and_fifteenth',
      lastChargeDate: '2026-11-15',
      startDate: '2026-12-01',
    });
    expect(byName(list.renewals, 'Marcus Fairbanks')).toMatchObject({ frequency: 'weekly', startDate: '2026-11-29' });
  });
});

describe('bad input', () => {
  it('lists unreadable rows with their line, column and reason', async () => {
    const res = await uploadRest(grace.client, 'planning-center-recurring-bad.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const preview = res.body.preview;
    expect(preview.problems).toEqual([
      { line: 2, column: 'Frequency', reason: expect.stringContaining("'Quarterly' is not a frequency") },
      { line: 3, column: 'Amount', reason: expect.stringContaining("'12,50' uses a decimal comma") },
    ]);
    expect(preview.recurring).toMatchObject({ count: 1 });
  });

  it('names the missing column when the file is not the export asked for', async () => {
    const res = await uploadRest(grace.client, 'breeze-recurring.csv', { source: 'planning-center-recurring' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "This is not a Planning Center Giving recurring donations export: its header row has no column 'Recurring Donation ID'",
    );
  });

  it('refuses an unknown or used link at prepare time by ignoring it (the public funds only)', async () => {
    const res = await visitor.post('/api/giving/prepare', {
      handle: 'grace-renew',
      lines: [{ fundId: 999_999, amountCents: 1000 }],
      frequency: 'monthly',
      donor: { name: 'Eve', email: 'eve@example.org' },
      renew: 'not a token!',
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Fund not found/);
  });
});
