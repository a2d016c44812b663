import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, openInApp, screenshot, signIn, startE2E, toast } from './helpers';

browserDescribe(describe)('contacts: duplicates, unsaved work, merge', async () => {
  const e2e = await startE2E();
  // Long flows on a busy machine: more time per test (no timing is asserted).
  const LONG = 180_000;
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const ruth = (
    await church.client.post('/api/contacts', {
      firstName: 'Ruth',
      lastName: 'Moab',
      email: 'ruth@example.org',
      phone: '0412 345 678',
      metadata: { countryCode: '+61' },
    })
  ).body as { id: number };

  it(
    'warns about a duplicate email with a link to the existing contact, and saves only when asked to',
    async () => {
      const { page, context } = await e2e.newPage();
      await signIn(page, e2e.app.url, church.user.username, church.password);
      await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('cell', { name: 'Ruth Moab', exact: true }).waitFor();

      // A contact with no lists (and none exist) says only that.
      await page.getByRole('button', { name: 'View Ruth Moab' }).click();
      const details = page.getByRole('dialog', { name: 'Contact Details' });
      await details.getByText('This contact is not in any lists yet').waitFor();
      expect(await details.getByText('This contact is already in all available lists.').count()).toBe(0);
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Add Contact' }).first().click();
      const sheet = page.getByRole('dialog', { name: 'Add Contact' });
      await sheet.getByLabel('First Name').fill('Ruthie');
      await sheet.getByLabel('Last Name').fill('Moab');
      // Saved at once after typing Ruth's number another way (before the warning can show): the
      // save itself finds her and asks.
      await sheet.getByLabel('Email').fill('ruthie@example.org');
      await sheet.getByLabel('Phone Number').fill('+61412345678');
      await sheet.getByRole('button', { name: 'Save Contact' }).click();
      const confirm = page.getByRole('dialog', { name: 'Save a possible duplicate?' });
      await confirm.getByText('A contact with this phone number already exists: Ruth Moab.').waitFor();
      await confirm.getByRole('button', { name: 'Go back' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect((await church.client.get('/api/contacts')).body).toHaveLength(1);

      await sheet.getByLabel('Email').fill('RUTH@example.org');
      await sheet.getByLabel('Phone Number').fill('0499 000 111');
      await sheet.getByText('A contact with this email already exists').waitFor();
      const link = sheet.getByRole('link', { name: 'open Ruth Moab' });
      expect(await link.getAttribute('href')).toBe(`/contacts/detail/${ruth.id}`);
      await screenshot(page, 'contact-form-duplicate-warning');
      await expectAccessible(page);

      await sheet.getByRole('button', { name: 'Save Contact' }).click();
      await confirm.getByText('A contact with this email already exists: Ruth Moab.').waitFor();
      await expectAccessible(page);
      await confirm.getByRole('button', { name: 'Go back' }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect((await church.client.get('/api/contacts')).body).toHaveLength(1);

      await sheet.getByRole('button', { name: 'Save Contact' }).click();
      await confirm.getByRole('button', { name: 'Save anyway' }).click();
      await toast(page, 'Contact created successfully').waitFor();
      await expect.poll(async () => (await church.client.get('/api/contacts')).body.length).toBe(2);
      await context.close();
    },
    LONG,
  );

  it(
    'asks before closing the contact sheet with typed work, and Keep editing keeps it',
    async () => {
      const { page, context } = await e2e.newPage();
      await signIn(page, e2e.app.url, church.user.username, church.password);
      await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Contacts' }).click();
      await page.getByRole('button', { name: 'Add Contact' }).first().click();
      const sheet = page.getByRole('dialog', { name: 'Add Contact' });
      await sheet.getByLabel('First Name').fill('Naomi');
      await page.keyboard.press('Escape');
      const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await ask.waitFor();
      await expectAccessible(page);
      await screenshot(page, 'contact-form-discard');
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      expect(await sheet.getByLabel('First Name').inputValue()).toBe('Naomi');

      await sheet.getByRole('button', { name: 'Close' }).click();
      await ask.getByRole('button', { name: 'Discard' }).click();
      await sheet.waitFor({ state: 'hidden' });

      // An untouched sheet closes at once.
      await page.getByRole('button', { name: 'Add Contact' }).first().click();
      await sheet.getByLabel('First Name').waitFor();
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      expect(await ask.count()).toBe(0);
      await context.close();
    },
    LONG,
  );

  it(
    'merges two contacts from the details page: lists, children and gifts move, the other is gone',
    async () => {
      const other = (await church.client.get('/api/contacts/search?search=ruthie')).body.items[0] as { id: number };
      const list = (await church.client.post('/api/contact-lists', { name: 'Book Club', type: 'both' })).body;
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${other.id}`);
      await church.client.post(`/api/contacts/${other.id}/children`, { name: 'Obed', dateOfBirth: '2020-01-15' });
      // A check the other gave, entered in a Sunday's batch: it follows them into the kept contact.
      const fund = ((await church.client.get('/api/funds')).body as { id: number }[])[0]!;
      const batch = (
        await church.client.post('/api/giving/batches', {
          batchDate: '2026-11-22',
          description: 'Sunday offering',
          expectedTotalCents: 4321,
        })
      ).body as { id: number };
      await church.client.post(`/api/giving/batches/${batch.id}/lines`, {
        contactId: other.id,
        fundId: fund.id,
        amountCents: 4321,
        method: 'check',
        checkNumber: '77',
      });
      expect((await church.client.post(`/api/giving/batches/${batch.id}/commit`)).status).toBe(200);

      const { page, context } = await e2e.newPage();
      await signIn(page, e2e.app.url, church.user.username, church.password);
      await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
      await openInApp(page, `/contacts/detail/${ruth.id}`);
      await page.getByRole('heading', { name: 'Ruth Moab' }).waitFor();
      await page.getByRole('button', { name: 'Merge with…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Merge with another contact' });
      await dialog.getByRole('button', { name: 'Merge contacts' }).waitFor();
      expect(await dialog.getByRole('button', { name: 'Merge contacts' }).isDisabled()).toBe(true);
      await dialog.getByRole('combobox', { name: 'Contact to merge' }).click();
      await page.getByRole('option', { name: /Ruthie Moab/ }).click();
      await dialog.getByText(/will be deleted after everything of theirs moves to Ruth Moab/).waitFor();
      await expectAccessible(page);
      await screenshot(page, 'contact-merge-dialog');
      await dialog.getByRole('button', { name: 'Merge contacts' }).click();
      await toast(page, 'Ruthie Moab was merged into Ruth Moab.').waitFor();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('tab', { name: 'List Memberships' }).click();
      await page.getByText('Book Club').waitFor();
      await page.getByRole('tab', { name: 'Children' }).click();
      await page.getByText('Obed', { exact: true }).waitFor();
      // The age comes from the date of birth.
      await page.getByText(/Born Jan 15, 2020 · Age \d+/).waitFor();
      await page.getByRole('tab', { name: 'Giving' }).click();
      await page.getByRole('tabpanel', { name: 'Giving' }).getByText('$43.21').first().waitFor();

      await page.goto(`/contacts/detail/${other.id}`);
      await page.getByText('Contact not found').waitFor();
      expect(await page.getByText('Error loading contact').count()).toBe(0);
      await context.close();
    },
    LONG,
  );

  it(
    'Cancel in the email wizard asks first, and a typed draft is offered again after a reload',
    async () => {
      const { page, context } = await e2e.newPage();
      await signIn(page, e2e.app.url, church.user.username, church.password);
      await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
      await openInApp(page, '/email-campaigns/new');
      await page.getByLabel('Campaign Name').fill('Harvest supper');
      // Autosaved a second after the last change.
      await expect
        .poll(() =>
          page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('lampstand:draft:')).length),
        )
        .toBe(1);
      await page.reload();
      await page.getByText('Unsaved work found').waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Restore' }).click();
      expect(await page.getByLabel('Campaign Name').inputValue()).toBe('Harvest supper');

      await page.getByRole('button', { name: 'Cancel' }).click();
      const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await ask.waitFor({ state: 'hidden' });
      expect(page.url()).toMatch(/\/email-campaigns\/new$/);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await ask.getByRole('button', { name: 'Discard' }).click();
      await page.waitForURL(/\/email-campaigns$/);
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('lampstand:draft:')).length),
      ).toBe(0);
      await context.close();
    },
    LONG,
  );
});
