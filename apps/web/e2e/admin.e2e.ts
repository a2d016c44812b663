import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  signIn,
  startE2E,
  toast,
} from './helpers';

browserDescribe(describe)('administration and impersonation', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  const admin = await registerChurch(e2e.app.url, 'Lampstand Platform'); // first account: admin
  const grace = await registerChurch(e2e.app.url, 'Grace Church');
  await registerChurch(e2e.app.url, 'Hope Chapel');

  it('a church user opening /admin/users sees Access Denied and no Admin menu', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, grace.user.username, grace.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    // By its address, as a church user can only reach it (no menu leads there).
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText("You don't have permission to access this page.").waitFor();
    await page.getByRole('link', { name: 'Return to Dashboard' }).click();
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await context.close();
  });

  it('an admin impersonates a church from /admin/users, sees the banner, and stops', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, admin.user.username, admin.password, { ownSession: true });
    await page.getByRole('heading', { name: /^Welcome( back)?, Lampstand Platform!$/ }).waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'User Management' }).click();
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByText('3 of 3 row(s)').waitFor();
    await page.getByText('Page 1 of 1').waitFor();
    expect(await page.getByRole('button', { name: 'Add User' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Bulk Actions' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Impersonate Lampstand Platform' }).isDisabled()).toBe(true);
    await expectAccessible(page);

    await page.getByLabel('Search by church name').fill('zzz');
    await page.getByText('No results found.').waitFor();
    await page.getByLabel('Search by church name').fill('grace');
    await page.getByText('1 of 3 row(s)').waitFor();

    await page.getByRole('button', { name: 'Impersonate Grace Church' }).click();
    await page
      .getByText(
        'You are about to impersonate Grace Church. While impersonating, you will see the application as they do, and any actions you take will appear to come from their account.',
      )
      .waitFor();
    await animationsDone(page); // let the dialog finish opening
    await screenshot(page, 'admin-users-confirm');
    await page.getByRole('button', { name: 'Start Impersonating' }).click();

    await page.getByText('You are currently impersonating Grace Church').waitFor();
    await toast(page, 'Impersonation started').waitFor();
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    await screenshot(page, 'impersonation-banner');

    await page.getByRole('button', { name: 'Stop Impersonating' }).click();
    await toast(page, 'Impersonation ended').waitFor();
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    expect(await page.getByText('You are currently impersonating').count()).toBe(0);
    await context.close();
  });

  it("an admin lifts a church's daily limit and returns it to the default", async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, admin.user.username, admin.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Lampstand Platform!$/ }).waitFor();
    await openInApp(page, '/admin/users');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Grace Church' });
    await row.getByText('100 a day (email not verified)').waitFor();
    await row.getByRole('button', { name: 'Daily limit for Grace Church' }).click();
    const dialog = page.getByRole('dialog', { name: 'Daily limit for Grace Church' });
    await dialog.getByRole('radio', { name: 'A limit of my own' }).check();
    await dialog.getByRole('textbox', { name: 'People a day' }).fill('2500');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save limit' }).click();
    await toast(page, 'Grace Church: 2,500 a day (set by an administrator)').waitFor();
    await row.getByText('2,500 a day (set by an administrator)').waitFor();
    await expect
      .poll(async () => (await grace.client.get('/api/account/status')).body)
      .toMatchObject({ limit: 2500, source: 'admin' });

    await row.getByRole('button', { name: 'Daily limit for Grace Church' }).click();
    await dialog.getByRole('radio', { name: /^Default/ }).check();
    await dialog.getByRole('button', { name: 'Save limit' }).click();
    await row.getByText('100 a day (email not verified)').waitFor();
    await context.close();
  });
});
