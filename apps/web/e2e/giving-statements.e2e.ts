import { describe, expect, it } from 'vitest';
import { PDFParse } from 'pdf-parse';
import type { Page } from 'playwright-core';
import { addContact, registerChurch } from '@lampstand/server/testing';
import { chargeDueSchedules } from '@lampstand/api/server';
import { browserDescribe, expectAccessible, shotsAtWidths, signIn, startE2E } from './helpers';

// In demo mode: staff produce giving statements (Giving → Statements) and see
// the progress and the report; the donor pauses their recurring gift in the portal's My giving.
browserDescribe(describe)('Giving statements and My giving', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace City Church');
  const saved = await church.client.put('/api/settings/public-profile', { handle: 'grace-statements' });
  expect(saved.status, saved.text).toBe(200);
  await church.client.put('/api/settings', { postalAddress: '12 Vine Street\nSpringfield IL', taxId: '12-3456789' });
  const general = ((await church.client.get('/api/funds')).body as { id: number; name: string }[]).find(
    (f) => f.name === 'General',
  )!;
  const today = new Date().toISOString().slice(0, 10);
  const formatDay = (iso: string) =>
    new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });

  // Lydia gives $25 weekly (charged today); Anna's check has no email to send a statement to.
  const prepared = await church.client.post('/api/giving/prepare', {
    handle: 'grace-statements',
    lines: [{ fundId: general.id, amountCents: 2500 }],
    frequency: 'weekly',
    startDate: today,
    coverFees: false,
    donor: { name: 'Lydia Purple', email: 'lydia@example.org', address: { line1: '1 River Rd', city: 'Thyatira' } },
    idempotencyKey: 'e2e-statements-weekly-gift-0001',
  });
  expect(prepared.status, prepared.text).toBe(200);
  await church.client.post('/api/giving/demo-complete', {
    intentId: prepared.body.intentId,
    clientSecret: prepared.body.clientSecret,
  });
  const { deps } = e2e.app;
  await chargeDueSchedules(
    { db: e2e.app.db, payments: deps.showUp.payments, cardFee: deps.showUp.cardFee, jobs: deps.jobs },
    { now: new Date() },
  );
  const anna = await addContact(church.client, { firstName: 'Anna', lastName: 'Prophet' });
  await e2e.app.db.updateTable('contacts').set({ email: null }).where('id', '=', anna.id).execute();
  // Simeon's address bounced: it is suppressed, so his statement is printed, not emailed.
  const simeon = await addContact(church.client, {
    firstName: 'Simeon',
    lastName: 'Elder',
    email: 'simeon@example.org',
  });
  await e2e.app.db
    .insertInto('emailSuppressions')
    .values({ userId: church.user.id, email: 'simeon@example.org', reason: 'hard_bounce' })
    .execute();
  const batch = await church.client.post('/api/giving/batches', { batchDate: today, expectedTotalCents: 7000 });
  await church.client.post(`/api/giving/batches/${batch.body.id}/lines`, {
    contactId: anna.id,
    fundId: general.id,
    amountCents: 5000,
    method: 'check',
    checkNumber: '1042',
  });
  await church.client.post(`/api/giving/batches/${batch.body.id}/lines`, {
    contactId: simeon.id,
    fundId: general.id,
    amountCents: 2000,
    method: 'cash',
  });
  expect((await church.client.post(`/api/giving/batches/${batch.body.id}/commit`)).status).toBe(200);

  const pdfText = async (data: Buffer) => {
    const parser = new PDFParse({ data: new Uint8Array(data) });
    try {
      return (await parser.getText()).text;
    } finally {
      await parser.destroy();
    }
  };

  const shots = (page: Page, name: string, back: number) =>
    shotsAtWidths(page, name, { after: { width: back, height: 900 } });

  it('staff make statements for a range and see the progress, the report and the PDF to print', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/giving/funds' });
    await page.getByRole('tab', { name: 'Statements' }).click();
    await page.getByRole('button', { name: 'Make Statements' }).waitFor();
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To').fill(today);
    await page.getByRole('button', { name: 'Make Statements' }).click();
    // It emails donors: it asks first, with who is emailed, who is printed, which addresses are skipped.
    const ask = page.getByRole('dialog', { name: 'Email statements to 1 donor?' });
    await ask
      .getByText(
        `1 donor will be emailed their statement for ${formatDay(today)} – ${formatDay(today)}, with the PDF attached. ` +
          '2 donors get the printed (combined) PDF instead. 1 address is suppressed and will be skipped (that statement is in the PDF to print).',
      )
      .waitFor();
    await expectAccessible(page);
    await shots(page, 'giving-statements-ask', 1280);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect((await church.client.get('/api/giving/statements')).body).toEqual([]);
    await page.getByRole('button', { name: 'Make Statements' }).click();
    await ask.getByRole('button', { name: 'Make and Email Statements' }).click();
    await page.getByRole('progressbar', { name: 'Statements progress' }).waitFor();
    await page.getByText('Done', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page
      .getByText(
        /3 of 3 statements made · 1 of 1 emailed · 2 to print \(1 with a suppressed address\) · \$95\.00 in all/,
      )
      .waitFor();
    await page.getByRole('heading', { name: 'Donors without an email (1)' }).waitFor();
    await page.getByRole('table', { name: 'Donors without an email' }).getByText('Anna Prophet').waitFor();
    await page.getByRole('heading', { name: 'Donors without a postal address (2)' }).waitFor();
    const download = page.getByRole('link', { name: 'Download statements to print' });
    await download.waitFor();
    const href = (await download.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/giving\/statements\/\d+\/download$/);
    await expectAccessible(page);
    await shots(page, 'giving-statements', 1280);

    // The statement emailed to Lydia, with its PDF.
    const sent = await e2e.app.db
      .selectFrom('outboxMessages')
      .select(['subject', 'attachments'])
      .where('userId', '=', church.user.id)
      .where('toAddress', '=', 'lydia@example.org')
      .where('subject', 'like', 'Your giving statement%')
      .execute();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.attachments[0]).toMatchObject({ contentType: 'application/pdf' });
    // The PDFs' text, read back with a PDF text extractor: the right totals.
    const lydias = await e2e.app.db
      .selectFrom('givingStatements')
      .innerJoin('contacts', 'contacts.id', 'givingStatements.contactId')
      .select('givingStatements.pdf')
      .where('contacts.userId', '=', church.user.id)
      .where('contacts.email', '=', 'lydia@example.org')
      .executeTakeFirstOrThrow();
    const lydiaText = await pdfText(lydias.pdf!);
    expect(lydiaText).toContain('Lydia Purple');
    expect(lydiaText).toMatch(/Total\s+\$25\.00/);
    const printed = await page.request.get(href);
    expect(printed.headers()['content-type']).toBe('application/pdf');
    const printedText = await pdfText(await printed.body());
    expect(printedText).toMatch(/Anna Prophet[\s\S]*Total\s+\$50\.00/);
    expect(printedText).toMatch(/Simeon Elder[\s\S]*Total\s+\$20\.00/);
    expect(printedText).not.toContain('Lydia Purple');
  }, 180_000);

  it('the donor pauses their recurring gift in the portal', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 900 } });
    const member = await context.newPage();
    await member.goto('/c/grace-statements/me');
    await member.getByLabel('Enter your email or mobile number').fill('lydia@example.org');
    await member.getByRole('button', { name: 'Send me a link' }).click();
    await member.getByText('If we know this address, we have sent you a link').waitFor();
    // The worker sends the portal's messages: wait for the link's email, however slow the machine.
    const linkMail = () =>
      e2e.app.db
        .selectFrom('outboxMessages')
        .select('text')
        .where('userId', '=', church.user.id)
        .where('toAddress', '=', 'lydia@example.org')
        .where('text', 'like', '%/me/link/%')
        .orderBy('id', 'desc')
        .executeTakeFirst();
    await expect.poll(linkMail, { timeout: 60_000 }).toBeTruthy();
    const mail = (await linkMail())!;
    const link = /http:\/\/\S+\/c\/grace-statements\/me\/link\/[\w-]+/.exec(mail.text ?? '')![0];
    await member.goto(new URL(link).pathname);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('link', { name: 'My giving' }).click();
    await member.getByRole('heading', { level: 1, name: 'My giving' }).waitFor();
    await member.getByRole('heading', { name: 'Weekly gift of $25.00' }).waitFor();
    await member.getByRole('link', { name: /Giving statement .* \(PDF\)/ }).waitFor();
    // Each gift has its receipt, as a PDF from the statements' writer.
    const receipt = member.getByRole('link', { name: /^Receipt \(PDF\) for / }).first();
    const receiptPdf = await member.request.get((await receipt.getAttribute('href'))!);
    expect(receiptPdf.headers()['content-type']).toBe('application/pdf');
    expect(await pdfText(await receiptPdf.body())).toMatch(/Gift receipt[\s\S]*Total\s+\$25\.00/);
    await expectAccessible(member);
    await shots(member, 'portal-my-giving', 390);

    await member.getByText('Pause until a date', { exact: true }).click();
    const until = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    await member.getByLabel('Pause until', { exact: true }).fill(until);
    await member.getByRole('button', { name: 'Pause', exact: true }).click();
    await member.getByRole('status').getByText('Your recurring gift is saved.').waitFor();
    await member
      .getByText(/Paused/)
      .first()
      .waitFor();
    await expectAccessible(member);
    const recurring = (await church.client.get('/api/giving/recurring')).body as {
      status: string;
      pausedUntil: string;
    }[];
    expect(recurring[0]).toMatchObject({ status: 'paused', pausedUntil: until });
    await context.close();
  }, 180_000);
});
