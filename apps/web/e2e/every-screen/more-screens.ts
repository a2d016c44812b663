import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsDone, openInApp, screenshot, toast } from '../helpers';
import { axe, checkMenu, expectUncovered, showNotice, viewShot } from './checks';
import type { Visit } from './visits';
import type { Seed } from './seed';

const COVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'cover.png');

/** A screen with no width checks of its own, opened at the widths where its menus or notices are checked. */
export interface MoreScreen {
  name: string;
  widths: readonly number[];
  run(v: Visit): Promise<void>;
}

export const MORE_SCREENS: MoreScreen[] = [
  {
    name: 'a service plan: its menus, and a confirm dialog from a menu',
    widths: [390, 1366],
    async run({ page, width, seed }) {
      await openInApp(page, `/service-planner/plans/${seed.ids.plan}`);
      await page.getByRole('heading', { level: 1, name: /Sunday Morning Worship/ }).waitFor();
      if (width === 1366) {
        await checkMenu(page, page.getByRole('button', { name: 'Print' }), 'Run sheet');
        await checkMenu(page, page.getByRole('button', { name: 'More' }), 'Delete', 'a11y-menu-plan-more');
        return;
      }
      await checkMenu(page, page.getByRole('button', { name: 'More' }), 'Delete', 'a11y-menu-plan-more-390');
      await page.getByRole('button', { name: 'More' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog');
      await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
      await axe(page);
      await screenshot(page, 'a11y-confirm-390');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
    },
  },
  {
    name: "the email wizard: its step list on a phone; basics, the rich-text editor and the schedule's popover",
    widths: [390, 1366],
    async run({ page, width }) {
      await openInApp(page, '/email-campaigns/new');
      await page.getByRole('heading', { level: 1, name: 'New Email Campaign' }).waitFor();
      if (width === 390) {
        // No stray separator lines in the step list.
        const visibleSeparators = await page
          .locator('.mantine-Stepper-separator')
          .evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== 'none').length);
        expect(visibleSeparators).toBe(0);
        await screenshot(page, 'width-390-email-wizard');
        return;
      }
      await page.getByLabel('Campaign Name').fill('Easter');
      await page.getByLabel('Campaign Name').fill('');
      await page.getByLabel('Subject Line').focus();
      await axe(page);
      await page.getByLabel('Campaign Name').fill('Easter');
      await page.getByLabel('Subject Line').fill('Join us');
      await page.getByRole('combobox', { name: 'Contact List' }).click();
      await page.getByRole('option', { name: /Youth Parents/ }).click();
      await page.getByRole('button', { name: 'Next Step' }).click();
      await page.getByRole('textbox', { name: 'Email content' }).waitFor();
      await axe(page);
      // The schedule's date and time popover.
      await page.getByRole('button', { name: 'Next Step' }).click();
      await page.getByRole('radio', { name: 'Schedule for later' }).check();
      await page.getByLabel('Send at').click();
      const picker = page.getByRole('dialog', { name: 'Send at' });
      await picker.getByRole('button', { name: 'Done' }).waitFor();
      await axe(page);
      await screenshot(page, 'a11y-schedule-popover');
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'a sent email campaign (its Edit Campaign disabled)',
    widths: [1366],
    async run({ page, seed }) {
      await openInApp(page, `/email-campaigns/${seed.ids.sent}`);
      await page.getByRole('heading', { level: 1, name: 'Sent already' }).waitFor();
      await axe(page);
    },
  },
  {
    name: "a landing page's editor and its stats",
    widths: [1366],
    async run({ page, seed }) {
      await openInApp(page, `/landing-pages/${seed.ids.landingPage}`);
      await checkMenu(page, page.getByRole('button', { name: 'Add block' }), 'Sign-up form');
      await openInApp(page, `/landing-pages/${seed.ids.landingPage}/stats`);
      await page.getByText('Awaiting confirmation').waitFor();
      await axe(page);
    },
  },
  {
    name: 'settings: a notice with its description',
    widths: [390, 1366],
    async run({ page, width }) {
      await openInApp(page, '/settings');
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await showNotice(page);
      await axe(page, { notices: true });
      await viewShot(page, `a11y-notice-${width}`);
    },
  },
  {
    name: "a new Show Up project: a notice covers not 'Create Project'; the form's errors and a date field",
    widths: [390, 1024, 1366],
    async run({ page, width }) {
      await openInApp(page, '/show-up/new');
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
      if (width !== 1366) return;
      // The form's errors, and a date field with its clear button.
      await create.click();
      await page.locator('.mantine-InputWrapper-error').first().waitFor();
      await page.getByLabel('End date').fill('Dec 24, 2030');
      await page.getByLabel('End date').press('Enter');
      await page.getByRole('button', { name: 'Clear' }).first().waitFor();
      await axe(page); // with the calendar open
      await page.getByLabel('End date').press('Escape');
      await axe(page);
      await screenshot(page, 'a11y-show-up-form-errors');
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    },
  },
  {
    name: 'while a list loads: the spinners are named statuses (not a name on a bare element)',
    widths: [1366],
    async run({ page }) {
      // The app's requests are held until axe has looked, then let through: no waiting on a clock.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/trpc/**', async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      });
      await page.goto('/conversations/keywords');
      await page.getByRole('status').first().waitFor();
      await axe(page);
      release();
      await page.unroute('**/trpc/**');
    },
  },
];

/** The public pages on a phone, signed out: each with axe, then the donation dialog. */
export async function checkPublicPages(page: Page, seed: Seed) {
  // Their desktop widths: landing-pages.e2e.ts and show-up.e2e.ts; these pages' styles do not change with it.
  const pages: [string, string][] = [
    ['/p/easter-sunday-grace', 'Easter at Grace'],
    [`/p/easter-sunday-grace/confirm/${'b'.repeat(64)}`, 'Link not found'],
    [`/u/${seed.unsubscribeToken}`, 'Unsubscribe'],
    ['/s/nosuchcode', 'Link not found'],
    ['/show-up/donation-success?payment_intent=pi_unknown123&project_id=1', 'Donation details unavailable'],
    [`/show-up/${seed.ids.project}`, 'Food bank freezer'],
  ];
  for (const [url, heading] of pages) {
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await axe(page);
    if (url.startsWith('/u/')) await screenshot(page, 'a11y-unsubscribe-390');
  }
  await page.getByRole('button', { name: 'Donate Now' }).click();
  await page.getByRole('dialog', { name: 'Food bank freezer' }).getByText('Payments are processed securely').waitFor();
  await axe(page);
}
