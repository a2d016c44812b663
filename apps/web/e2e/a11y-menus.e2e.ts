import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  expectUncovered,
  signIn,
  screenshot,
  startE2E,
  toast,
} from './helpers';

const COVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cover.png');

/** Long flows on a shared, busy machine: a generous limit, never a timing assertion. */
const LONG = 180_000;

/** What the screen shows now (a notice stays where it is, as a full-page shot would not keep it). */
async function viewShot(page: Page, name: string) {
  await screenshot(page, name, { fullPage: false });
}

/** Opens the menu behind `button`, checks it with axe (its items found by role), and closes it. */
async function checkMenu(page: Page, button: Locator, item: string, shot?: string) {
  await button.click();
  const menu = page.getByRole('menu');
  await menu.getByRole('menuitem', { name: item }).waitFor();
  await expectAccessible(page);
  if (shot) await screenshot(page, shot);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
}

/** No badge's text is cut (an ellipsis or a clipped label). */
async function expectWholeBadges(page: Page, where: string) {
  const cut = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Badge-root, .mantine-Badge-label'))
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  expect(cut, `${where}: badges cut`).toEqual([]);
}

/** Settings' Save: a notice with a title and a description (the spec's words). */
async function showNotice(page: Page) {
  await page.goto('/settings');
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await toast(page, 'Your campaign footer and times now use these settings.').waitFor();
  await animationsDone(page);
}

