import { afterAll, describe, expect, it } from 'vitest';
import { chargeDueSchedules, deliverStatements, pdfText } from '../helpers/giving.js';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle } from '../helpers/portal.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

// Giving statements: a controlled clock charges a year of weekly gifts for a donor;
// the statement run builds one PDF per donor (read back with a PDF text extractor), emails it with
// the PDF attached through the delivery engine (once), and puts the donors without an email in one
// PDF to print; the report names donors without an email or a postal address.

const sink = await startSmtpSink();
afterAll(() => sink.close());
const app = await startTestApp({ emailSmtpUrl: sink.url });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await giveHandle(app.db, grace.user.id, 'grace-statements');
const visitor = new HttpClient(app.url);

const settings = await grace.client.put('/api/settings', {
  postalAddress: '12 Vine Street\nSpringfield IL 62701',
  taxId: '12-3456789',
});
const funds = (await grace.client.get('/api/funds')).body as { id: number; name: string }[];
const general = funds.find((f) => f.name === 'General')!;
const missions = (await grace.client.post('/api/funds', { name: 'Missions' })).body as { id: number };

const DAY = 86_400_000;
const start = new Date();
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const from = isoDay(start);
// 364 days: 52 weeks (the 53rd weekly date, day 364, is outside).
const to = isoDay(new Date(start.getTime() + 363 * DAY));

async function runUntilDone(client: HttpClient, runId: number) {
  let run: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        run = (await client.get(`/api/giving/statements/${runId}`)).body;
        return run.status;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe('done');
  return run as {
    total: number;
    done: number;
    toEmail: number;
    emailed: number;
    toPrint: number;
    totalCents: number;
    withoutEmail: { name: string; email: string | null }[];
    withoutAddress: { name: string; email: string | null }[];
  };
}

