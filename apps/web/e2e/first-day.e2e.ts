import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  registerViaUi,
  screenshot,
  seeToast,
  startE2E,
  toast,
  uniqueName,
} from './helpers';

// A church's first day: registered through the form, it is welcomed (not welcomed back) and shown
// the getting-started list; two steps done (a contact, its handle) tick; the list is hidden for
// good. Settings sections open by their own addresses.
browserDescribe(describe)('first day', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');

  it('welcomes a new church, ticks the steps it does, hides the list; settings sections by address', async () => {
    const { page } = await e2e.newPage();
    const username = uniqueName('newhope');
    await registerViaUi(page, {
      church: 'New Hope',
      username,
      password: 'correct-horse',
      email: `${username}@example.org`,
    });
    const list = page.getByRole('region', { name: 'Getting started' });
    await list.getByText('0 of 5 done.', { exact: false }).waitFor();
    const step = (title: string) => list.getByRole('listitem').filter({ hasText: title });
    for (const title of [
      'Set up your church profile and handle',
      'Import or add your people',
      'Send email from your own domain',
      'Make your first campaign',
      'Publish your church home',
    ])
      await step(title).getByText('To do', { exact: true }).waitFor();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await expectAccessible(page);
      await screenshot(page, `first-day-dashboard-${width}`);
    }

    // People: the step's link, then the Add Contact sheet.
    await step('Import or add your people').getByRole('link', { name: 'Add people' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await page.getByRole('button', { name: 'Add Contact' }).first().click();
    const sheet = page.getByRole('dialog', { name: 'Add Contact' });
    await sheet.getByLabel('First Name').fill('Martha');
    await sheet.getByLabel('Last Name').fill('Bethany');
    await sheet.getByLabel('Email').fill('martha@example.org');
    await sheet.getByLabel('Phone Number').fill('412 345 678');
    await sheet.getByRole('button', { name: 'Save Contact' }).click();
    await seeToast(page, 'Contact created successfully');

    // The handle: the profile step's link opens Settings → Public profile.
    await page.goto('/');
    await step('Set up your church profile and handle').getByRole('link', { name: 'Set up your profile' }).click();
    await page.waitForURL(/\/settings\/profile$/);
    const handle = page.getByLabel('Handle');
    await expect.poll(() => handle.inputValue()).toBe('new-hope');
    await page.getByRole('button', { name: 'Save public profile' }).click();
    await toast(page, 'Public profile saved').waitFor();

    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Welcome back, New Hope!' }).waitFor();
    await list.getByText('2 of 5 done.', { exact: false }).waitFor();
    await step('Import or add your people').getByText('Done', { exact: true }).waitFor();
    await step('Set up your church profile and handle').getByText('Done', { exact: true }).waitFor();
    await step('Make your first campaign').getByText('To do', { exact: true }).waitFor();
    await list.getByRole('button', { name: 'Hide this list' }).click();
    await toast(page, 'Getting started hidden').waitFor();
    await list.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome back, New Hope!' }).waitFor();
    expect(await page.getByRole('region', { name: 'Getting started' }).count()).toBe(0);

    // Settings: a section opens by its address; /settings opens the first; the old anchors still work.
    await page.goto('/settings/giving');
    await page.getByRole('heading', { level: 2, name: 'Giving' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link', { name: 'Giving' }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'settings-giving-1366');
    await page.goto('/settings');
    await page.waitForURL(/\/settings\/church$/);
    await page.getByRole('heading', { level: 2, name: 'Church details' }).waitFor();
    await page.goto('/settings#texting');
    await page.waitForURL(/\/settings\/texting$/);
    await page.getByRole('heading', { level: 2, name: 'Texting' }).waitFor();
    await nav.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL(/\/settings\/webhooks$/);
    await page.getByRole('heading', { level: 2, name: 'Integrations' }).waitFor();
    for (const width of [1366, 1024, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await expectAccessible(page);
      await screenshot(page, `settings-webhooks-${width}`);
    }
    // On a phone the sections are a Select.
    await page.getByRole('combobox', { name: 'Settings section' }).click();
    await page.getByRole('option', { name: 'API keys' }).click();
    await page.waitForURL(/\/settings\/api$/);
    await page.getByRole('heading', { level: 2, name: 'API keys' }).waitFor();
  });
});
