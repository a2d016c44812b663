import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, signIn, screenshot, startE2E } from './helpers';

/** The dialog is open, named, and its close button has a name; then axe finds nothing serious. */
async function checkDialog(page: Page, name: string | RegExp): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Close', exact: true }).waitFor();
  await expectAccessible(page);
  return dialog;
}

async function closeDialog(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * Opens a form's dialog with the `open` button and sends the form empty with `submit`: the dialog
 * shows its errors (`errors`: where they show), and axe finds nothing serious; then closes it.
 */
async function checkEmptyForm(
  page: Page,
  form: { open: string; dialog: string; submit: string; errors?: string },
): Promise<void> {
  await page.getByRole('button', { name: form.open }).first().click();
  const dialog = await checkDialog(page, form.dialog);
  await dialog.getByRole('button', { name: form.submit }).click();
  await dialog
    .locator(form.errors ?? '.mantine-InputWrapper-error')
    .first()
    .waitFor();
  await expectAccessible(page);
  await closeDialog(dialog);
}

/** Long flows on a shared, busy machine: a generous limit, never a timing assertion. */
const LONG = 180_000;

browserDescribe(describe)('accessible with dialogs open and errors showing (axe: 0 serious or critical)', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  const admin = await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const c = church.client;
  const list = (await c.post('/api/contact-lists', { name: 'Newsletter', type: 'both' })).body;
  const martha = (
    await c.post('/api/contacts', {
      firstName: 'Martha',
      lastName: 'Bethany',
      email: 'martha@example.org',
      phone: '0412 000 001',
      metadata: { isChurchMember: true, isBaptised: true, isSeeker: true, isServiceStaff: true },
    })
  ).body;
  await c.post('/api/contacts', {
    firstName: 'Lazarus',
    lastName: 'Bethany',
    email: 'lazarus@example.org',
    phone: '0412 000 002',
  });
  await c.post(`/api/contact-lists/${list.id}/contacts/${martha.id}`);
  await c.post('/api/child-groups', { name: 'Little Lambs', ageMin: 2, ageMax: 4 });

  async function signedIn(who: { user: { username: string }; password: string }, heading: string | RegExp) {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, who.user.username, who.password);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    return { page, context };
  }

  it(
    'contacts: contact form with its errors, contact details, CSV import, Child Groups, list dialogs',
    async () => {
      const { page, context } = await signedIn(church, /^Welcome( back)?, Grace Church!$/);
      await page.goto('/contacts');
      await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();

      // Add Contact with nothing filled in: the form shows its errors.
      await page.getByRole('button', { name: 'Add Contact' }).first().click();
      let dialog = await checkDialog(page, 'Add Contact');
      await dialog.getByRole('button', { name: 'Save Contact' }).click();
      await dialog.getByText('First name is required').waitFor();
      await expectAccessible(page);
      await screenshot(page, 'a11y-contact-form-errors');
      await closeDialog(dialog);

      // Contact details, with the Member, Baptised, Seeker and Staff badges.
      await page.getByRole('button', { name: 'View Martha Bethany' }).click();
      dialog = await checkDialog(page, 'Contact Details');
      await dialog.getByText('Baptised', { exact: true }).waitFor();
      await expectAccessible(page);
      for (const tab of await dialog.getByRole('tab').all()) {
        await tab.click();
        await expectAccessible(page);
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
      await expectAccessible(page);
      await closeDialog(dialog);

      await page.getByRole('tab', { name: 'Contact Lists' }).click();
      await checkEmptyForm(page, { open: 'Create List', dialog: 'Create List', submit: 'Create List' });

      await page.getByRole('button', { name: 'Add Contacts' }).first().click();
      dialog = await checkDialog(page, 'Add Contacts to Newsletter');
      await closeDialog(dialog);

      // While a list loads: the spinners are named statuses (not a name on a bare element).
      await page.route('**/trpc/**', async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue().catch(() => undefined);
      });
      await page.goto('/conversations/keywords');
      await page.getByRole('status').first().waitFor();
      await expectAccessible(page);
      await page.unroute('**/trpc/**');
      await context.close();
    },
    LONG,
  );

  it(
    'admin: the template dialog with its errors and the rich-text editor; impersonation dialog',
    async () => {
      const { page, context } = await signedIn(admin, /^Welcome( back)?, Lampstand Platform!$/);
      await page.goto('/admin/templates');
      await page.getByRole('heading', { level: 1, name: 'Marketing Templates & Packages' }).waitFor();
      await page.getByRole('button', { name: 'New Template' }).click();
      const dialog = await checkDialog(page, 'New Template');
      await dialog.getByRole('button', { name: 'Create Template' }).click();
      await dialog.locator('.mantine-InputWrapper-error').first().waitFor();
      await expectAccessible(page);
      await screenshot(page, 'a11y-template-errors');
      // A type with the rich-text editor.
      await dialog.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'Email' }).click();
      await dialog.getByRole('textbox', { name: 'Email body' }).waitFor();
      await expectAccessible(page);
      await closeDialog(dialog);

      await page.goto('/admin/users');
      await page.getByRole('button', { name: 'Impersonate Grace Church' }).click();
      await checkDialog(page, 'Impersonate church');
      await context.close();
    },
    LONG,
  );

  it(
    'email wizard: basics, the rich-text editor; a disabled Edit Campaign',
    async () => {
      const sent = (
        await c.post('/api/email-campaigns', {
          name: 'Sent already',
          subject: 'S',
          content: '<p>Hello there friends</p>',
          listIds: [list.id],
        })
      ).body;
      await e2e.app.db.updateTable('emailCampaigns').set({ status: 'sent' }).where('id', '=', sent.id).execute();
      const { page, context } = await signedIn(church, /^Welcome( back)?, Grace Church!$/);
      await page.goto('/email-campaigns/new');
      await page.getByRole('heading', { level: 1, name: 'New Email Campaign' }).waitFor();
      await page.getByLabel('Campaign Name').fill('Easter');
      await page.getByLabel('Campaign Name').fill('');
      await page.getByLabel('Subject Line').focus();
      await expectAccessible(page);
      await page.getByLabel('Campaign Name').fill('Easter');
      await page.getByLabel('Subject Line').fill('Join us');
      await page.getByRole('combobox', { name: 'Contact List' }).click();
      await page.getByRole('option', { name: /Newsletter/ }).click();
      await page.getByRole('button', { name: 'Next Step' }).click();
      await page.getByRole('textbox', { name: 'Email content' }).waitFor();
      await expectAccessible(page);

      await page.goto(`/email-campaigns/${sent.id}`);
      await page.getByRole('heading', { level: 1, name: 'Sent already' }).waitFor();
      await expectAccessible(page);
      await context.close();
    },
    LONG,
  );

  it(
    'SMS form; landing page and QR code dialogs with their errors',
    async () => {
      const { page, context } = await signedIn(church, /^Welcome( back)?, Grace Church!$/);

      await page.goto('/sms-campaigns');
      await page.getByRole('button', { name: 'New Campaign' }).click();
      await page.getByRole('heading', { name: 'New SMS Campaign' }).waitFor();
      await expectAccessible(page);

      await page.goto('/landing-pages');
      // The header's button (an empty list shows a second one).
      await checkEmptyForm(page, {
        open: 'Create Landing Page',
        dialog: 'Create Landing Page',
        submit: 'Create Landing Page',
      });

      await page.goto('/qr-codes');
      await checkEmptyForm(page, { open: 'Create QR Code', dialog: 'Create QR Code', submit: 'Create QR Code' });
      await context.close();
    },
    LONG,
  );

  it(
    'social post and service plan dialogs with their errors',
    async () => {
      const { page, context } = await signedIn(church, /^Welcome( back)?, Grace Church!$/);
      await page.goto('/social-blast');
      await checkEmptyForm(page, {
        open: 'Create New Post',
        dialog: 'Schedule New Social Post',
        submit: 'Schedule Post',
        errors: '.mantine-InputWrapper-error, [role="alert"]',
      });

      await page.goto('/service-planner');
      await checkEmptyForm(page, { open: 'New Plan', dialog: 'New Service Plan', submit: 'Create Plan' });
      await page.getByRole('button', { name: 'Item Types' }).click();
      await closeDialog(await checkDialog(page, 'Item Types'));
      // Song usage with nothing to download: a disabled button that is not read as a link.
      await page.goto('/service-planner?tab=songs');
      await page.getByRole('button', { name: 'Song usage' }).click();
      const usage = await checkDialog(page, 'Song usage');
      expect(await usage.getByRole('button', { name: 'Download CSV' }).isDisabled()).toBe(true);
      await closeDialog(usage);
      await context.close();
    },
    LONG,
  );

  it(
    'Show Up project form with its errors and a date field with its clear button',
    async () => {
      const { page, context } = await signedIn(church, /^Welcome( back)?, Grace Church!$/);

      // Show Up: the form's errors, and a date field with its clear button.
      await page.goto('/show-up/new');
      await page.getByRole('heading', { level: 1, name: 'List a Project' }).waitFor();
      await page.getByRole('button', { name: 'Create Project' }).click();
      await page.locator('.mantine-InputWrapper-error').first().waitFor();
      await page.getByLabel('End date').fill('Dec 24, 2030');
      await page.getByLabel('End date').press('Enter');
      await page.getByRole('button', { name: 'Clear' }).first().waitFor();
      await expectAccessible(page); // with the calendar open
      await page.getByLabel('End date').press('Escape');
      await expectAccessible(page);
      await screenshot(page, 'a11y-show-up-form-errors');
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      await context.close();
    },
    LONG,
  );
});
