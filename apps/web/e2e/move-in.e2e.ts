import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, shotsAtWidths, signIn, startE2E } from './helpers';

// Settings → Move in: a secretary uploads a Planning Center people export, reads the dry run and
// confirms; then the donations export, whose totals per fund and year equal the ledger's after.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../server/test/fixtures/move-in');

browserDescribe(describe)('Move in', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('imports Planning Center people and donations after a dry run', async () => {
    expect((await church.client.put('/api/settings', { defaultCountryCode: '+1' })).status).toBe(200);
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/settings/move-in' });
    await page.getByRole('heading', { name: 'Move in' }).waitFor();
    await page.locator('#move-in input[type=file]').setInputFiles(path.join(fixtures, 'planning-center-people.csv'));
    await page.getByText('Recognised: Planning Center People export').waitFor();
    await page.getByText('2 rows cannot be read').waitFor();
    await expectAccessible(page);
    await shotsAtWidths(page, 'move-in-people-preview');
    // A file chosen but not imported is not dropped without asking.
    await page.getByRole('button', { name: 'Choose another file' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard the chosen file?' });
    await discard.getByText('planning-center-people.csv is not imported yet. Discard it?').waitFor();
    await expectAccessible(page);
    await discard.getByRole('button', { name: 'Cancel' }).click();
    await discard.waitFor({ state: 'detached' });
    await page.getByText('Recognised: Planning Center People export').waitFor();
    expect((await church.client.get('/api/contacts')).body).toEqual([]);
    await page.getByRole('button', { name: 'Confirm import' }).click();
    await page.getByText('5 people added, 0 updated, 0 unchanged.').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Import another file' }).click();

    await page.locator('#move-in input[type=file]').setInputFiles(path.join(fixtures, 'planning-center-donations.csv'));
    await page.getByText('Recognised: Planning Center Giving donations export').waitFor();
    const totals = page.getByRole('table', { name: 'Totals per fund and year' });
    await totals.getByRole('row', { name: /General Fund 2024 2 \$1,350\.00/ }).waitFor();
    await expectAccessible(page);
    await shotsAtWidths(page, 'move-in-gifts-preview');
    await page.getByRole('button', { name: 'Confirm import' }).click();
    const report = page.getByRole('table', { name: 'File totals and ledger totals' });
    await report.getByRole('row', { name: /General Fund 2024 \$1,350\.00 \$1,350\.00/ }).waitFor({ timeout: 60_000 });
    // The list of recent imports keeps up: the donations import is imported there too.
    await page
      .getByRole('region', { name: 'Import planning-center-donations.csv' })
      .getByText('Imported', { exact: true })
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'move-in-report-1366');

    // The people are there, and José's gifts are his: $1,250.00 and $50.00.
    const jose = ((await church.client.get('/api/contacts')).body as { id: number; firstName: string }[]).find(
      (c) => c.firstName === 'José',
    )!;
    await page.goto('/contacts');
    await page.getByText('Zoë').first().waitFor();
    await page.goto(`/contacts/detail/${jose.id}`);
    await page.getByRole('tab', { name: 'Giving' }).click();
    await page.getByText('General Fund $1,250.00').waitFor();
    await page.getByText('Missions $50.00').waitFor();
    const gifts = await church.client.get(`/api/giving/gifts?contactId=${jose.id}`);
    const sum = (gifts.body.gifts as { amountCents: number }[]).reduce((s, g) => s + g.amountCents, 0);
    expect(sum).toBe(130000);

    // A spreadsheet's columns saved as a mapping, then offered as the source.
    await page.goto('/settings/move-in');
    await page.getByRole('button', { name: 'Save a column mapping for another file' }).click();
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByText('Name the preset').waitFor();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Mapping name' }).fill('Old spreadsheet');
    await page.getByRole('textbox', { name: 'First name' }).fill('Given');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Family name');
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await expect
      .poll(async () => page.getByRole('combobox', { name: 'Source' }).inputValue(), { timeout: 20_000 })
      .toBe('Saved mapping: Old spreadsheet');
    await screenshot(page, 'move-in-mapping-saved-1366');

    // Undo the donations from the list of recent imports: asked first, then they leave the ledger.
    const donations = page.getByRole('region', { name: 'Import planning-center-donations.csv' });
    await donations.getByRole('button', { name: 'Undo import' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo this import?' });
    await undo.getByText(/Its 6 gifts leave the ledger/).waitFor();
    await expectAccessible(page);
    await shotsAtWidths(page, 'move-in-undo-confirm');
    await undo.getByRole('button', { name: 'Undo import' }).click();
    await page.getByRole('alert').filter({ hasText: 'Import undone' }).waitFor();
    await donations.getByText('Undone', { exact: true }).waitFor();
    expect(await donations.getByRole('button', { name: 'Undo import' }).count()).toBe(0);
    const left = await church.client.get(`/api/giving/gifts?contactId=${jose.id}`);
    expect(left.body.gifts).toEqual([]);
    // The people import can still be undone (its 7 days last).
    await page
      .getByRole('region', { name: 'Import planning-center-people.csv' })
      .getByRole('button', { name: 'Undo import' })
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'move-in-history-1366');

    // Undo the people import after José has joined a group: he has a history since, so he stays.
    const choir = await church.client.post('/api/groups', {
      name: 'Choir',
      frequency: 'by_arrangement',
      leaderContactIds: [jose.id],
    });
    expect(choir.status, JSON.stringify(choir.body)).toBe(201);
    const people = page.getByRole('region', { name: 'Import planning-center-people.csv' });
    await people.getByRole('button', { name: 'Undo import' }).click();
    const undoPeople = page.getByRole('dialog', { name: 'Undo this import?' });
    await undoPeople
      .getByText(/people it added are removed \(but for anyone who has given, checked in, joined a group/)
      .waitFor();
    await expectAccessible(page);
    await shotsAtWidths(page, 'move-in-undo-people-confirm');
    await undoPeople.getByRole('button', { name: 'Undo import' }).click();
    // The notice says who stayed and why.
    const undone = page.getByRole('alert').filter({ hasText: 'Import undone' });
    await undone
      .getByText(/1 kept: they have given, checked in, joined a group, registered or texted since\./)
      .waitFor();
    await shotsAtWidths(page, 'move-in-undone-people');
    await people.getByText('Undone', { exact: true }).waitFor();
    const left2 = (await church.client.get('/api/contacts')).body as { id: number }[];
    expect(left2.map((c) => c.id)).toEqual([jose.id]);
    await expectAccessible(page);
  });
});
