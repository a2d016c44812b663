import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addContact, registerChurch } from '@lampstand/server/testing';
import { moveIn } from '@lampstand/server/testing/move-in';
import { browserDescribe, expectAccessible, screenshot, shotsAtWidths, signIn, startE2E } from './helpers';

// Settings → Move in with a Lampstand export: Grace's "Export everything" ZIP (made through the
// API) is uploaded on a newly registered church, whose secretary reads the rows per table and
// what does not move, confirms, and finds Grace's people on Contacts.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-e2e-move-church-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

browserDescribe(describe)('Move in a Lampstand export', async () => {
  const e2e = await startE2E({ dataDir });
  await registerChurch(e2e.app.url, 'Platform');
  const grace = await registerChurch(e2e.app.url, 'Grace Church');
  const fresh = await registerChurch(e2e.app.url, 'Grace Church (new home)');
  const { exportZip } = moveIn(e2e.app.url);

  it('previews the export per table, moves it in on Confirm, and shows its people on Contacts', async () => {
    for (const [firstName, lastName] of [
      ['Ann', 'Moved'],
      ['Abe', 'Moved'],
      ['Zoë', 'Travelling'],
    ])
      await addContact(grace.client, { firstName, lastName });
    const zip = await exportZip(grace.client);

    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, fresh.user.username, fresh.password, { at: '/settings/move-in' });
    await page.getByRole('heading', { name: 'Move in' }).waitFor();
    await page
      .locator('#move-in input[type=file]')
      .setInputFiles({ name: 'grace-church-export.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByText('Recognised: Lampstand export').waitFor();
    await page.getByRole('heading', { name: /^Grace Church, exported / }).waitFor();
    const rows = page.getByRole('table', { name: 'Rows per table' });
    await rows.getByRole('row', { name: /Every contact \(person\) with their details and consent\. 3$/ }).waitFor();
    // The export's own row stays behind, said in words.
    const notMoved = page.getByRole('alert').filter({ hasText: 'What does not move' });
    await notMoved.getByText('Earlier exports are files of the old church.').waitFor();
    expect((await fresh.client.get('/api/contacts')).body).toEqual([]);
    await expectAccessible(page);
    await shotsAtWidths(page, 'move-in-church-preview');

    await page.getByRole('button', { name: 'Confirm import' }).click();
    await page.getByText(/^Everything moved in: [\d,]+ rows in \d+ tables, 0 files copied\.$/).waitFor({
      timeout: 60_000,
    });
    await expectAccessible(page);
    await screenshot(page, 'move-in-church-done-1366');

    await page.goto('/contacts');
    for (const name of ['Ann', 'Abe', 'Zoë']) await page.getByText(name, { exact: false }).first().waitFor();
    const names = ((await fresh.client.get('/api/contacts')).body as { firstName: string }[])
      .map((c) => c.firstName)
      .sort();
    expect(names).toEqual(['Abe', 'Ann', 'Zoë']);
  });
});
