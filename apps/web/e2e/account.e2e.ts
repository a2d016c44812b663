import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, signIn, screenshot, startE2E, toast } from './helpers';

browserDescribe(describe)('account', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('opens from the header menu; changes the name, the email (with the password) and the password', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(page.url()).toMatch(/\/account$/);

    // The church name alone needs no password.
    await page.getByLabel('Church name').fill('Grace Community Church');
    await page.getByRole('button', { name: 'Save details' }).click();
    await toast(page, 'Your church details are saved.').waitFor();
    await page.getByTestId('sidebar-church-name').getByText('Grace Community Church').waitFor();

    // A new email asks for the current password; a wrong one shows on the field.
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('office@grace.example.org');
    const detailsForm = page.locator('form', { has: page.getByRole('heading', { name: 'Church details' }) });
    const current = detailsForm.getByLabel('Current password');
    await current.fill('not-my-password');
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Current password is incorrect').waitFor();
    await current.fill(church.password);
    await page.getByRole('button', { name: 'Save details' }).click();
    // Saved: the email is the account's again, so the password field goes away.
    await current.waitFor({ state: 'detached' });
    await expect.poll(async () => (await church.client.get('/api/user')).body.email).toBe('office@grace.example.org');

    // Another browser signed in before the change is signed out by it.
    const other = new HttpClient(e2e.app.url);
    await other.post('/api/login', { username: church.user.username, password: church.password });
    expect((await other.get('/api/user')).status).toBe(200);
    // An API key made before the change stops working with it (the box is ticked by default).
    const key = (await church.client.post('/api/api-keys', { name: 'Old script' })).body as { token: string };
    const script = new HttpClient(e2e.app.url, { authorization: `Bearer ${key.token}` });
    expect((await script.get('/api/contacts')).status).toBe(200);

    const passwordForm = page.locator('form', { has: page.getByRole('heading', { name: 'Change password' }) });
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await passwordForm.getByText('Current password is required').waitFor();
    await expectAccessible(page);
    await passwordForm.getByLabel('Current password').fill(church.password);
    await passwordForm.getByLabel('New password', { exact: true }).fill('a-new-secret');
    await passwordForm.getByLabel('Confirm new password').fill('a-new-secret');
    expect(await passwordForm.getByRole('checkbox', { name: 'Also revoke all API keys' }).isChecked()).toBe(true);
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'You are still signed in here; other devices have been signed out.').waitFor();
    await toast(page, '1 API key was revoked.').waitFor();
    expect((await other.get('/api/user')).status).toBe(401);
    expect((await script.get('/api/contacts')).status).toBe(401);
    await screenshot(page, 'account');
    await page.reload();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await context.close();
  });
});