browserDescribe(describe)(
  'every menu, popover and notice, and the public pages: axe finds nothing serious',
  async () => {
    const e2e = await startE2E({}, { ownApp: true });
    const admin = await registerChurch(e2e.app.url, 'Lampstand Platform');
    const church = await registerChurch(e2e.app.url, 'Grace Church');
    const c = church.client;
    const list = (await c.post('/api/contact-lists', { name: 'Youth Parents', type: 'both' })).body;
    const contact = (
      await c.post('/api/contacts', {
        firstName: 'Mary',
        lastName: 'Magdalene',
        email: 'mary@example.org',
        phone: '0412 000 002',
      })
    ).body;
    await c.post(`/api/contact-lists/${list.id}/contacts/${contact.id}`);
    await c.post('/api/sms-campaigns', {
      name: 'Youth night reminder',
      content: `Youth night is on tonight at 7, {{firstName}}. ${'Bring a friend and a plate to share. '.repeat(3)}`,
      listIds: [list.id],
      status: 'ready',
    });
    await c.post('/api/sms-campaigns', {
      name: 'Camp forms for the winter youth camp at Lake Macquarie',
      content: `Camp forms are due Sunday. ${'Please bring them to the office. '.repeat(4)}`,
    });
    const page1 = (
      await c.post('/api/landing-pages', {
        name: 'Easter Sunday at Grace',
        slug: 'easter-sunday-grace',
        published: true,
        content: {
          blocks: [
            { id: 'hero', type: 'hero', headline: 'Easter at Grace', subheading: 'All welcome' },
            { id: 'form', type: 'signup', title: 'Register interest', fields: ['phone'] },
          ],
        },
      })
    ).body;
    await fetch(`${e2e.app.url}/p/easter-sunday-grace/signup/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Firefox/131.0' },
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.org', phone: '0499 999 999' }),
    });
    await c.post('/api/qr-codes', { name: 'Welcome card', url: 'https://example.org/welcome' });
    const sunday = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const plan = (await c.post('/api/service-planner/plans', { title: 'Sunday Morning Worship', date: sunday })).body;
    await admin.client.post('/api/admin/marketing-templates', {
      name: 'Welcome Sunday',
      type: 'landing-page',
      category: 'welcome',
      content: { headline: 'Welcome home', subheading: 'Come as you are', keyPoints: ['Friendly people'] },
    });
    const project = (
      await c.post('/api/show-up/projects', {
        title: 'Food bank freezer',
        shortDescription: 'A chest freezer for the food bank.',
        description: 'A chest freezer so the food bank can take frozen donations from the supermarkets nearby.',
        location: 'Springfield, IL',
        targetAmount: 1000,
        category: 'community',
        organizationName: 'Grace Church',
        contactEmail: 'office@grace.example.org',
        startDate: '2026-11-01',
        endDate: '2030-03-01',
      })
    ).body;
    // An unsubscribe link, as a sent campaign's email carries it.
    const unsubscribeToken = 'a'.repeat(64);
    const email = (
      await c.post('/api/email-campaigns', { name: 'Harvest', subject: 'Harvest', content: '<p>Hello friends</p>' })
    ).body;
    await e2e.app.db
      .insertInto('deliveries')
      .values({
        userId: church.user.id,
        contactId: contact.id,
        channel: 'email',
        campaignId: email.id,
        address: 'mary@example.org',
        token: unsubscribeToken,
      })
      .execute();

    async function pageAt(width: number, who: { user: { username: string }; password: string } | null) {
      const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width, height: 800 } });
      const page = await context.newPage();
      if (who) await signIn(page, e2e.app.url, who.user.username, who.password);
      return { page, context };
    }

    it(
      'at 1366 px: every menu, the schedule popover, a notice, the sign-ups badge',
      async () => {
        const { page, context } = await pageAt(1366, church);
        await page.getByRole('heading', { level: 1, name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
        await checkMenu(page, page.getByRole('button', { name: 'Account menu' }), 'Logout', 'a11y-menu-account');

        await page.goto('/landing-pages');
        await page.getByRole('heading', { level: 1, name: 'Landing Pages' }).waitFor();
        await checkMenu(page, page.getByRole('button', { name: 'Actions for Easter Sunday at Grace' }), 'Delete');
        await page.goto(`/landing-pages/${page1.id}`);
        await checkMenu(page, page.getByRole('button', { name: 'Add block' }), 'Sign-up form');
        await page.goto(`/landing-pages/${page1.id}/stats`);
        await page.getByText('Awaiting confirmation').waitFor();
        await expectAccessible(page);

        await page.goto('/qr-codes');
        await checkMenu(page, page.getByRole('button', { name: 'Actions for Welcome card' }), 'Delete');

        await page.goto(`/service-planner/plans/${plan.id}`);
        await page.getByRole('heading', { level: 1, name: /Sunday Morning Worship/ }).waitFor();
        await checkMenu(page, page.getByRole('button', { name: 'Print' }), 'Run sheet');
        await checkMenu(page, page.getByRole('button', { name: 'More' }), 'Delete', 'a11y-menu-plan-more');

        // The email schedule's date and time popover.
        await page.goto(`/email-campaigns/new?listId=${list.id}`);
        await page.getByLabel('Campaign Name').fill('Carols');
        await page.getByLabel('Subject Line').fill('Carols by candlelight');
        await page.getByRole('button', { name: 'Next Step' }).click();
        await page.getByRole('button', { name: 'Next Step' }).click();
        await page.getByRole('radio', { name: 'Schedule for later' }).check();
        await page.getByLabel('Send at').click();
        const picker = page.getByRole('dialog', { name: 'Send at' });
        await picker.getByRole('button', { name: 'Done' }).waitFor();
        await expectAccessible(page);
        await screenshot(page, 'a11y-schedule-popover');
        await page.keyboard.press('Escape');

        // A notice with its description.
        await showNotice(page);
        await expectAccessible(page, { notices: true });
        await viewShot(page, 'a11y-notice-1366');
        await context.close();

        const adminPage = await pageAt(1366, admin);
        await adminPage.page.goto('/admin/templates');
        await checkMenu(
          adminPage.page,
          adminPage.page.getByRole('button', { name: 'Actions for Welcome Sunday' }),
          'Delete',
          'a11y-menu-admin-template',
        );
        await adminPage.context.close();
      },
      LONG,
    );

    it(
      'at 390 px: the navigation drawer, the account menu, a plan menu and its confirm dialog, a notice',
      async () => {
        const { page, context } = await pageAt(390, church);
        await page.getByRole('heading', { level: 1, name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Contacts' }).waitFor();
        await expectAccessible(page);
        await page.getByRole('button', { name: 'Close navigation' }).click();
        await checkMenu(page, page.getByRole('button', { name: 'Account menu' }), 'Logout', 'a11y-menu-account-390');

        await page.goto(`/service-planner/plans/${plan.id}`);
        await page.getByRole('heading', { level: 1, name: /Sunday Morning Worship/ }).waitFor();
        await checkMenu(page, page.getByRole('button', { name: 'More' }), 'Delete', 'a11y-menu-plan-more-390');
        // A confirm dialog from a menu.
        await page.getByRole('button', { name: 'More' }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        const confirm = page.getByRole('dialog');
        await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
        await expectAccessible(page);
        await screenshot(page, 'a11y-confirm-390');
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'detached' });

        await showNotice(page);
        await expectAccessible(page, { notices: true });
        await viewShot(page, 'a11y-notice-390');
        await context.close();
      },
      LONG,
    );

    it(
      'the public pages at 390 px: landing page, donation page and dialog, unsubscribe, links not found',
      async () => {
        // Their desktop widths: landing-pages.e2e.ts and show-up.e2e.ts; these pages' styles do not change with it.
        const { page, context } = await pageAt(390, null);
        const pages: [string, string][] = [
          ['/p/easter-sunday-grace', 'Easter at Grace'],
          [`/p/easter-sunday-grace/confirm/${'b'.repeat(64)}`, 'Link not found'],
          [`/u/${unsubscribeToken}`, 'Unsubscribe'],
          ['/s/nosuchcode', 'Link not found'],
          ['/show-up/donation-success?payment_intent=pi_unknown123&project_id=1', 'Donation details unavailable'],
          [`/show-up/${project.id}`, 'Food bank freezer'],
        ];
        for (const [url, heading] of pages) {
          await page.goto(url);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await expectAccessible(page);
          if (url.startsWith('/u/')) await screenshot(page, 'a11y-unsubscribe-390');
        }
        await page.getByRole('button', { name: 'Donate Now' }).click();
        await page
          .getByRole('dialog', { name: 'Food bank freezer' })
          .getByText('Payments are processed securely')
          .waitFor();
        await expectAccessible(page);
        await context.close();
      },
      LONG,
    );

    it(
      'badges are never cut: the SMS list beside its form at 1024 and 1366 px',
      async () => {
        for (const width of [1024, 1366]) {
          const { page, context } = await pageAt(width, church);
          await page.goto('/sms-campaigns');
          await page.getByRole('heading', { level: 1, name: 'SMS Campaigns' }).waitFor();
          await page.getByRole('button', { name: 'New Campaign' }).click();
          await page.getByRole('heading', { name: 'New SMS Campaign' }).waitFor();
          await page.getByText('Ready to Send').first().waitFor();
          await expectWholeBadges(page, `sms at ${width}`);
          await screenshot(page, `badges-sms-form-${width}`);
          await context.close();
        }
      },
      LONG,
    );

    for (const width of [390, 1024, 1366]) {
      it(
        `at ${width} px a notice covers no primary action: 'Create Project' under 'Image uploaded', a dialog's buttons`,
        async () => {
          const { page, context } = await pageAt(width, church);
          await page.goto('/show-up/new');
          await page.getByRole('heading', { level: 1, name: 'List a Project' }).waitFor();
          const chooser = page.waitForEvent('filechooser');
          await page.getByRole('button', { name: /Cover image/ }).click();
          await (await chooser).setFiles(COVER);
          await toast(page, 'Image uploaded').waitFor();
          const create = page.getByRole('button', { name: 'Create Project' });
          await create.scrollIntoViewIfNeeded();
          await animationsDone(page);
          await viewShot(page, `notice-show-up-new-${width}`);
          await expectUncovered(create);
          if (width === 390) {
            // The navigation drawer's Logout, with the notice still showing.
            await toast(page, 'Image uploaded').waitFor();
            await page.getByRole('button', { name: 'Open navigation' }).click();
            await animationsDone(page);
            await viewShot(page, 'notice-drawer-390');
            await expectUncovered(
              page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Logout' }),
            );
            await page.getByRole('button', { name: 'Close navigation' }).click();
          }
          // A dialog's own buttons: the planner's Item Types, after adding one.
          await page.goto('/service-planner');
          await page.getByRole('button', { name: 'Item Types' }).click();
          const types = page.getByRole('dialog', { name: 'Item Types' });
          await types.getByRole('textbox', { name: 'Name' }).fill(`Testimony ${width}`);
          await types.getByRole('button', { name: 'Add Item Type' }).click();
          await toast(page, 'Item type added').waitFor();
          await animationsDone(page);
          await viewShot(page, `notice-item-types-${width}`);
          await expectUncovered(types.getByRole('button', { name: 'Close', exact: true }));
          await types.getByRole('button', { name: 'Add Item Type' }).scrollIntoViewIfNeeded();
          await expectUncovered(types.getByRole('button', { name: 'Add Item Type' }));
          await types.getByRole('button', { name: 'Close', exact: true }).click();
          if (width === 390) {
            // The planner's Add Position.
            await page.getByRole('tab', { name: 'Team Members' }).click();
            await page.getByLabel('Position name').fill('Vocals');
            await page.getByLabel('Category').fill('Band');
            const add = page.getByRole('button', { name: 'Add Position' });
            await add.click();
            await toast(page, 'Position added').waitFor();
            await add.scrollIntoViewIfNeeded();
            await animationsDone(page);
            await viewShot(page, 'notice-add-position-390');
            await expectUncovered(add);
          }
          await context.close();
        },
        LONG,
      );
    }
  },
);
