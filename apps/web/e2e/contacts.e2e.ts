import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, signIn, screenshot, seeToast, startE2E, toast } from './helpers';

async function fillContact(page: Page, o: { first: string; last: string; email: string; phone: string }) {
  const sheet = page.getByRole('dialog', { name: 'Add Contact' });
  await sheet.getByLabel('First Name').fill(o.first);
  await sheet.getByLabel('Last Name').fill(o.last);
  await sheet.getByLabel('Email').fill(o.email);
  await sheet.getByLabel('Phone Number').fill(o.phone);
  return sheet;
}

browserDescribe(describe)('contacts', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  // A group for the child, made over the API as an integrator would.
  await church.client.post('/api/child-groups', { name: 'Little Lambs', ageMin: 2, ageMax: 4 });

  it('creates a contact through all four tabs, views it, links family (inverse label), adds a child with a group, lists, search, import', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByText('No contacts yet').waitFor();
    await expectAccessible(page);

    // Create: Basic Info → Church Info → Address → Dependants.
    await page.getByRole('button', { name: 'Add Contact' }).first().click();
    const sheet = await fillContact(page, {
      first: 'Martha',
      last: 'Bethany',
      email: 'martha@example.org',
      phone: '412 345 678',
    });
    await sheet.getByLabel('Date of Birth').fill('31/12/1980');
    await sheet.getByRole('button', { name: 'Next' }).click();
    await sheet.getByLabel('Church member').check();
    await sheet.getByLabel('Service staff').check();
    await sheet.getByLabel('WWCC Number').fill('WWC0001');
    await sheet.getByLabel('Notes').fill('Hospitality team leader');
    await sheet.getByRole('button', { name: 'Next' }).click();
    await sheet.getByLabel('City').fill('Bethany');
    await sheet.getByRole('button', { name: 'Next' }).click();
    await sheet.getByText('Save the contact first').waitFor();
    await sheet.getByText('You need to save the contact before you can add family members and children.').waitFor();
    await screenshot(page, 'contact-form-dependants');
    await sheet.getByRole('button', { name: 'Save Contact' }).click();
    await seeToast(page, 'Contact created successfully');

    // A second contact, and a validation message on the way.
    await page.getByRole('button', { name: 'Add Contact' }).first().click();
    const second = await fillContact(page, {
      first: 'Lazarus',
      last: 'Bethany',
      email: 'not-an-email',
      phone: '412 000 111',
    });
    await second.getByRole('button', { name: 'Save Contact' }).click();
    await second.getByText('Please enter a valid email address').waitFor();
    await second.getByLabel('Email').fill('lazarus@example.org');
    await second.getByRole('button', { name: 'Save Contact' }).click();
    await seeToast(page, 'Contact created successfully');
    await page.getByRole('cell', { name: 'Lazarus Bethany', exact: true }).waitFor();
    // Phones read in the church's country's format, never '+61 412 000 111'.
    await page.getByRole('cell', { name: '0412 000 111', exact: true }).waitFor();
    expect(await page.getByText('+61 ').count()).toBe(0);
    await screenshot(page, 'contacts-list');

    // View Martha; Staff Info tab shows for service staff.
    await page.getByRole('button', { name: 'View Martha Bethany' }).click();
    const details = page.getByRole('dialog', { name: 'Contact Details' });
    await details.getByRole('heading', { name: 'Martha Bethany' }).waitFor();
    await details.getByText('0412 345 678', { exact: true }).waitFor();
    await details.getByRole('tab', { name: 'Staff Info' }).click();
    await details.getByText('WWC0001').waitFor();
    await details.getByRole('tab', { name: 'Notes' }).click();
    await details.getByText('Hospitality team leader').waitFor();

    // Family: Lazarus is Martha's sibling... and a parent link to see the inverse label.
    await details.getByRole('tab', { name: 'Family', exact: true }).click();
    await details.getByText('No family relationships').waitFor();
    await details.getByRole('button', { name: 'Add Family Member' }).click();
    await toast(page, 'Please select a contact and relationship type.').waitFor();
    await details.getByRole('combobox', { name: 'Family member' }).click();
    await page.getByRole('option', { name: /Lazarus Bethany/ }).click();
    await details.getByRole('combobox', { name: 'Relationship' }).click();
    await page.getByRole('option', { name: 'Child', exact: true }).click();
    await details.getByRole('button', { name: 'Add Family Member' }).click();
    await toast(page, 'Family member added').waitFor();
    await details.getByRole('link', { name: 'Lazarus Bethany' }).waitFor();
    await details.getByText("is Martha's child").waitFor();

    // Children: one tab of that name (not a second one inside Family), add a child with a group.
    expect(await details.getByRole('tab', { name: 'Children' }).count()).toBe(1);
    await details.getByRole('tab', { name: 'Children' }).click();
    await details.getByText('No children').waitFor();
    await details.getByRole('button', { name: 'Add Child' }).click();
    await details.getByLabel("Child's name").fill('Little Tim');
    await details.getByRole('combobox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Little Lambs (2-4 years)' }).click();
    await details.getByRole('button', { name: 'Add Child' }).click();
    await toast(page, 'Child added').waitFor();
    await details.getByText('Little Lambs (2-4 years)').waitFor();
    await screenshot(page, 'contact-details-children');
    await page.keyboard.press('Escape');

    // The other side of the link reads Parent (isInverse).
    const martha = (await church.client.get('/api/contacts/search?search=martha')).body.items[0];
    const lazarus = (await church.client.get('/api/contacts/search?search=lazarus')).body.items[0];
    await page.goto(`/contacts/detail/${lazarus.id}`);
    await page.getByRole('tab', { name: 'Family', exact: true }).click();
    await page.getByRole('link', { name: 'Martha Bethany' }).waitFor();
    await page.getByText("is Lazarus's parent").waitFor();
    await page.goto(`/contacts/detail/${martha.id}?tab=children&action=add`);
    await page.getByText('Little Tim').waitFor();
    await page.getByLabel("Child's name").waitFor();

    // Lists: create one, add Martha, see the count.
    await page.goto('/contacts?tab=lists');
    await page.getByRole('button', { name: 'Create List' }).first().click();
    await page.getByRole('button', { name: 'Create List' }).last().click();
    await page.getByText('List name is required').waitFor();
    await page.getByLabel('List name').fill('Hospitality');
    await page.getByRole('button', { name: 'Create List' }).last().click();
    await toast(page, 'List created').waitFor();
    // Select all: everyone the search finds, added on the server in one go, after a question with the count.
    await page.getByRole('button', { name: 'Add Contacts' }).click();
    const picker = page.getByRole('dialog', { name: 'Add Contacts to Hospitality' });
    await picker.getByLabel('Search contacts').fill('bethany');
    await picker.getByRole('checkbox', { name: 'Select all 2 matching' }).check();
    await picker.getByText('2 selected').waitFor();
    expect(await picker.getByRole('checkbox', { name: /Martha Bethany/ }).isChecked()).toBe(true);
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'contacts-select-all-390', { fullPage: false });
    await page.setViewportSize({ width: 1280, height: 800 });
    await picker.getByRole('button', { name: 'Add to List' }).click();
    const ask = page.getByRole('dialog', { name: 'Add 2 people to Hospitality?' });
    await ask.getByRole('button', { name: 'Add to List' }).click();
    await toast(page, 'Contacts added to list').waitFor();
    await page.getByText('2 contacts', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Email', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'SMS', exact: true }).getAttribute('href')).toMatch(
      /^\/sms-campaigns\?listId=\d+$/,
    );
    await screenshot(page, 'contact-lists');
    await expectAccessible(page);

    // Search.
    await page.getByRole('tab', { name: 'All Contacts' }).click();
    await page.getByLabel('Search contacts').fill('LAZ');
    await page.getByRole('cell', { name: 'Lazarus Bethany', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'Martha Bethany', exact: true }).count()).toBe(0);
    await page.getByLabel('Search contacts').fill('nobody-like-this');
    await page.getByText('No matching contacts found').waitFor();

    // Import a small CSV with one bad row.
    const file = path.join(os.tmpdir(), `import-${Date.now()}.csv`);
    fs.writeFileSync(
      file,
      'First Name,Last Name,Email,Phone,Household,Tags\n' +
        'Mary,Magdala,mary@example.org,0400111222,Magdala house,Choir;Prayer team;Youth;Alpha;Welcome\n' +
        'No,Email,not-an-email,,,\n' +
        'Martha,Bethany,martha@example.org,,Magdala house,\n',
    );
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importing = page.getByRole('dialog', { name: 'Import contacts from CSV' });
    await importing.locator('input[type=file]').setInputFiles(file);
    // The household column is recognised, and the preview says what it will make.
    await importing.getByText("1 household will be made from 'Household' (2 people)", { exact: false }).waitFor();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
      await screenshot(page, `contact-import-households-${width}`, { fullPage: false });
    }
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await page.getByText('Import complete.').waitFor();
    await page.getByText("Line 3: Please enter a valid email address: 'not-an-email'").waitFor();
    await page.getByText(/1 created · 1 updated · 1 skipped/).waitFor();
    await screenshot(page, 'contact-import-report');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('Search contacts').fill('magdala');
    await page.getByRole('cell', { name: 'Mary Magdala', exact: true }).waitFor();
    // Her imported tags, a few as chips and the rest counted.
    for (const tag of ['Choir', 'Prayer team', 'Youth', 'Alpha']) await page.getByText(tag, { exact: true }).waitFor();
    await page.getByText('+1').waitFor();
    // Every width with the tags showing: axe, and a look.
    await page.getByLabel('Search contacts').fill('');
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('link', { name: 'Mary Magdala' }).waitFor();
      await expectAccessible(page);
      await screenshot(page, `contacts-tags-${width}`);
    }
    // The name is a link to the contact's page, where the household made her Martha's family.
    await page.getByRole('link', { name: 'Mary Magdala' }).click();
    await page.waitForURL(/\/contacts\/detail\/\d+$/);
    // Her page shows every tag, the fifth too.
    await page.getByText('Welcome', { exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Family', exact: true }).click();
    await page.getByRole('link', { name: 'Martha Bethany' }).waitFor();
    await context.close();
  }, 180_000); // the suite's longest flow: a generous limit on a shared, busy machine, no timing asserted
});
