import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Download } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, signIn, screenshot, startE2E, toast } from './helpers';

// A logo served on loopback (allowed for this test server by qrLogoAllowLoopback).
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#C92A2A"/></svg>';
const logoServer = http.createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO_SVG),
);
await new Promise<void>((r) => logoServer.listen(0, '127.0.0.1', r));
const LOGO_URL = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}/logo.svg`;
afterAll(() => new Promise<void>((r) => logoServer.close(() => r())));

function decodePng(png: Buffer): string | null {
  const img = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(img.data), img.width, img.height)?.data ?? null;
}

browserDescribe(describe)('QR codes', async () => {
  const e2e = await startE2E({ qrLogoAllowLoopback: true, qrScanFlushMs: 50 });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('creates a styled code with a logo, follows the preview, downloads and decodes the PNG, counts a scan', async () => {
    const { page, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('navigation', { name: 'Outreach' }).getByRole('link', { name: 'QR Codes' }).click();
    await page.getByRole('heading', { name: 'QR Codes' }).waitFor();
    await page.getByText('No QR codes yet').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Create QR Code' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create QR Code' });
    await dialog.waitFor();

    // The spec's validation messages.
    await dialog.getByLabel(/^URL/).fill('not a url');
    await dialog.getByRole('button', { name: 'Create QR Code' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Please enter a valid URL').waitFor();
    await expectAccessible(page);

    const preview = dialog.getByRole('img', { name: 'QR code preview' });
    const srcNow = async () => (await preview.getAttribute('src')) ?? '';
    await dialog.getByLabel(/^Name/).fill('Easter banner');
    const destination = `${e2e.app.url}/`;
    await dialog.getByLabel(/^URL/).fill(destination);
    await expect.poll(srcNow).toContain(encodeURIComponent(destination));
    const plain = await srcNow();

    // The preview follows every control.
    await dialog.getByLabel('Use a short link').check();
    await expect.poll(srcNow).toContain(encodeURIComponent('/s/xxxxxxx?src=qr'));
    await dialog.getByRole('textbox', { name: 'Foreground color', exact: true }).fill('#1E3A8A');
    await expect.poll(srcNow).toContain('foregroundColor=1E3A8A');
    await dialog.getByRole('textbox', { name: 'Corner square color', exact: true }).fill('#B91C1C');
    await expect.poll(srcNow).toContain('cornerSquareColor=B91C1C');
    await dialog.getByRole('textbox', { name: 'Corner dot color', exact: true }).fill('#047857');
    await expect.poll(srcNow).toContain('cornerDotColor=047857');
    await dialog.getByRole('slider', { name: 'Size' }).focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(srcNow).toContain('size=350');
    await dialog.getByRole('slider', { name: 'Margin' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(srcNow).toContain('margin=3');
    await dialog.getByLabel('Error correction', { exact: true }).click();
    await page.getByRole('option', { name: 'Q (25%)' }).click();
    await expect.poll(srcNow).toContain('errorCorrection=Q');
    await dialog.getByLabel('Logo URL').fill(LOGO_URL);
    await expect.poll(srcNow).toContain(encodeURIComponent(LOGO_URL));
    expect(await srcNow()).not.toBe(plain);
    // The preview image really loads (the server drew it).
    await expect
      .poll(() =>
        preview.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth),
      )
      .toBe(350);

    // Contrast rule, shown in place of the preview.
    await dialog.getByRole('textbox', { name: 'Background color', exact: true }).fill('#1A1B1E');
    await dialog
      .getByText(/too close for scanners to read/)
      .first()
      .waitFor();
    await dialog.getByRole('textbox', { name: 'Background color', exact: true }).fill('#FFFFFF');

    await page.getByRole('dialog', { name: 'Create QR Code' }).getByRole('slider', { name: 'Size' }).waitFor();
    await screenshot(page, 'qr-dialog-1366');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create QR Code' }).click();
    await page.getByText('QR code created successfully').waitFor();

    const row = page.getByRole('row', { name: /Easter banner/ });
    await row.waitFor();
    await row.getByRole('img', { name: 'QR code for Easter banner' }).waitFor();
    const code = (await church.client.get('/api/qr-codes')).body[0];
    expect(code).toMatchObject({ isShortUrl: true, foregroundColor: '#1E3A8A', size: 350, margin: 3 });

    // Copy the short link.
    await row.getByRole('button', { name: 'Copy link for Easter banner' }).click();
    await page.getByText('Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code.shortUrl);

    // Download the PNG (a new tab) and decode it.
    await row.getByRole('button', { name: 'Actions for Easter banner' }).click();
    // The link opens a new tab that downloads the file (the download belongs to that tab).
    const downloaded = new Promise<Download>((resolve) => {
      page.once('download', resolve);
      context.once('page', (tab) => tab.once('download', resolve));
    });
    await page.getByRole('menuitem', { name: 'Download PNG' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('qr-easter-banner.png');
    const png = fs.readFileSync(await download.path());
    expect(decodePng(png)).toBe(code.encodedUrl);

    // Open the short link as a phone scanning the printed code would, and see the scan counted.
    const phone = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    const scanner = await phone.newPage();
    const res = await scanner.goto(`/s/${code.shortCode}?src=qr`);
    expect(scanner.url()).toBe(destination);
    expect(res?.ok()).toBe(true);
    await phone.close();
    await expect
      .poll(async () => (await church.client.get(`/api/qr-codes/${code.id}`)).body.scans, { timeout: 10_000 })
      .toBe(1);
    await page.reload();
    await page
      .getByRole('row', { name: /Easter banner/ })
      .getByRole('button', { name: '1 scan of Easter banner' })
      .click();
    const scans = page.getByRole('dialog', { name: 'Scans of Easter banner' });
    await scans.getByText('1 scan in all', { exact: false }).waitFor();
    await scans.getByText('Phones: 1').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'qr-scans-1366');
    await scans.getByRole('button', { name: 'Close' }).click();

    // Edit: the dialog opens with the saved values; then the screens at three widths.
    await page
      .getByRole('row', { name: /Easter banner/ })
      .getByRole('button', { name: 'Actions for Easter banner' })
      .click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit QR Code' });
    await expect.poll(() => edit.getByLabel(/^Name/).inputValue()).toBe('Easter banner');
    // Swap the URL logo for an uploaded one. Too large a photo or another type is refused in the
    // browser at once, before anything is sent.
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/uploads')) uploads.push(r.url());
    });
    const picker = edit.locator('input[type="file"]');
    await picker.setInputFiles({ name: 'choir.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024 * 1024) });
    await edit.getByText('This image is larger than 10 MB.').waitFor();
    await toast(page, 'This image is larger than 10 MB.').waitFor();
    await picker.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await edit.getByText('Only JPEG, PNG or WebP images can be uploaded.').waitFor();
    expect(uploads).toEqual([]);
    const red = new PNG({ width: 32, height: 32 });
    for (let i = 0; i < red.data.length; i += 4) red.data.set([200, 30, 30, 255], i);
    await picker.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG.sync.write(red) });
    await edit.getByRole('img', { name: 'QR code preview' }).waitFor();
    await expect
      .poll(async () => (await edit.getByRole('img', { name: 'QR code preview' }).getAttribute('src')) ?? '')
      .toContain('logoUploadId=');
    // A scheduled destination: a problem shows beside its field, scrolled into view (the dialog
    // scrolls back up to it from the Save button); empty dates mean 'Now' and 'No end', as they say.
    await edit.getByRole('button', { name: 'Scheduled destinations' }).click();
    await edit.getByRole('button', { name: 'Add scheduled destination' }).click();
    const scheduled = edit.getByLabel('Scheduled URL 1');
    await scheduled.fill('christmas page');
    await edit.getByRole('button', { name: 'Scheduled destinations' }).click(); // folded away
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => scheduled.evaluate((el) => el === document.activeElement)).toBe(true);
    const described = await scheduled.getAttribute('aria-describedby');
    expect(await edit.locator(`[id="${described?.split(' ').pop()}"]`).innerText()).toBe('Please enter a valid URL');
    const inView = await scheduled.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await screenshot(page, 'qr-dialog-schedule-error');
    await scheduled.fill('https://example.org/christmas');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('QR code updated successfully').waitFor();
    const updated = (await church.client.get(`/api/qr-codes/${code.id}`)).body;
    expect(updated.logoUpload).toMatchObject({ id: expect.any(Number) });
    expect(updated.schedule).toEqual([{ url: 'https://example.org/christmas', startsAt: null, endsAt: null }]);
    expect(updated.shortCode).toBe(code.shortCode);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await page.getByRole('heading', { name: 'QR Codes' }).waitFor();
      await page.getByRole('img', { name: 'QR code for Easter banner' }).first().waitFor();
      await screenshot(page, `qr-codes-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 900 });
    await page.getByRole('button', { name: 'Create QR Code' }).first().click();
    await page.getByRole('dialog', { name: 'Create QR Code' }).waitFor();
    await screenshot(page, 'qr-dialog-390');
    await expectAccessible(page);
    await page.getByRole('dialog', { name: 'Create QR Code' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog', { name: 'Create QR Code' }).waitFor({ state: 'hidden' });

    // Delete with a confirmation naming what goes.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page
      .getByRole('row', { name: /Easter banner/ })
      .getByRole('button', { name: 'Actions for Easter banner' })
      .click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Easter banner?' });
    await confirm.getByText('its 1 recorded scan', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('QR code deleted successfully').waitFor();
    await page.getByText('No QR codes yet').waitFor();
  }, 240_000);
  it("points a code at one of the church's pages from the picker and picks colours from swatches", async () => {
    const lp = await church.client.post('/api/landing-pages', {
      name: 'Christmas services',
      slug: 'christmas',
      published: true,
    });
    expect(lp.status, lp.text).toBe(201);
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('navigation', { name: 'Outreach' }).getByRole('link', { name: 'QR Codes' }).click();
    await page.getByRole('heading', { name: 'QR Codes' }).waitFor();
    await page.getByRole('button', { name: 'Create QR Code' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create QR Code' });
    await dialog.waitFor();
    await dialog.getByLabel(/^Name/).fill('Christmas flyer');
    await dialog.getByLabel('Choose one of your pages').click();
    await page.getByRole('option', { name: 'Christmas services' }).click();
    await expect.poll(() => dialog.getByLabel(/^URL/).inputValue()).toMatch(/\/p\/christmas$/);

    // A colour picker: its swatches (named by their hex) fill the hex the spec stores.
    await dialog.getByRole('textbox', { name: 'Foreground color', exact: true }).click();
    await page.getByRole('button', { name: '#364FC7' }).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'qr-colour-picker');
    await page.getByRole('button', { name: '#364FC7' }).first().click();
    await expect
      .poll(async () =>
        (await dialog.getByRole('textbox', { name: 'Foreground color', exact: true }).inputValue()).toUpperCase(),
      )
      .toBe('#364FC7');
    await dialog.getByRole('button', { name: 'Create QR Code' }).click();
    await page.getByRole('cell', { name: 'Christmas flyer' }).first().waitFor();
    const codes = (await church.client.get('/api/qr-codes')).body as {
      name: string;
      url: string;
      foregroundColor: string;
    }[];
    const made = codes.find((c) => c.name === 'Christmas flyer')!;
    expect(made.url).toMatch(/\/p\/christmas$/);
    expect(made.foregroundColor.toUpperCase()).toBe('#364FC7');
    await context.close();
  }, 120_000);
});
