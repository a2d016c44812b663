import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ownerDb } from '@lampstand/db';
import { registerChurch } from '@lampstand/server/testing';
import { animationsDone, browserDescribe, expectAccessible, screenshot, signIn, startE2E } from './helpers';

/** Long flows on a shared, busy machine: a generous limit, never a timing assertion. */
const LONG = 180_000;

/** Every area of the sidebar, by group, and the heading its page opens with. */
const AREAS: [group: string, link: string, heading: string | RegExp][] = [
  ['Home', 'Dashboard', /^Welcome( back)?, Grace Church!$/],
  ['Outreach', 'Email Campaigns', 'Email Campaigns'],
  ['Outreach', 'SMS Campaigns', 'SMS Campaigns'],
  ['Outreach', 'Landing Pages', 'Landing Pages'],
  ['Outreach', 'QR Codes', 'QR Codes'],
  ['Outreach', 'News Builder', 'News Builder'],
  ['Outreach', 'Scheduling', 'Scheduling'],
  ['Outreach', 'Templates', 'Templates'],
  ['Outreach', 'Show Up', 'Show Up'],
  ['Outreach', 'Social Blast', 'Social Blast'],
  ['Outreach', 'Journeys', 'Journeys'],
  ['Outreach', 'Events', 'Events'],
  ['People', 'Contacts', 'Contacts'],
  ['People', 'Profile updates', 'Profile updates'],
  ['People', 'Conversations', 'Conversations'],
  ['People', 'Tasks', 'Tasks'],
  ['Worship & Serving', 'Service Plans', 'Service Planner'],
  ['Worship & Serving', 'Serving Matrix', 'Service Planner'],
  ['Worship & Serving', 'Song Library', 'Service Planner'],
  ['Worship & Serving', 'Team Members', 'Service Planner'],
  ['Giving', 'Giving', 'Giving'],
  ['Settings', 'Settings', 'Settings'],
  ['Settings', 'Account', 'Account'],
];

