import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, openInApp, screenshot, signIn, startE2E, toast } from './helpers';

browserDescribe(describe)('marketing templates', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  const admin = await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('admin creates an email template and a package, assigns it; the church uses it and lands in the wizard', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, admin.user.username, admin.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Lampstand Platform!$/ }).waitFor();
    await openInApp(page, '/admin/templates');
    await page.getByText('No email templates found.').waitFor();
    await page.getByText('No landing page templates found.').waitFor();

    await page.getByRole('button', { name: 'New Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Template' });
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Easter invitation');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Email' }).click();
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Easter' }).click();
    await dialog.getByLabel('Email subject').fill('He is risen, {{firstName}}');
    await dialog.locator('.ProseMirror').click();
    await page.keyboard.type('Join us on Easter Sunday at 10am.');
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await toast(page, 'Template created successfully.').waitFor();
    await page.getByText('Easter invitation').waitFor();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Packages' }).click();
    await page.getByText('No marketing packages found.').waitFor();
    await page.getByRole('button', { name: 'New Package' }).click();
    const pkg = page.getByRole('dialog', { name: 'New Package' });
    await pkg.getByLabel('Name').fill('Easter 2026');
    await pkg.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Easter' }).click();
    await pkg.getByRole('combobox', { name: 'Email template' }).click();
    await page.getByRole('option', { name: 'Easter invitation' }).click();
    await pkg.getByRole('button', { name: 'Create Package' }).click();
    await toast(page, 'Package created successfully.').waitFor();
    await screenshot(page, 'admin-packages');

    await page.getByRole('button', { name: 'Actions for Easter 2026' }).click();
    await page.getByRole('menuitem', { name: 'Assign to churches' }).click();
    const grace = page
      .getByRole('dialog', { name: 'Assign Easter 2026' })
      .getByRole('checkbox', { name: 'Grace Church' });
    await grace.click();
    await toast(page, 'Easter 2026 is assigned to Grace Church.').waitFor();
    await expect.poll(() => grace.isChecked()).toBe(true);
    // Unticking unassigns; ticking again assigns (no 'Already assigned').
    await grace.click();
    await expect.poll(() => grace.isChecked()).toBe(false);
    await expect
      .poll(async () => (await admin.client.get(`/api/admin/assignments?userId=${church.user.id}`)).body.length)
      .toBe(0);
    await grace.click();
    await expect.poll(() => grace.isChecked()).toBe(true);
    await expect
      .poll(async () => (await admin.client.get(`/api/admin/assignments?userId=${church.user.id}`)).body.length)
      .toBe(1);
    await context.close();

    // The church sees it and uses it.
    const second = await e2e.newPage();
    await signIn(second.page, e2e.app.url, church.user.username, church.password);
    await second.page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await second.page.getByRole('navigation', { name: 'Outreach' }).getByRole('link', { name: 'Templates' }).click();
    await second.page.getByText('Easter invitation').first().waitFor();
    await screenshot(second.page, 'church-templates');
    await second.page.getByRole('button', { name: 'Use Easter invitation' }).first().click();
    await second.page.getByRole('heading', { name: 'Edit Email Campaign' }).waitFor();
    expect(await second.page.getByLabel('Subject Line').inputValue()).toBe('He is risen, {{firstName}}');
    await second.page.getByLabel('Campaign Name').waitFor();
    expect(await second.page.getByLabel('Campaign Name').inputValue()).toBe('Easter invitation');
    await second.context.close();
    const draft = (await church.client.get('/api/email-campaigns?status=draft')).body[0];
    expect(draft.content).toContain('Join us on Easter Sunday at 10am.');
  });
});
