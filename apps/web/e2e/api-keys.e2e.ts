import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, signIn, screenshot, startE2E, toast } from './helpers';

// Settings → API keys (issue 12 §9): create a key (shown once), use it from a script, revoke it.
browserDescribe(describe)('API keys', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('creates a key shown once, lists it, and revokes it', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByText('Welcome back, Grace Church!').first().waitFor();
    await page.goto('/settings');
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
    await page.getByText('No API keys yet.').waitFor();
    expect((await script.get('/api/contacts')).status).toBe(401);
  });
});
