import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, startE2E, uniqueName } from './helpers';

/**
 * A church registered in Chicago writes the US way, one in Sydney the Australian way: the country
 * follows the time zone chosen on the form, and phones and dates follow the country.
 */
const CHURCHES = [
  {
    key: 'us',
    zone: 'Chicago',
    zoneOption: /^America\/Chicago/,
    country: 'United States (+1)',
    phone: '2175550109',
    shown: '(217) 555-0109',
    born: 'Born Dec 7, 1980',
  },
  {
    key: 'au',
    zone: 'Sydney',
    zoneOption: /^Australia\/Sydney/,
    country: 'Australia (+61)',
    phone: '0412000111',
    shown: '0412 000 111',
    born: 'Born 7 Dec 1980',
  },
] as const;

async function registerWithZone(page: Page, c: (typeof CHURCHES)[number], name: string) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Church Name').fill(name);
  await page.getByLabel('Email').fill(`${name}@example.org`);
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse');
  await page.getByLabel('Confirm Password').fill('correct-horse');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await zone.click();
  await zone.fill(c.zone);
  await page.getByRole('option', { name: c.zoneOption }).click();
  // The country follows the zone chosen.
  expect(await page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe(c.country);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

browserDescribe(describe)('the church’s country', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');

  for (const c of CHURCHES)
    it(`writes phones and dates as a church in ${c.zone} does`, async () => {
      const { page } = await e2e.newPage();
      const name = uniqueName(`loc${c.key}`);
      await registerWithZone(page, c, name);

      // A contact and a team member with phones typed without a country code (read in the church's).
      const api = new HttpClient(e2e.app.url);
      expect((await api.post('/api/login', { username: name, password: 'correct-horse' })).status).toBe(200);
      const contact = await api.post('/api/contacts', {
        firstName: 'Ruth',
        lastName: 'Moab',
        email: `ruth-${c.key}@example.org`,
        phone: c.phone,
        metadata: { dateOfBirth: '1980-12-07' },
      });
      expect(contact.status).toBe(201);
      const member = await api.post('/api/service-planner/members', { name: 'Boaz', phone: c.phone });
      expect(member.status).toBe(201);

      await page.goto('/contacts');
      const table = page.getByRole('table', { name: 'Contacts' });
      await table.getByRole('cell', { name: c.shown, exact: true }).waitFor();
      if (c.key === 'au') {
        // One screen at each width, with axe in the same pass.
        for (const width of [390, 1024, 1366]) {
          await page.setViewportSize({ width, height: 900 });
          await page.getByText(c.shown).first().waitFor();
          await expectAccessible(page);
          await screenshot(page, `locale-contacts-au-${width}`);
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      await page.getByRole('button', { name: 'View Ruth Moab' }).click();
      await page.getByText(c.born, { exact: true }).waitFor();
      await page.getByText(c.shown, { exact: true }).first().waitFor();
      await screenshot(page, `locale-contact-${c.key}`);

      await page.goto('/service-planner?tab=team');
      await page.getByRole('cell', { name: c.shown, exact: true }).waitFor();
      await screenshot(page, `locale-team-${c.key}`);

      await page.goto('/settings');
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Country' }).inputValue(), { timeout: 10_000 })
        .toBe(c.country);
    });
});