describe('Giving statements', () => {
  it('a year of weekly gifts: one statement, its lines and total to the cent, emailed once with the PDF', async () => {
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body.taxId).toBe('12-3456789');
    const prepared = await visitor.post('/api/giving/prepare', {
      handle: 'grace-statements',
      lines: [
        { fundId: general.id, amountCents: 2500 },
        { fundId: missions.id, amountCents: 1234 },
      ],
      frequency: 'weekly',
      startDate: from,
      coverFees: false,
      donor: {
        name: 'Lydia Purple',
        email: 'lydia@example.org',
        address: { line1: '1 River Rd', city: 'Thyatira', state: 'IL', postalCode: '62702' },
      },
      idempotencyKey: 'statements-weekly-gift-key-0001',
    });
    expect(prepared.status, prepared.text).toBe(200);
    await visitor.post('/api/giving/demo-complete', {
      intentId: prepared.body.intentId,
      clientSecret: prepared.body.clientSecret,
    });
    // The controlled clock: every week of a year, and once more after it (outside the range).
    const deps = {
      db: app.db,
      payments: app.deps.showUp.payments,
      cardFee: app.deps.showUp.cardFee,
      jobs: app.deps.jobs,
    };
    for (let week = 0; week <= 52; week++)
      await chargeDueSchedules(deps, { now: new Date(start.getTime() + week * 7 * DAY + 60_000) });
    const gifts = await grace.client.get(`/api/giving/gifts?scheduleId=${prepared.body.scheduleId}&pageSize=100`);
    expect(gifts.body.total).toBe(53);

    // A cash gift from a member without an email, and a donor with an email but no address.
    // (A contact made here needs an email; an imported one may have none.)
    const noEmail = await addContact(grace.client, { firstName: 'Anna', lastName: 'Prophet' });
    await app.db.updateTable('contacts').set({ email: null }).where('id', '=', noEmail.id).execute();
    const batch = (
      await grace.client.post('/api/giving/batches', {
        batchDate: from,
        description: 'Sunday',
        expectedTotalCents: 7000,
      })
    ).body;
    expect(batch.id, JSON.stringify(batch)).toBeTruthy();
    const line = await grace.client.post(`/api/giving/batches/${batch.id}/lines`, {
      contactId: noEmail.id,
      fundId: general.id,
      amountCents: 5000,
      method: 'check',
      checkNumber: '1042',
    });
    expect(line.status, line.text).toBe(201);
    const noAddress = await addContact(grace.client, {
      firstName: 'Simeon',
      lastName: 'Elder',
      email: 'simeon@example.org',
    });
    await grace.client.post(`/api/giving/batches/${batch.id}/lines`, {
      contactId: noAddress.id,
      fundId: missions.id,
      amountCents: 2000,
      method: 'cash',
      goodsServices: 'Mission dinner ticket',
      goodsServicesCents: 1500,
    });
    const committed = await grace.client.post(`/api/giving/batches/${batch.id}/commit`, {});
    expect(committed.status, committed.text).toBe(200);

    const started = await grace.client.post('/api/giving/statements', { from, to });
    expect(started.status, started.text).toBe(202);
    const run = await runUntilDone(grace.client, started.body.id);
    expect(run).toMatchObject({ total: 3, done: 3, toEmail: 2, emailed: 2, toPrint: 1 });
    // 52 × $37.34 + $50.00 + $20.00
    expect(run.totalCents).toBe(52 * 3734 + 5000 + 2000);
    expect(run.withoutEmail.map((d) => d.name)).toEqual(['Anna Prophet']);
    expect(run.withoutAddress.map((d) => d.name)).toEqual(['Anna Prophet', 'Simeon Elder']);

    // The email: once, with the PDF attached.
    await sink.waitFor(2);
    const toLydia = sink.messages.filter((m) => m.envelopeTo.includes('lydia@example.org'));
    expect(toLydia).toHaveLength(1);
    const mail = toLydia[0]!.parsed;
    expect(mail.subject).toBe('Your giving statement from Grace Church');
    expect(mail.text).toContain('$1,941.68 in all');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.contentType).toBe('application/pdf');
    expect(mail.attachments[0]!.filename).toBe(`giving-statement-${from}-to-${to}.pdf`);
    const pdf = mail.attachments[0]!.content;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The font is embedded (a subset of Inter), not a standard PDF font.
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);

    const text = await pdfText(pdf);
    expect(text).toContain('Grace Church');
    expect(text).toContain('12 Vine Street');
    expect(text).toContain('Tax ID: 12-3456789');
    expect(text).toContain('Lydia Purple');
    expect(text).toContain('1 River Rd');
    expect(text).toContain('Thyatira, IL 62702');
    // One line per fund of each weekly gift: 52 of each, none outside the range.
    const generalLines = text.split('\n').filter((l) => /General\s+Card\s+\$25\.00/.test(l));
    const missionLines = text.split('\n').filter((l) => /Missions\s+Card\s+\$12\.34/.test(l));
    expect(generalLines).toHaveLength(52);
    expect(missionLines).toHaveLength(52);
    expect(text).toMatch(/Total\s+\$1,941\.68/);
    expect(text).toContain('No goods or services were provided in exchange for these contributions.');

    // A gift that says what was given for it: the statement names it instead.
    const toSimeon = sink.messages.find((m) => m.envelopeTo.includes('simeon@example.org'))!;
    const simeonText = await pdfText(toSimeon.parsed.attachments[0]!.content);
    expect(simeonText).toMatch(/Missions \*\s+Cash\s+\$20\.00/);
    expect(simeonText).toContain('Goods or services were provided in exchange for some contributions (marked *):');
    expect(simeonText).toMatch(/gift of \$20\.00: Mission dinner ticket \(value \$15\.00\)/);
    expect(simeonText).toContain('No goods or services were provided in exchange for the other contributions.');
    expect(simeonText).not.toContain('No goods or services were provided in exchange for these contributions.');

    // The job run again sends nothing more: one delivery per (run, donor).
    await deliverStatements(
      { db: app.db, email: app.deps.email, sms: app.deps.sms, jobs: app.deps.jobs, config: app.deps.delivery },
      started.body.id,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages.filter((m) => m.envelopeTo.includes('lydia@example.org'))).toHaveLength(1);

    // The donor without an email is in the PDF to print, and only they are.
    const download = await fetch(`${app.url}/api/giving/statements/${started.body.id}/download`, {
      headers: { cookie: [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    const printed = await pdfText(Buffer.from(await download.arrayBuffer()));
    expect(printed).toContain('Anna Prophet');
    expect(printed).toMatch(/General\s+Check #1042\s+\$50\.00/);
    expect(printed).not.toContain('Lydia Purple');

    // Another church sees none of it.
    expect((await hope.client.get(`/api/giving/statements/${started.body.id}`)).status).toBe(404);
    expect((await hope.client.get(`/api/giving/statements/${started.body.id}/download`)).status).toBe(404);
    expect((await hope.client.get('/api/giving/statements')).body).toEqual([]);
  }, 90_000);

  it('asks first: the preview counts donors emailed, printed instead and suppressed addresses skipped', async () => {
    const preview = async (client: HttpClient) => client.get(`/api/giving/statements/preview?from=${from}&to=${to}`);
    const before = await preview(grace.client);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ from, to, donors: 3, toEmail: 2, toPrint: 1, suppressed: 0 });
    // Simeon's address bounced: it is suppressed, so his statement is printed, not emailed.
    await app.db
      .insertInto('emailSuppressions')
      .values({ userId: grace.user.id, email: 'simeon@example.org', reason: 'hard_bounce' })
      .execute();
    const after = await preview(grace.client);
    expect(after.body).toEqual({ from, to, donors: 3, toEmail: 1, toPrint: 2, suppressed: 1 });

    const sentBefore = sink.messages.filter((m) => m.envelopeTo.includes('simeon@example.org')).length;
    const allBefore = sink.messages.length;
    const started = await grace.client.post('/api/giving/statements', { from, to });
    const run = await runUntilDone(grace.client, started.body.id);
    expect(run).toMatchObject({ total: 3, toEmail: 1, emailed: 1, toPrint: 2, suppressed: 1 });
    await sink.waitFor(allBefore + 1);
    expect(sink.messages.filter((m) => m.envelopeTo.includes('lydia@example.org'))).toHaveLength(2);
    expect(sink.messages.filter((m) => m.envelopeTo.includes('simeon@example.org'))).toHaveLength(sentBefore);
    const download = await fetch(`${app.url}/api/giving/statements/${started.body.id}/download`, {
      headers: { cookie: [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const printed = await pdfText(Buffer.from(await download.arrayBuffer()));
    expect(printed).toContain('Simeon Elder');
    expect(printed).toContain('Anna Prophet');
    expect(printed).not.toContain('Lydia Purple');

    // Another church's preview counts only its own donors; bad dates name the field; no session: 401.
    expect((await preview(hope.client)).body).toMatchObject({ donors: 0, toEmail: 0, toPrint: 0, suppressed: 0 });
    const bad = await grace.client.get(`/api/giving/statements/preview?from=${to}&to=${from}`);
    expect(bad.status).toBe(400);
    expect(bad.body.issues?.[0]).toEqual({ path: 'to', message: 'To must be on or after From' });
    expect((await preview(visitor)).status).toBe(401);
  }, 90_000);

  it('refuses bad ranges naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ from: '2026-02-30', to: '2026-12-31' }, 'from', /From must be a date/],
      [{ from: '2026-01-01' }, 'to', /To must be a date/],
      [{ from: '2026-12-31', to: '2026-01-01' }, 'to', /To must be on or after From/],
      [{ from: '2000-01-01', to: '2026-01-01' }, 'to', /at most ten years/],
    ];
    for (const [body, field, message] of cases) {
      const res = await grace.client.post('/api/giving/statements', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toMatch(message);
      expect(res.body.issues?.[0]?.path).toBe(field);
    }
    expect((await visitor.post('/api/giving/statements', { from, to })).status).toBe(401);
  });

  it("staff open one donor's statement for any dates; another church's contact is a 404", async () => {
    const donor = await addContact(grace.client, {
      firstName: 'Priscilla',
      lastName: 'Tent',
      email: 'pris@example.org',
    });
    const batch = (await grace.client.post('/api/giving/batches', { batchDate: from, expectedTotalCents: 4200 })).body;
    await grace.client.post(`/api/giving/batches/${batch.id}/lines`, {
      contactId: donor.id,
      fundId: general.id,
      amountCents: 4200,
      method: 'check',
      checkNumber: '77',
    });
    expect((await grace.client.post(`/api/giving/batches/${batch.id}/commit`, {})).status).toBe(200);
    const cookie = [...grace.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${app.url}/api/giving/donors/${donor.id}/statement?from=${from}&to=${to}`, {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('giving-statement-priscilla-tent-');
    const text = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Giving statement');
    expect(text).toContain('Priscilla Tent');
    expect(text).toMatch(/General\s+Check #77\s+\$42\.00/);
    expect(text).toMatch(/Total\s+\$42\.00/);
    expect((await hope.client.get(`/api/giving/donors/${donor.id}/statement?from=${from}&to=${to}`)).status).toBe(404);
    // Without dates: this calendar year.
    const thisYear = await fetch(`${app.url}/api/giving/donors/${donor.id}/statement`, { headers: { cookie } });
    expect(thisYear.headers.get('content-disposition')).toContain(
      `-${from.slice(0, 4)}-01-01-to-${from.slice(0, 4)}-12-31.pdf`,
    );
    const bad = await grace.client.get(`/api/giving/donors/${donor.id}/statement?from=${to}&to=${from}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('To must be on or after From');
  });
});