browserDescribe(describe)('finding things: the sidebar, the search, the bell and help', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const c = church.client;
  const created = await c.post('/api/contacts', {
    firstName: 'Mary',
    lastName: 'Magdalene',
    email: 'mary@example.org',
    phone: '0412 000 002',
  });
  expect(created.status, created.text).toBe(201);
  const mary = created.body as { id: number };
  const sunday = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const plan = (await c.post('/api/service-planner/plans', { title: 'Sunday Morning Worship', date: sunday })).body as {
    id: number;
  };
  // Something waiting: a task due yesterday and a profile update to approve.
  const db = ownerDb(e2e.app.db);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await db
    .insertInto('tasks')
    .values({ userId: church.user.id, title: 'Call Mary about the rosters', dueOn: yesterday, contactId: mary.id })
    .execute();
  await db
    .insertInto('profileUpdateProposals')
    .values({
      userId: church.user.id,
      contactId: mary.id,
      status: 'pending',
      changes: JSON.stringify({ phone: { from: null, to: '0412 000 111' } }),
    })
    .execute();

  async function pageAt(width: number) {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { level: 1, name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    return { page, context };
  }

  // A plain box until its dropdown has loaded (a moment after the page), then a combobox.
  const searchBox = (page: Page) =>
    page.getByRole('combobox', { name: 'Search' }).or(page.getByRole('textbox', { name: 'Search', exact: true }));

  /** Types into the header's search and waits for the result `option` to show. */
  async function searchFor(page: Page, text: string, option: string | RegExp) {
    await searchBox(page).fill(text);
    await page.getByRole('option', { name: option }).waitFor();
  }

  /** Opens the bell, checks it with axe, shoots it, marks all read (when asked) and closes it. */
  async function checkBell(page: Page, shot: string, markRead: boolean) {
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: /Call Mary about the rosters/ }).waitFor();
    await expectAccessible(page);
    await screenshot(page, shot);
    if (markRead) {
      await expect.poll(() => menu.getByRole('menuitem', { name: /, unread$/ }).count()).toBe(2);
      await menu.getByRole('menuitem', { name: 'Mark all as read' }).click();
      await expect.poll(() => menu.getByRole('menuitem', { name: /, unread$/ }).count(), { timeout: 15_000 }).toBe(0);
    }
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  }

  /** Opens Help, checks the guide's title, axe, a screenshot; closes it. */
  async function checkHelp(page: Page, title: string, shot: string) {
    await page.getByRole('button', { name: 'Help' }).click();
    const drawer = page.getByRole('dialog', { name: title });
    await drawer.getByRole('heading', { name: 'Common tasks' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, shot);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  }

  it(
    'at 1366 px: every area from the sidebar, badges, a person and a plan found by keyboard, the bell read, help',
    async () => {
      const { page, context } = await pageAt(1366);
      const people = page.getByRole('navigation', { name: 'People' });
      await people.getByRole('link', { name: /^Tasks\s*,\s*1 due$/ }).waitFor();
      await people.getByRole('link', { name: /^Profile updates\s*,\s*1 waiting$/ }).waitFor();
      expect(await people.getByRole('link', { name: 'Conversations', exact: true }).count()).toBe(1);
      await screenshot(page, 'find-sidebar-1366');

      for (const [group, link, heading] of AREAS) {
        await page.getByRole('navigation', { name: group }).getByRole('link', { name: link }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        const current = page.getByRole('navigation', { name: group }).getByRole('link', { name: link });
        // The planner's areas share a heading: wait for the link to light up.
        await expect
          .poll(() => current.getAttribute('data-active'), { message: `${link} is the current page` })
          .not.toBeNull();
      }
      // The planner's tabs follow the sidebar's links.
      await page
        .getByRole('navigation', { name: 'Worship & Serving' })
        .getByRole('link', { name: 'Song Library' })
        .click();
      expect(await page.getByRole('tab', { name: 'Song Library' }).getAttribute('aria-selected')).toBe('true');

      // '/' focuses the search (not while typing in a field); arrows and Enter open a person.
      await page.getByRole('heading', { level: 1 }).click();
      await page.keyboard.press('/');
      await expect.poll(() => searchBox(page).evaluate((e) => e === document.activeElement)).toBe(true);
      await page.keyboard.type('magda');
      await page.getByRole('option', { name: /Mary Magdalene/ }).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'find-search-1366');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Contact Details' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/contacts/detail/${mary.id}`);

      await page.keyboard.press('/');
      await page.keyboard.type('sunday morn');
      await page.getByRole('option', { name: /Sunday Morning Worship/ }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: /Sunday Morning Worship/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/service-planner/plans/${plan.id}`);

      // Nothing found says so; Escape closes the list.
      await searchBox(page).fill('zzyzx');
      await page.getByText('No results for “zzyzx”').waitFor();
      await page.keyboard.press('Escape');
      await page.getByText('No results for “zzyzx”').waitFor({ state: 'hidden' });
      await page.keyboard.press('Escape');

      await checkBell(page, 'find-bell-1366', true);
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      await checkHelp(page, 'Help: A service plan', 'find-help-1366');
      await context.close();
    },
    LONG,
  );

  for (const width of [390, 1024]) {
    it(
      `at ${width} px: the sidebar's groups, the search, the bell and help, each checked with axe`,
      async () => {
        const { page, context } = await pageAt(width);
        if (width === 390) {
          await page.getByRole('button', { name: 'Open navigation' }).click();
          await page
            .getByRole('navigation', { name: 'People' })
            .getByRole('link', { name: /^Tasks\s*,\s*1 due$/ })
            .waitFor();
          await animationsDone(page);
          await expectAccessible(page);
          await screenshot(page, 'find-sidebar-390');
          await page
            .getByRole('navigation', { name: 'Worship & Serving' })
            .getByRole('link', { name: 'Service Plans' })
            .click();
          await page.getByRole('heading', { level: 1, name: 'Service Planner' }).waitFor();
          // On a phone the search is a button that opens the box over the header.
          await page.getByRole('button', { name: 'Search' }).click();
        }
        await searchFor(page, 'mary', /Mary Magdalene/);
        await expectAccessible(page);
        await screenshot(page, `find-search-${width}`);
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Contact Details' }).waitFor();
        await checkBell(page, `find-bell-${width}`, false);
        await checkHelp(page, 'Help: Contacts', `find-help-${width}`);
        await context.close();
      },
      LONG,
    );
  }
});
