import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, openInApp, screenshot, signIn, startE2E } from './helpers';

const WIDTHS = [390, 1024, 1366] as const;
const COVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cover.png');

/** Pick a file through the image field's button, as a person would. */
async function chooseImage(page: Page, label: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label }).click();
  await (await chooser).setFiles(COVER);
}

async function shots(page: Page, name: string) {
  const original = page.viewportSize();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `show-up-${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}

browserDescribe(describe)('Show Up', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const title = 'Food bank freezer';
  let projectId = 0;

  it('the owner lists a project with a cover, sees it in the list and on the map, and posts an update', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();

    await openInApp(page, '/show-up');
    await page.getByRole('heading', { name: 'Show Up' }).waitFor();
    await page.getByText('No projects yet').waitFor();
    await page.getByRole('link', { name: 'List a Project' }).first().click();
    await page.getByRole('heading', { name: 'List a Project' }).waitFor();

    // Every message of the spec shows on its field, and the form with its errors is accessible.
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Title must be at least 5 characters').waitFor();
    await page.getByText('Short description must be at least 10 characters').waitFor();
    await page.getByText('Description must be at least 50 characters').waitFor();
    await page.getByText('Location is required').waitFor();
    await page.getByText('Organization name is required').waitFor();
    await page.getByText('Invalid email address').waitFor();
    await expectAccessible(page);
    await shots(page, 'form-errors');

    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Short description').fill('A chest freezer so the food bank can take frozen donations.');
    await page
      .getByLabel(/^Description/)
      .fill(
        'Local farms offer frozen meat and vegetables every month, but the food bank has nowhere to keep them. A chest freezer changes that.',
      );
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Outreach' }).click();
    await page.getByLabel('Target amount (USD)').fill('1200');
    await page.getByLabel('Tags').fill('food, freezer');
    await page.getByLabel(/^Location/).fill('Springfield, IL');
    await page.getByLabel('Latitude').fill('39.7817');
    await page.getByLabel('Longitude').fill('-89.6501');
    await page.getByLabel('Organization name').fill('Grace Church Food Bank');
    await page.getByLabel('Contact email').fill('foodbank@grace.example.org');
    await page.getByLabel('Website').fill('grace.example.org');
    await chooseImage(page, 'Cover image');
    await page.getByRole('alert').getByText('Image uploaded').waitFor();
    await page.getByRole('img', { name: 'Cover image preview' }).waitFor();
    await page.getByRole('button', { name: 'Create Project' }).click();
    await page.getByRole('alert').getByText('Project created').waitFor();

    // Back on the list: the card with its title, category and progress.
    await page.getByRole('heading', { name: 'Show Up' }).waitFor();
    const card = page.getByRole('link', { name: title });
    await card.waitFor();
    await page.getByText('$0.00 raised').waitFor();
    await shots(page, 'list');
    await expectAccessible(page);

    // Category deep link and search filter on the server.
    await page.goto('/show-up?category=youth');
    await page.getByText('No projects match your search').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('link', { name: title }).waitFor();
    await page.getByLabel('Search projects').fill('freezer');
    await page.getByRole('link', { name: title }).waitFor();

    // The map view: at most 5 projects, each opening its page (tiles cannot load here; the list works).
    // By keyboard, as the segmented control's radios are meant to be used.
    await page.getByRole('radio', { name: 'List' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { name: /Projects on the map|Nearest projects/ }).waitFor();
    await page.getByRole('region', { name: 'Map of projects' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'map');
    await page.getByRole('link', { name: title }).click();

    // The detail page, as its owner.
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    projectId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(projectId).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'grace.example.org', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Edit Project' }).waitFor();
    await page.getByRole('link', { name: 'Post Update' }).click();

    await page.getByRole('heading', { name: 'Post an Update' }).waitFor();
    await page.getByRole('button', { name: 'Post Update' }).click();
    await page.getByText('Content must be at least 20 characters').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Title').fill('The freezer is ordered');
    await page.getByLabel('Content').fill('Thanks to your gifts we ordered the freezer today. It arrives next week.');
    await chooseImage(page, 'Add an image');
    await page.getByRole('alert').getByText('Image added').waitFor();
    await page.getByRole('img', { name: 'Update image 1' }).waitFor();
    await page.getByRole('button', { name: 'Post Update' }).click();
    await page.getByRole('alert').getByText('Update created').waitFor();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('tab', { name: /Updates/ }).click();
    await page.getByRole('heading', { name: 'The freezer is ordered' }).waitFor();
    await page.getByRole('img', { name: 'The freezer is ordered, image 1' }).waitFor();
    // The detail page shows the large variant of the uploaded cover.
    expect(await page.getByRole('img', { name: `Cover image of ${title}` }).getAttribute('src')).toMatch(
      /^\/uploads\//,
    );
    await shots(page, 'detail-owner');
    await context.close();
  });

  it('a signed-out visitor opens the shared page, donates 25 anonymously in demo mode and sees the new total', async () => {
    // The shared link carries the page's Open Graph tags.
    const html = await (await fetch(`${e2e.app.url}/show-up/${projectId}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${title}" />`);

    // The visitor scanned the lobby banner's code (its redirect carries lsrc=qr.<id>).
    const qr = await church.client.post('/api/qr-codes', { name: 'Lobby banner', url: 'https://example.org/' });
    expect(qr.status).toBe(201);
    const { page, context } = await e2e.newPage();
    page.on('pageerror', (err) => console.error('page error:', err.message));
    await page.goto(`/show-up/${projectId}?lsrc=qr.${qr.body.id}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit Project' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'detail-visitor');

    await page.getByRole('button', { name: 'Donate Now' }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    await dialog.getByText('Payments are processed securely by our card payment provider').waitFor();
    expect(await dialog.getByRole('button', { name: '$25', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await dialog.getByLabel('Amount (USD)').fill('');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await dialog.getByText('Amount is required').waitFor();
    await dialog.getByText('Invalid email address').waitFor();
    await expectAccessible(page);
    await shots(page, 'donate-errors');

    await dialog.getByRole('button', { name: '$25', exact: true }).click();
    const showMessage = dialog.getByRole('checkbox', { name: 'Show my message on the project page' });
    expect(await showMessage.isChecked()).toBe(true);
    await dialog.getByLabel('Give anonymously').check();
    expect(await dialog.getByLabel('Email').count()).toBe(0);
    // An anonymous donor's message stays off the public page unless they tick the box.
    expect(await showMessage.isChecked()).toBe(false);
    await dialog.getByRole('textbox', { name: 'Message' }).fill('A private prayer for the team');
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await dialog.getByRole('heading', { name: 'Demo mode — no card is charged' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'donate-demo');
    await dialog.getByRole('button', { name: 'Donate $25.00 (demo)' }).click();
    await page.getByRole('alert').getByText('Donation Successful').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The project shows the new total and an anonymous supporter.
    await page.getByText('$25.00', { exact: true }).waitFor();
    await page.getByText('1 supporter', { exact: true }).first().waitFor();
    await page.getByRole('tab', { name: /Supporters/ }).click();
    await page.getByRole('list', { name: 'Supporters' }).getByText('Anonymous').waitFor();
    expect(await page.getByText('A private prayer for the team').count()).toBe(0);

    // The thank-you page.
    await page.getByRole('link', { name: 'See your donation and receipt' }).click();
    await page.getByRole('heading', { name: 'Thank you for your donation!' }).waitFor();
    await page.getByText('$25.00').waitFor();
    await page.getByText('Donation made anonymously').waitFor();
    await page.getByRole('link', { name: 'View Receipt' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'success');
    await page.getByRole('link', { name: 'View Project' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await context.close();

    // Without parameters the thank-you page goes back to the projects.
    const second = await e2e.newPage();
    await second.page.goto('/show-up/donation-success');
    await second.page.getByRole('heading', { name: 'Show Up' }).waitFor();
    // A payment it cannot find: no thanks, only what is known.
    await second.page.goto('/show-up/donation-success?payment_intent=pi_unknown123&project_id=1');
    await second.page.getByRole('heading', { level: 1, name: 'Donation details unavailable' }).waitFor();
    await second.page.getByText('We could not find the details of this donation.').waitFor();
    expect(await second.page.getByText('Thank you for your donation!').count()).toBe(0);
    await expectAccessible(second.page);
    await second.context.close();
  });

  it("the receipt's Print button prints under the CSP (no inline handler)", async () => {
    const made = await church.client.post('/api/show-up/projects', {
      title: 'Receipt roof',
      shortDescription: 'Fix the roof.',
      description: 'The hall roof leaks and needs new sheeting before winter comes.',
      location: 'Springfield, IL',
      targetAmount: 1000,
      category: 'construction',
      organizationName: 'Grace Church',
      contactEmail: 'office@grace.example.org',
      startDate: '2026-11-01',
      endDate: '2027-03-01',
    });
    expect(made.status, made.text).toBe(201);
    const visitor = new HttpClient(e2e.app.url);
    const prepared = await visitor.post('/api/show-up/donations/prepare', {
      projectId: made.body.id,
      amount: 10,
      donorName: 'Lydia',
      donorEmail: 'lydia@example.org',
      isAnonymous: false,
    });
    expect(prepared.status, prepared.text).toBe(200);
    const done = await visitor.post('/api/show-up/donations/demo-complete', {
      paymentIntent: prepared.body.paymentIntentId,
      clientSecret: prepared.body.clientSecret,
    });
    expect(done.status, done.text).toBe(200);
    const { receiptToken } = await e2e.app.db
      .selectFrom('gifts')
      .select('receiptToken')
      .where('id', '=', prepared.body.donationId)
      .executeTakeFirstOrThrow();

    const { page, context } = await e2e.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => void (w.printed += 1);
    });
    await page.goto(`/show-up/receipts/${receiptToken}`);
    await page.getByRole('heading', { name: 'Donation receipt from Grace Church' }).waitFor();
    await page.getByRole('button', { name: 'Print' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the owner sees the gift in the Donations tab, summed by where it came from', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, `/show-up/${projectId}`);
    await page.getByRole('tab', { name: 'Donations' }).click();
    await page.getByRole('heading', { name: 'Where gifts came from' }).waitFor();
    await page.getByText('QR code: Lobby banner', { exact: true }).first().waitFor();
    await page.getByText('$25.00 · 1 gift').waitFor();
    await expectAccessible(page);
    await shots(page, 'donations-tab');
    await context.close();
  });
});
