import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { animationsDone, screenshot, toast } from '../helpers';
import { axe, checkDialog, checkEmptyForm, checkMenu, closeDialog, expectUncovered, expectWholeBadges } from './checks';
import type { Seed } from './seed';

/** One screen, open at one width: what its menus, dialogs and notices are checked for there. */
export interface Visit {
  page: Page;
  width: number;
  seed: Seed;
}

/**
 * At the visit of a main screen (screens.ts), after its width checks: the menus, dialogs and
 * notices of that screen at that width. Dialogs are checked at 1366 px (the same layout as the
 * 1280 px they were checked at before: both are between Mantine's lg and xl breakpoints).
 */
export const AT_SCREEN: Partial<Record<string, (v: Visit) => Promise<void>>> = {
  async dashboard({ page, width }) {
    if (width === 390) {
      // The navigation drawer: axe with it open, beside a backdrop that closes it.
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Contacts' }).waitFor();
      await axe(page);
      await animationsDone(page); // the navbar slides in
      const box = await page.locator('.mantine-AppShell-navbar').boundingBox();
      expect(box!.width).toBeLessThan(390 - 40);
      await screenshot(page, 'width-390-navbar-open');
      await page.mouse.click(385, 400); // on the backdrop, beside the navbar
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      await checkMenu(page, page.getByRole('button', { name: 'Account menu' }), 'Logout', 'a11y-menu-account-390');
    }
    if (width === 1366) {
      await checkMenu(page, page.getByRole('button', { name: 'Account menu' }), 'Logout', 'a11y-menu-account');
    }
  },

  async contacts({ page, width }) {
    if (width !== 1366) return;
    // Add Contact with nothing filled in: the form shows its errors.
    await page.getByRole('button', { name: 'Add Contact' }).first().click();
    let dialog = await checkDialog(page, 'Add Contact');
    await dialog.getByRole('button', { name: 'Save Contact' }).click();
    await dialog.getByText('First name is required').waitFor();
    await axe(page);
    await screenshot(page, 'a11y-contact-form-errors');
    await closeDialog(dialog);

    // Contact details, with the Member, Baptised, Seeker and Staff badges.
    await page.getByRole('button', { name: 'View Martha Bethany' }).click();
    dialog = await checkDialog(page, 'Contact Details');
    await dialog.getByText('Baptised', { exact: true }).waitFor();
    await axe(page);
    for (const tab of await dialog.getByRole('tab').all()) {
      await tab.click();
      await axe(page);
    }
    await closeDialog(dialog);

    await page.getByRole('button', { name: 'Import CSV' }).click();
    dialog = await checkDialog(page, 'Import contacts from CSV');
    await closeDialog(dialog);

    await page.getByRole('button', { name: 'Child Groups' }).click();
    dialog = await checkDialog(page, 'Child Groups');
    await dialog.getByLabel('Group name').fill(' ');
    await dialog.getByRole('button', { name: 'Add Group' }).click();
    await dialog.locator('.mantine-InputWrapper-error').first().waitFor();
    await axe(page);
    await closeDialog(dialog);

    await page.getByRole('tab', { name: 'Contact Lists' }).click();
    await checkEmptyForm(page, { open: 'Create List', dialog: 'Create List', submit: 'Create List' });

    await page.getByRole('button', { name: 'Add Contacts' }).first().click();
    dialog = await checkDialog(page, 'Add Contacts to Youth Parents');
    await closeDialog(dialog);
  },

  async 'sms-campaigns'({ page, width }) {
    if (width === 390) return;
    // The list beside its form: no badge cut.
    await page.getByRole('button', { name: 'New Campaign' }).click();
    await page.getByRole('heading', { name: 'New SMS Campaign' }).waitFor();
    if (width === 1366) await axe(page);
    await page.getByText('Ready to Send').first().waitFor();
    await expectWholeBadges(page, `sms at ${width}`);
    await screenshot(page, `badges-sms-form-${width}`);
  },

  async 'landing-pages'({ page, width }) {
    if (width !== 1366) return;
    await checkMenu(page, page.getByRole('button', { name: 'Actions for Easter Sunday at Grace' }), 'Delete');
    // The header's button (an empty list shows a second one).
    await checkEmptyForm(page, {
      open: 'Create Landing Page',
      dialog: 'Create Landing Page',
      submit: 'Create Landing Page',
    });
  },

  async 'qr-codes'({ page, width }) {
    if (width !== 1366) return;
    await checkMenu(page, page.getByRole('button', { name: 'Actions for Welcome card' }), 'Delete');
    await checkEmptyForm(page, { open: 'Create QR Code', dialog: 'Create QR Code', submit: 'Create QR Code' });
  },

  async 'service-planner'({ page, width }) {
    if (width === 1366) {
      await checkEmptyForm(page, { open: 'New Plan', dialog: 'New Service Plan', submit: 'Create Plan' });
    }
    // A notice covers none of a dialog's own buttons: the planner's Item Types, after adding one.
    await page.getByRole('button', { name: 'Item Types' }).click();
    const types =
      width === 1366 ? await checkDialog(page, 'Item Types') : page.getByRole('dialog', { name: 'Item Types' });
    await types.getByRole('textbox', { name: 'Name' }).fill(`Testimony ${width}`);
    await types.getByRole('button', { name: 'Add Item Type' }).click();
    await toast(page, 'Item type added').waitFor();
    await animationsDone(page);
    await screenshot(page, `notice-item-types-${width}`, { fullPage: false });
    await expectUncovered(types.getByRole('button', { name: 'Close', exact: true }));
    await types.getByRole('button', { name: 'Add Item Type' }).scrollIntoViewIfNeeded();
    await expectUncovered(types.getByRole('button', { name: 'Add Item Type' }));
    await closeDialog(types);
  },

  async songs({ page, width }) {
    if (width !== 1366) return;
    // Song usage with nothing to download: a disabled button that is not read as a link.
    await page.getByRole('button', { name: 'Song usage' }).click();
    const usage = await checkDialog(page, 'Song usage');
    expect(await usage.getByRole('button', { name: 'Download CSV' }).isDisabled()).toBe(true);
    await closeDialog(usage);
  },

  async team({ page, width }) {
    if (width !== 390) return;
    // A notice covers not the planner's Add Position.
    await page.getByLabel('Position name').fill('Vocals');
    await page.getByLabel('Category').fill('Band');
    const add = page.getByRole('button', { name: 'Add Position' });
    await add.click();
    await toast(page, 'Position added').waitFor();
    await add.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await screenshot(page, 'notice-add-position-390', { fullPage: false });
    await expectUncovered(add);
  },

  async 'social-blast'({ page, width }) {
    if (width !== 1366) return;
    await checkEmptyForm(page, {
      open: 'Create New Post',
      dialog: 'Schedule New Social Post',
      submit: 'Schedule Post',
      errors: '.mantine-InputWrapper-error, [role="alert"]',
    });
  },

  async 'admin-templates'({ page, width }) {
    if (width !== 1366) return;
    // The template dialog with its errors, then with the rich-text editor.
    await page.getByRole('button', { name: 'New Template' }).click();
    const dialog = await checkDialog(page, 'New Template');
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.locator('.mantine-InputWrapper-error').first().waitFor();
    await axe(page);
    await screenshot(page, 'a11y-template-errors');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Email' }).click();
    await dialog.getByRole('textbox', { name: 'Email body' }).waitFor();
    await axe(page);
    await closeDialog(dialog);
    await checkMenu(
      page,
      page.getByRole('button', { name: 'Actions for Welcome Sunday' }),
      'Delete',
      'a11y-menu-admin-template',
    );
  },

  async 'admin-users'({ page, width }) {
    // A toast covers neither Stop Impersonating nor a sheet's buttons.
    await page.getByRole('button', { name: 'Impersonate Grace Church' }).click();
    if (width === 1366) await checkDialog(page, 'Impersonate church');
    await page.getByRole('button', { name: 'Start Impersonating' }).click();
    await toast(page, 'Impersonation started').waitFor();
    const stop = page.getByRole('button', { name: 'Stop Impersonating' });
    await expectUncovered(stop);
    await expectUncovered(page.getByRole('button', { name: 'Account menu' }));

    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Edit Mary Magdalene' }).click();
    const sheet = page.getByRole('dialog', { name: 'Edit Contact' });
    await sheet.getByRole('button', { name: 'Update Contact' }).click();
    await toast(page, 'Contact updated successfully').waitFor();
    await animationsDone(page); // the toast slides in
    await screenshot(page, `width-${width}-toast-over-sheet`);
    await expectUncovered(sheet.getByRole('button', { name: 'Close', exact: true }));
    await expectUncovered(sheet.getByRole('button', { name: 'Update Contact' }));
    await sheet.getByRole('button', { name: 'Close', exact: true }).click();
    await stop.click();
    await toast(page, 'Impersonation ended').waitFor();
  },
};
