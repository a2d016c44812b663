import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, loginViaUi, openInApp, screenshot, startE2E, toast } from './helpers';

// The Account page shows whether the account email is verified; without SMTP the
// verification email is kept in the outbox and its link opens from the page; the campaign screens
// explain the daily limit until then.
browserDescribe(describe)('account email verification', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('shows Not verified with the limit, the outbox link verifies, then Verified and no limit', async () => {
    const { page, context } = await e2e.newPage();
    await loginViaUi(page, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();

    // The campaign screen says the limit and why, before anyone clicks Send.
    await openInApp(page, '/email-campaigns');
    const notice = page.getByRole('alert').filter({ hasText: 'Campaigns reach at most 100 people a day' });
    await notice.waitFor();
    await notice
      .getByText('Until your account email is verified, your church can send to at most 100 people a day.')
      .waitFor();
    await notice.getByText('Email and SMS together: 0 sent in the last 24 hours, 100 left.').waitFor();
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await notice.getByRole('button', { name: 'Send verification email' }).waitFor();
      await screenshot(page, `daily-limit-email-campaigns-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await notice.getByRole('link', { name: 'Open the Account page' }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    const section = page.getByRole('region', { name: 'Email verification' });
    await section.getByText('Not verified').waitFor();
    await section.getByText(`Until ${church.user.email} is verified`, { exact: false }).waitFor();
    await section.getByRole('button', { name: 'Send verification email' }).click();
    await toast(
      page,
      'Email sending is not set up on this server yet: the email is in your outbox, shown on the Account page.',
    ).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'account-not-verified');

    // The outbox keeps the email; its link (on PUBLIC_URL) opens the verification page.
    const link = section.getByRole('link', { name: 'Open the verification link' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/\/verify-email\/[\w-]{40,}$/);
    await page.goto(new URL(href!).pathname);
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await page.getByRole('button', { name: 'Verify my email' }).click();
    await page.getByRole('heading', { name: 'Your email is verified' }).waitFor();
    await page.getByRole('link', { name: 'Open your account' }).click();

    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    const verified = page.getByRole('region', { name: 'Email verification' });
    await verified.getByText('Verified', { exact: true }).waitFor();
    await verified.getByText('Your campaigns have no daily limit.', { exact: false }).waitFor();
    await expect.poll(async () => (await church.client.get('/api/account/status')).body.emailVerified).toBe(true);

    // No limit, no notice on the campaign screen.
    await page.goto('/email-campaigns');
    await page.getByRole('heading', { name: 'Email Campaigns' }).waitFor();
    expect(await page.getByText('Campaigns reach at most 100 people a day').count()).toBe(0);
    await context.close();
  });
});
