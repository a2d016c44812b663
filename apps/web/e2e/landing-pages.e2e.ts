import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { startFakeOpenAi } from '../../server/test/helpers/fake-openai';
import { browserDescribe, expectAccessible, openInApp, shotsAtWidths, signIn, startE2E } from './helpers';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function shots(page: Page, name: string) {
  await shotsAtWidths(page, name);
}

browserDescribe(describe)('Landing pages', async () => {
  const openai = await startFakeOpenAi({ apiKey: 'sk-e2e' });
  const { app, browser } = await startE2E({
    openaiApiKey: 'sk-e2e',
    openaiBaseUrl: openai.baseURL,
    openaiModel: 'e2e-model',
  });
  afterAll(async () => {
    await openai.close();
  });
  await registerChurch(app.url, 'Platform');
  const church = await registerChurch(app.url, 'Grace Church');
  await church.client.post('/api/contact-lists', { name: 'Easter guests', type: 'email' });

  it('builds a page from blocks with AI copy and an image, publishes it, and a visitor signs up', async () => {
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();

    await openInApp(page, '/landing-pages');
    await page.getByText('No landing pages yet').waitFor();
    await page.getByRole('button', { name: 'Create Landing Page' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create Landing Page' });
    await dialog.getByRole('button', { name: 'Create Landing Page' }).click();
    await dialog.getByText('Name is required').waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Name').fill('Easter Sunday 2027');
    expect(await dialog.getByLabel('Slug').inputValue()).toBe('easter-sunday-2027');
    await dialog.getByRole('button', { name: 'Create Landing Page' }).click();
    await page.getByRole('heading', { name: 'Edit Easter Sunday 2027' }).waitFor();

    // The whole page from the generator.
    openai.reply({
      kind: 'json',
      content: JSON.stringify({
        headline: 'Celebrate Easter with Us',
        subheading: 'A joyful morning for the whole family.',
        mainContent: 'Join us this Easter.\n\nThere is something for everyone.',
        callToAction: 'Plan your visit',
        keyPoints: ['Egg hunt at 9am', 'Family service', 'Coffee after'],
      }),
    });
    await page.getByRole('button', { name: 'Generate with AI' }).click();
    const gen = page.getByRole('dialog', { name: 'Generate page content' });
    await gen.getByRole('button', { name: 'Generate' }).click();
    await gen.getByText('Purpose is required').waitFor();
    await expectAccessible(page);
    await gen.getByRole('combobox', { name: 'Purpose' }).click();
    await page.getByRole('option', { name: 'Event' }).click();
    await gen.getByLabel('Topic').fill('Easter Sunday service');
    await gen.getByRole('combobox', { name: 'Target audience' }).click();
    await page.getByRole('option', { name: 'Families' }).click();
    await gen.getByRole('button', { name: 'Generate' }).click();
    await gen.waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: 'Headline' }).inputValue()).toBe('Celebrate Easter with Us');
    expect(await page.getByRole('textbox', { name: 'Key point 2' }).inputValue()).toBe('Family service');

    // One block regenerated.
    openai.reply({ kind: 'json', content: JSON.stringify({ content: 'Rise Up This Easter' }) });
    await page.getByRole('button', { name: 'Regenerate headline' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Headline' }).inputValue()).toBe('Rise Up This Easter');

    // A sign-up form feeding a list, and an uploaded image.
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.getByRole('menuitem', { name: 'Sign-up form' }).click();
    await page.getByRole('combobox', { name: 'Add people to the list' }).click();
    await page.getByRole('option', { name: 'Easter guests' }).click();
    await page.getByRole('button', { name: 'Add block' }).click();
    await page.getByRole('menuitem', { name: 'Image', exact: true }).click();
    const imageBlock = page.getByRole('region', { name: '6. Image block' });
    await imageBlock
      .locator('input[type=file]')
      .setInputFiles({ name: 'hall.png', mimeType: 'image/png', buffer: PNG });
    await imageBlock.getByRole('img', { name: 'Image preview' }).waitFor();
    await imageBlock.getByRole('textbox', { name: 'Image description' }).fill('Our church hall');

    // Reorder by keyboard: the image moves above the sign-up form.
    await page.getByRole('button', { name: 'Reorder 6. Image' }).focus();
    await page.keyboard.press('Space');
    // Picked up: the live region announces where the block is.
    await page.getByText('Image block is now at position 6.').waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowUp');
    await page.getByText('Image block is now at position 5.').waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: '5. Image block' }).waitFor();
    await page.getByRole('region', { name: '6. Sign-up form block' }).waitFor();

    // Leaving with unsaved blocks asks first (in-app navigation is blocked until answered).
    await page.getByRole('navigation', { name: 'Outreach' }).getByRole('link', { name: 'Landing Pages' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByText('This landing page has changes that are not saved.').waitFor();
    await expectAccessible(page);
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toMatch(/^\/landing-pages\/\d+$/);
    await page.getByRole('region', { name: '5. Image block' }).waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Publish' }).click();
    const confirm = page.getByRole('dialog', { name: 'Publish landing page' });
    await confirm.getByText('Anyone with the link /p/easter-sunday-2027').waitFor();
    await confirm.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.mantine-SegmentedControl-root label', { hasText: 'Phone' }).click();
    expect(await page.getByRole('radio', { name: 'Phone' }).isChecked()).toBe(true);
    await expectAccessible(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Edit Easter Sunday 2027' }).waitFor();
    await shots(page, 'landing-builder');

    // The list shows it published.
    await page.goto('/landing-pages');
    await page.getByRole('heading', { name: 'Easter Sunday 2027' }).waitFor();
    await page.getByText('Published', { exact: true }).waitFor();
    await expectAccessible(page);
    await shots(page, 'landing-list');

    // A visitor, signed out, from a QR code.
    const visitorContext = await browser.newContext({
      baseURL: app.url,
      viewport: { width: 390, height: 844 },
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
    });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/p/easter-sunday-2027?lsrc=qr.3');
    await visitor.getByRole('heading', { level: 1, name: 'Rise Up This Easter' }).waitFor();
    await visitor.getByRole('heading', { name: 'Key Highlights' }).waitFor();
    expect(await visitor.getByRole('img', { name: 'Our church hall' }).getAttribute('loading')).toBe('lazy');
    expect(await visitor.locator('script[src]').count()).toBe(0);
    await expectAccessible(visitor);
    await shots(visitor, 'landing-public');
    await visitor.getByLabel('Name').fill('Ada Lovelace');
    await visitor.getByLabel('Email').fill('ada@example.org');
    await visitor.getByRole('button', { name: 'Sign up' }).click();
    await visitor.getByText('Thank you! Please check your email').waitFor();
    await visitorContext.close();

    // Not found for a missing page.
    const nf = await page.goto('/p/no-such-page');
    expect(nf?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Go Back' }).waitFor();

    // The church sees the new contact on the list and the visit on the dashboard.
    await app.deps.pages.visits.flush();
    await page.goto('/contacts');
    await page.getByText('Ada Lovelace').first().waitFor();
    await page.goto('/');
    const visits = page.locator('.mantine-Card-root', { hasText: 'Page Visits' });
    await visits.getByText('1', { exact: true }).waitFor();
    await context.close();
  }, 180_000);

  it("shows staff a sign-up's different phone with 'Use it', and the church's default country in Settings", async () => {
    const member = await church.client.post('/api/contacts', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace.hopper@example.org',
      phone: '412 000 111',
      metadata: { countryCode: '+61' },
    });
    expect(member.status, member.text).toBe(201);
    const created = await church.client.post('/api/landing-pages', {
      name: 'Youth camp',
      slug: 'youth-camp-2027',
      published: true,
      content: { blocks: [{ id: 'form', type: 'signup', title: 'Register interest', fields: ['phone'] }] },
    });
    expect(created.status, created.text).toBe(201);
    // Someone types the member's email with another phone.
    const signup = await fetch(`${app.url}/p/youth-camp-2027/signup/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Firefox/131.0' },
      body: JSON.stringify({ name: 'Grace Hopper', email: 'grace.hopper@example.org', phone: '0499 999 999' }),
    });
    expect(signup.status).toBe(200);

    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signIn(page, app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();

    await openInApp(page, `/landing-pages/${created.body.id}/stats`);
    await page.getByRole('heading', { name: 'Visits and sign-ups: Youth camp' }).waitFor();
    await page.getByText('Signed up with a different phone: 0499 999 999 — use it?').waitFor();
    await expectAccessible(page);
    await shots(page, 'landing-signup-different-phone');
    await page.getByRole('button', { name: 'Use it: phone 0499 999 999 for Grace Hopper' }).click();
    const ask = page.getByRole('dialog', { name: 'Use this phone?' });
    await ask.getByText("Grace Hopper's phone 412 000 111 will be replaced with 0499 999 999.").waitFor();
    await expectAccessible(page);
    await ask.getByRole('button', { name: 'Use it' }).click();
    await page.getByText("Grace Hopper's phone is now 0499 999 999.").waitFor();
    await page.getByText('Signed up with a different phone').waitFor({ state: 'detached' });
    const after = await church.client.get(`/api/contacts/${member.body.id}`);
    expect(after.body).toMatchObject({ phone: '0499 999 999', phoneE164: '+61499999999' });

    // The church's country, for phones typed without a country code: none chosen yet (registered
    // without a time zone, so phones are read as '+61'), then the United States.
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const country = page.getByRole('combobox', { name: 'Country' });
    expect(await country.inputValue()).toBe('');
    await country.click();
    await country.fill('United States');
    await page.getByRole('option', { name: 'United States (+1)', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your campaign footer and times now use these settings.').waitFor();
    expect((await church.client.get('/api/settings')).body.defaultCountryCode).toBe('+1');
    await expectAccessible(page);
    await shots(page, 'settings-default-country');
    await context.close();
  }, 120_000);
});
