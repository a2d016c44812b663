import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, shotsAtWidths, signIn, startE2E } from './helpers';

// Recurring givers after a move: a secretary uploads the Planning Center recurring donations export
// on Settings → Move in, reads the dry run, confirms, and follows the givers under Re-enrolment; a
// giver opens their personal link and finds the giving page filled in as they gave before, sets it
// up (demo payments save the card), and the staff page counts them re-enrolled.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../server/test/fixtures/move-in');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');

interface Renewal {
  donorName: string;
  startDate: string;
  link: string | null;
}

browserDescribe(describe)('Re-enrolment', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  expect((await church.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
  expect((await church.client.put('/api/settings/public-profile', { handle: 'grace-renew' })).status).toBe(200);

  /** The staff page at each width, checked with axe. */
  async function staffScreens(page: Page, name: string) {
    await expectAccessible(page);
    await shotsAtWidths(page, name);
  }

  it('imports the recurring givers, prefills a giver’s page from their link, and counts them re-enrolled', async () => {
    // The people are moved in first (Move in's own test clicks through that file).
    const people = await church.client.post('/trpc/imports.upload', {
      fileName: 'planning-center-people.csv',
      csv: fixture('planning-center-people.csv'),
    });
    expect(people.status, people.text).toBe(200);
    const peopleId = people.body.result.data.id as number;
    expect((await church.client.post(`/api/imports/${peopleId}/commit`, { policy: {} })).status).toBe(200);
    await expect
      .poll(async () => (await church.client.get(`/api/imports/${peopleId}`)).body.status, { timeout: 60_000 })
      .toBe('completed');

    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/settings/move-in' });
    await page.getByRole('heading', { name: 'Move in' }).waitFor();
    await page.locator('#move-in input[type=file]').setInputFiles(path.join(fixtures, 'planning-center-recurring.csv'));
    await page.getByText('Recognised: Planning Center Giving recurring donations export').waitFor();
    await page.getByRole('heading', { name: 'Recurring givers' }).waitFor();
    // José $1,050 a month; Zoë $25 every two weeks ($54.17); Ada $120 a year ($10); one stopped gift.
    await page
      .getByText(
        '3 recurring gifts (2 givers found among your contacts, 1 not found; 1 stopped gift left out): $1,114.17 per month.',
        { exact: false },
      )
      .waitFor();
    const funds = page.getByRole('table', { name: 'Per fund' });
    await funds.getByRole('row', { name: /General Fund New fund \$1,054\.17/ }).waitFor();
    await funds.getByRole('row', { name: /Missions New fund \$50\.00/ }).waitFor();
    await staffScreens(page, 're-enrolment-preview');
    await page.getByRole('button', { name: 'Confirm import' }).click();
    await page
      .getByText('3 recurring givers added, 2 of them asked back by the journey; funds made:', { exact: false })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'Follow them under Re-enrolment' }).click();

    await page.getByRole('heading', { name: 'Re-enrolment' }).waitFor();
    const totals = async () => (await page.getByTestId('re-enrolment-totals').innerText()).replace(/\s+/g, ' ').trim();
    expect(await totals()).toBe('Re-enrolled 0 of 3 Per month recovered $0.00 of $1,114.17');
    await page.getByRole('link', { name: 'Bring recurring givers back' }).waitFor();
    const givers = page.getByRole('table', { name: 'Recurring givers' });
    await givers
      .getByRole('row', { name: /José Muñoz Monthly from .* \$1,050\.00 Not yet Copy link for José Muñoz/ })
      .waitFor();
    await givers.getByRole('row', { name: /Zoë Muñoz Every two weeks from .* \$54\.17 Not yet/ }).waitFor();
    await givers.getByRole('row', { name: /Ada Lovelace Yearly from .* \$10\.00 Not yet/ }).waitFor();
    await staffScreens(page, 're-enrolment-before');
    // On a phone each giver is a card: name, amount, status and the link's button, nothing cut.
    await page.setViewportSize({ width: 390, height: 900 });
    const cards = page.getByRole('list', { name: 'Recurring givers' });
    await cards
      .getByRole('listitem')
      .filter({ hasText: 'José Muñoz' })
      .getByRole('button', { name: 'Copy link for José Muñoz' })
      .waitFor();
    await expectAccessible(page);
    await page.setViewportSize({ width: 1366, height: 900 });

    // José opens his personal link (on this test's server: the link names the configured address).
    const renewals = (await church.client.get('/api/imports/recurring')).body.renewals as Renewal[];
    const jose = renewals.find((r) => r.donorName === 'José Muñoz')!;
    const link = new URL(jose.link!);
    expect(link.pathname).toBe('/c/grace-renew/give');
    const giverContext = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
    const giver = await giverContext.newPage();
    await giver.goto(`${link.pathname}${link.search}`);
    await giver.getByRole('heading', { level: 1, name: 'Give to Grace Church' }).waitFor();
    await giver
      .getByRole('status')
      .getByText(
        'Welcome back, José Muñoz: your recurring gift is filled in as you gave it before, starting after your last gift. Check it, then give.',
      )
      .waitFor();
    const selected = (label: string) =>
      giver.getByLabel(label, { exact: true }).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
    expect(await selected('Fund 1')).toBe('General Fund');
    expect(await giver.getByLabel('Amount 1 (USD)').inputValue()).toBe('1000.00');
    expect(await selected('Fund 2')).toBe('Missions');
    expect(await giver.getByLabel('Amount 2 (USD)').inputValue()).toBe('50.00');
    expect(await giver.getByLabel('Frequency').inputValue()).toBe('monthly');
    // His last gift was Nov 1 monthly: the next is Dec 1, or the first of a later month once that has passed.
    const start = await giver.getByLabel('Start date').inputValue();
    const today = new Date().toISOString().slice(0, 10);
    if (jose.startDate >= today) expect(start).toBe(jose.startDate);
    else expect(start).toMatch(/^\d{4}-\d{2}-01$/);
    expect(await giver.getByLabel('Name', { exact: true }).inputValue()).toBe('José Muñoz');
    expect(await giver.getByLabel('Email', { exact: true }).inputValue()).toBe('jose.munoz@example.org');
    await giver.getByText('Total: $1,050.00 monthly').waitFor();
    await expectAccessible(giver);
    await shotsAtWidths(giver, 're-enrolment-give-page');
    await giver.getByRole('button', { name: 'Give', exact: true }).click();
    await giver.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await giverContext.close();

    // The card is saved: José is re-enrolled, and his $1,050.00 a month is recovered.
    await page.reload();
    await givers.getByRole('row', { name: /José Muñoz Monthly from .* \$1,050\.00 Re-enrolled/ }).waitFor();
    expect(await totals()).toBe('Re-enrolled 1 of 3 Per month recovered $1,050.00 of $1,114.17');
    // His link is used: nothing left to copy.
    expect(await page.getByRole('button', { name: 'Copy link for José Muñoz' }).count()).toBe(0);
    await staffScreens(page, 're-enrolment-after');
  }, 180_000);
});
