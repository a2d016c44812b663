import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import {
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  shotsAtWidths,
  signIn,
  startE2E,
  toast,
} from './helpers';

// Settings → API keys: create a key (shown once), use it from a script, revoke it.
browserDescribe(describe)('API keys', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('creates a key shown once, lists it, and revokes it', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page
      .getByText(/^Welcome( back)?, Grace Church!$/)
      .first()
      .waitFor();
    await openInApp(page, '/settings/api');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByRole('textbox', { name: 'Key name' }).fill('Website sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    await toast(page, 'API key created').waitFor();
    const token = await page.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(token).toMatch(/^lsk_/);
    expect(await page.getByRole('textbox', { name: 'Key name' }).inputValue()).toBe('');
    await page.getByRole('cell', { name: 'Website sync', exact: true }).waitFor();
    await page.getByText(`Created by ${church.user.username}`).waitFor();
    await page.getByRole('cell', { name: 'Read and write', exact: true }).waitFor();

    // A read-only key reads and is refused every write.
    await page.getByRole('textbox', { name: 'Key name' }).fill('Reporting');
    await page.getByRole('combobox', { name: 'Access' }).click();
    await page.getByRole('option', { name: 'Read only' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('cell', { name: 'Read only', exact: true }).waitFor();
    const readToken = await page.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(readToken).not.toBe(token);
    const reader = new HttpClient(e2e.app.url, { authorization: `Bearer ${readToken}` });
    expect((await reader.get('/api/contacts')).status).toBe(200);
    const write = await reader.post('/api/contact-lists', { name: 'Nope', type: 'both' });
    expect([write.status, write.body.message]).toEqual([403, 'This API key can only read']);
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'API keys' }).scrollIntoViewIfNeeded();
      await screenshot(page, `api-keys-${width}`);
    }

    const script = new HttpClient(e2e.app.url, { authorization: `Bearer ${token}` });
    expect((await script.get('/api/contacts')).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke Website sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await toast(page, 'API key revoked').waitFor();
    await page.getByRole('cell', { name: 'Website sync', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Revoke Reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect((await script.get('/api/contacts')).status).toBe(401);
  });

  // How long the church's activity is kept.
  it("Settings → 'Keep activity for' saves the church's retention", async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/settings' });
    const keep = page.getByRole('combobox', { name: 'Keep activity for' });
    expect(await keep.inputValue()).toBe('2 years');
    await keep.click();
    await page.getByRole('option', { name: '6 months' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // Keeping activity for less time deletes the older activity: asked first, saved only when confirmed.
    const ask = page.getByRole('dialog', { name: 'Keep activity for less time?' });
    await ask.getByText('Activity older than 180 days is deleted tonight').waitFor();
    await expectAccessible(page);
    expect((await church.client.get('/api/settings')).body.eventRetentionDays).toBe(730);
    await ask.getByRole('button', { name: 'Save and delete older activity' }).click();
    await toast(page, 'Settings saved').waitFor();
    expect((await church.client.get('/api/settings')).body.eventRetentionDays).toBe(180);
    await page.reload();
    await page.getByRole('combobox', { name: 'Keep activity for' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Keep activity for' }).inputValue()).toBe('6 months');
    await expectAccessible(page);
    await shotsAtWidths(page, 'settings-retention');
  });
  // Settings → Export everything: the ZIP is made in the background; the list follows it until it can be downloaded.
  it('exports everything and offers the download once it is ready', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/settings/export' });
    await page.getByRole('heading', { name: 'Export everything' }).waitFor();
    await page.getByText('No exports yet.').waitFor();
    await page.getByRole('button', { name: 'Export everything' }).click();
    await toast(page, 'Export started').waitFor();
    // The list asks again every 2 seconds while the export is being made.
    await page.getByRole('link', { name: /Download ZIP/ }).waitFor({ timeout: 60_000 });
    await page.getByText('Ready', { exact: true }).first().waitFor();
    const href = await page.getByRole('link', { name: /Download ZIP/ }).getAttribute('href');
    const zip = await church.client.get(href!);
    expect([zip.status, zip.headers.get('content-type')]).toEqual([200, 'application/zip']);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Export everything' }).scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await screenshot(page, `settings-export-${width}`);
    }
  });
});
