import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, loginViaUi, screenshot, startE2E, toast } from './helpers';

browserDescribe(describe)('SMS campaigns', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const list = (await church.client.post('/api/contact-lists', { name: 'Youth Parents', type: 'sms' })).body;
  for (const [first, phone] of [
    ['Ann', '0412 000 001'],
    ['Ben', '0412 000 002'],
  ]) {
    const c = (
      await church.client.post('/api/contacts', {
        firstName: first,
        lastName: 'Parent',
        email: `${first}@example.org`,
        phone,
      })
    ).body;
    await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  }

  it("from a list's SMS button: write, count segments, schedule, and see it sent in the outbox", async () => {
    const { page, context } = await e2e.newPage();
    await loginViaUi(page, church.user.username, church.password);
    await page.getByRole('heading', { name: 'Welcome back, Grace Church!' }).waitFor();
    await page.goto('/contacts?tab=lists');
    await page.getByRole('link', { name: 'SMS', exact: true }).click();

    // The form is open with the list chosen.
    await page.getByRole('heading', { name: 'New SMS Campaign' }).waitFor();
    await page
      .getByRole('button', { name: 'Create Campaign' })
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await page.getByLabel('Campaign Name').fill('Youth night');
    await page.getByLabel('Message').fill('Hi {{firstName}}, youth night at {{churchName}} is on tonight');
    await page
      .getByTestId('sms-counter')
      .getByText(/· GSM-7 · 1 segment/)
      .waitFor();
    await page.getByLabel('Message').fill('Hi {{firstName}}, youth night tonight 🙏');
    await page
      .getByTestId('sms-counter')
      .getByText(/· UCS-2 · 1 segment/)
      .waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByRole('radio', { name: /Youth Parents/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();

    // Schedule for the next whole minute.
    await page.getByLabel('Schedule for later').check();
    const at = new Date(Date.now() + 60_000);
    at.setSeconds(0, 0);
    if (at.getTime() - Date.now() < 5_000) at.setMinutes(at.getMinutes() + 1);
    await page.getByLabel('Send at').click();
    const day = `${at.getDate()} ${at.toLocaleString('en-US', { month: 'long' })} ${at.getFullYear()}`;
    await page.getByRole('button', { name: day, exact: true }).click();
    const [hours, minutes] = await page.getByRole('spinbutton').all();
    await hours!.fill(String(at.getHours()).padStart(2, '0'));
    await minutes!.fill(String(at.getMinutes()).padStart(2, '0'));
    await page.locator('.mantine-Popover-dropdown button[data-variant="default"]').last().click();
    await screenshot(page, 'sms-form-schedule');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    await toast(page, 'Campaign created').waitFor();
    await page.locator('.mantine-Badge-root', { hasText: /^Scheduled$/ }).waitFor();

    // At its time the workers send it; without Twilio the texts land in the outbox.
    await page.locator('.mantine-Badge-root', { hasText: /^Sent$/ }).waitFor({ timeout: 100_000 });
    await page.getByRole('cell', { name: 'Hi Ann, youth night tonight 🙏' }).waitFor({ timeout: 10_000 });
    await page.getByRole('cell', { name: '+61412000002' }).waitFor();
    await screenshot(page, 'sms-sent-outbox');
    await context.close();
  }, 150_000);
});
