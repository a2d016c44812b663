import { describe, expect, it } from 'vitest';
import {
  browserDescribe,
  expectAccessible,
  loginViaUi,
  registerViaUi,
  screenshot,
  startE2E,
  uniqueName,
  toast,
} from './helpers';

browserDescribe(describe)('sign-in and registration', async () => {
  const e2e = await startE2E();

  it('register → dashboard → logout → login → dashboard', async () => {
    const { page, context } = await e2e.newPage();
    const username = uniqueName('grace');
    await page.goto('/');
    await expect.poll(() => page.url()).toMatch(/\/auth$/); // visitors are sent to sign in
    await page.getByText('Church marketing simplified').waitFor();
    await page.getByText('Contact management with tags and lists').waitFor();
    await screenshot(page, 'auth-login');
    await expectAccessible(page);

    await registerViaUi(page, {
      church: 'Grace Community Church',
      username,
      password: 'correct-horse',
      email: `${username}@example.org`,
    });
    await toast(page, 'Registration successful').waitFor();
    await page.getByText("Let's grow your congregation with powerful marketing tools.").waitFor();
    await expect(page.getByTestId('sidebar-church-name').textContent()).resolves.toBe('Grace Community Church');
    // The dashboard from real data: a new church has zeros and the empty texts.
    for (const title of ['Total Contacts', 'Email Opens', 'SMS Delivery', 'Page Visits'])
      await page.getByText(title, { exact: true }).waitFor();
    await page.getByText('No campaigns found').waitFor();
    await page.getByText('No upcoming scheduled campaigns').waitFor();
    // Nothing earlier to compare with: no invented trend.
    expect(await page.getByText('no earlier data').count()).toBe(4);
    expect(await page.getByText(/[+-]\d+(\.\d)?%/).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add Contacts' }).getAttribute('href')).toBe('/contacts/new');
    await screenshot(page, 'dashboard-shell');
    await expectAccessible(page);

    // A signed-in user opening /auth goes to the dashboard.
    await page.goto('/auth');
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Community Church!$/ }).waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await toast(page, 'You have been successfully logged out.').waitFor();
    await expect.poll(() => page.url()).toMatch(/\/auth$/);

    await loginViaUi(page, username, 'correct-horse');
    await toast(page, 'Login successful').waitFor();
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Community Church!$/ }).waitFor();
    await context.close();
  });

  it("asks for the church's time zone at registration, starting from the browser's", async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    const username = uniqueName('hope');
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    expect(await zone.inputValue()).toMatch(/^America\/Chicago \(C[SD]T\)$/);
    await zone.fill('Sydney');
    await page.getByRole('option', { name: /^Australia\/Sydney/ }).click();
    await page.getByLabel('Church Name').fill('Hope Chapel');
    await page.getByLabel('Email').fill(`${username}@example.org`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse');
    await page.getByLabel('Confirm Password').fill('correct-horse');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /^Welcome( back)?, Hope Chapel!$/ }).waitFor();
    // The setting's link ('/settings#time-zone') brings the time zone into view, focused.
    await page.goto('/settings#time-zone');
    const setting = page.getByRole('combobox', { name: 'Time zone' });
    await expect.poll(() => setting.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await setting.inputValue()).toMatch(/^Australia\/Sydney/);
    await context.close();
  });

  it('shows the spec validation messages', async () => {
    const { page, context } = await e2e.newPage();
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Password', { exact: true }).fill('secret12');
    await page.getByLabel('Confirm Password').fill('secret13');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await screenshot(page, 'auth-register-errors');
    await context.close();
  });

  it('a wrong password shows the Login failed toast', async () => {
    const { page, context } = await e2e.newPage();
    await loginViaUi(page, 'nobody-at-all', 'wrong-password');
    await toast(page, 'Login failed').waitFor();
    await toast(page, '401: Invalid username or password').waitFor();
    await screenshot(page, 'auth-login-failed');
    expect(page.url()).toMatch(/\/auth$/);
    await context.close();
  });

  it('an unknown path shows the 404 screen', async () => {
    const { page, context } = await e2e.newPage();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    await context.close();
  });
});
