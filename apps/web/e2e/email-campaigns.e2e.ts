import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import {
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  shotsAtWidths,
  signIn,
  startE2E,
  toast,
} from './helpers';

browserDescribe(describe)('email campaigns', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const list = (await church.client.post('/api/contact-lists', { name: 'Newsletter', type: 'email' })).body;
  for (const [first, email] of [
    ['Ann', 'ann@example.org'],
    ['Ben', 'ben@example.org'],
  ]) {
    const c = (
      await church.client.post('/api/contacts', { firstName: first, lastName: 'Reader', email, phone: '0412345678' })
    ).body;
    await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  }

  it('wizard for a list → test email → send → outbox → view page with stats', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();

    // From the contact list's Email button.
    await openInApp(page, '/contacts?tab=lists');
    await page.getByRole('link', { name: 'Email', exact: true }).click();
    await page.getByRole('link', { name: 'New Campaign for Newsletter' }).click();

    // Basics (Next Step is locked until name, subject and list are there).
    await page.getByRole('heading', { name: 'New Email Campaign' }).waitFor();
    expect(await page.getByRole('button', { name: 'Next Step' }).isDisabled()).toBe(true);
    await page.getByLabel('Campaign Name').fill('Harvest Festival');
    await page.getByLabel('Subject Line').fill('Come to the harvest, {{firstName}}');
    await page.getByRole('button', { name: 'Next Step' }).click();

    // Design: the rich-text editor starts from the welcome paragraph.
    await page.getByText('Welcome to {{churchName}}!').waitFor();
    await page.locator('.ProseMirror').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' See you on Sunday.');
    await screenshot(page, 'email-wizard-design');
    await page.getByRole('button', { name: 'Next Step' }).click();

    // Schedule: a draft unless the person chooses otherwise; then immediately.
    expect(await page.getByRole('radio', { name: 'Save as draft' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Send immediately after saving' }).check();
    await page.getByRole('button', { name: 'Next Step' }).click();

    // Preview: merge tags filled from a contact of the list; a real test email.
    const frame = page.frameLocator('iframe[title="Email preview"]');
    await frame.getByText('Hello Ann,').waitFor();
    await frame.getByText('Welcome to Grace Church!').waitFor();
    await page.getByText('Come to the harvest, Ann').waitFor();
    await page.getByRole('button', { name: 'Send Test' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    // The server's reason for a refusal, under the address; then a contact's address goes.
    await page.getByLabel('Test email address').fill('stranger@elsewhere.example');
    await page.getByRole('button', { name: 'Send Test' }).click();
    await toast(page, 'Failed to send test email').waitFor();
    const address = page.getByLabel('Test email address');
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    const described = await address.evaluate((el) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(described).toContain('Test emails go to your account email or to one of your contacts');
    await address.fill('ann@example.org'); // a contact: no open relay
    await page.getByRole('button', { name: 'Send Test' }).click();
    await toast(page, 'Test Email Sent').waitFor();
    // One sentence: 'Sent to ann@example.org.' (or the outbox's), never '… Sent.'
    await toast(
      page,
      /^(Sent to|Saved to your outbox for) ann@example\.org( \(email sending is not set up on this server yet\))?\.$/,
    ).waitFor();
    await page.getByRole('radio', { name: 'Mobile' }).dispatchEvent('click');
    await screenshot(page, 'email-wizard-preview');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save and Send' }).click();

    // Nothing goes out before the person confirms, in a dialog naming the list and the number of people.
    const dialog = page.getByRole('dialog', { name: 'Send Harvest Festival?' });
    await dialog.getByText('Send to 2 people on Newsletter?').waitFor();
    expect((await church.client.get('/api/email-campaigns')).body).toHaveLength(0);
    await expectAccessible(page);
    await screenshot(page, 'email-send-confirmation');
    await dialog.getByRole('button', { name: 'Send to 2 people' }).click();
    // 'Campaign created', then 'Campaign sent successfully' once the send is queued: both can be on
    // screen at once, so the wait names the one that says the send happened.
    await toast(page, 'Campaign sent successfully').waitFor();

    // Back on the list; open the campaign.
    await page.getByRole('link', { name: 'Harvest Festival', exact: true }).click();
    await page.getByRole('heading', { name: 'Harvest Festival' }).waitFor();
    await page.getByRole('heading', { name: 'Outbox' }).waitFor();
    await expect
      .poll(async () => page.getByRole('cell', { name: /@example\.org/ }).count(), { timeout: 20_000 })
      .toBe(2);
    await page.locator('.mantine-Badge-root', { hasText: /^Sent$/ }).waitFor({ timeout: 20_000 });

    // Someone opens it: the pixel in the delivered message counts.
    const messages = (
      await church.client.get(
        `/api/outbox?channel=email&campaignId=${(await church.client.get('/api/email-campaigns')).body[0].id}`,
      )
    ).body;
    const html: string = messages.find((m: { toAddress: string }) => m.toAddress === 'ann@example.org').html;
    expect(html).toContain('See you on Sunday.');
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)![1]!.replace(/^https?:\/\/[^/]+/, e2e.app.url);
    expect((await fetch(pixel)).status).toBe(200);
    await page.reload();
    const opened = page.locator('.mantine-Card-root', { hasText: 'Opened' });
    await opened.getByText('50.0%').waitFor();
    await page.locator('.mantine-Card-root', { hasText: 'Sent' }).first().getByText('2', { exact: true }).waitFor();
    await screenshot(page, 'email-campaign-view');
    await context.close();
  });

  it('the wizard saves a draft by default; Send in the list asks first, naming the list and the count', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, `/email-campaigns/new?listId=${list.id}`);
    await page.getByLabel('Campaign Name').fill('Carols by candlelight');
    await page.getByLabel('Subject Line').fill('Carols, {{firstName}}');
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('radio', { name: 'Save as draft' }).waitFor();
    // Schedule for later shows the church's zone (UTC: registered through the API) and the next whole hour.
    await page.getByRole('radio', { name: 'Schedule for later' }).check();
    await page.getByText('Time zone: UTC').waitFor();
    // A time in UTC (the zone every church starts in unless it chose one) links to the setting.
    expect(await page.getByRole('link', { name: 'Set your time zone' }).getAttribute('href')).toBe(
      '/settings/church#time-zone',
    );
    const hour = new Date((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
    const h12 = `${hour.getUTCHours() % 12 || 12}:00 ${hour.getUTCHours() < 12 ? 'AM' : 'PM'}`;
    expect(await page.getByLabel('Send at').textContent()).toContain(h12);
    await shotsAtWidths(page, 'email-wizard-schedule');
    await page.getByRole('radio', { name: 'Save as draft' }).check();
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('button', { name: 'Save Draft' }).click();
    await toast(page, 'Campaign created').waitFor();
    const saved = (await church.client.get('/api/email-campaigns?status=draft')).body.find(
      (c: { name: string }) => c.name === 'Carols by candlelight',
    );
    expect(saved).toMatchObject({ status: 'draft', recipientCount: 0 });

    await page.getByRole('button', { name: 'Send Carols by candlelight' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Carols by candlelight?' });
    await dialog.getByText('Send to 2 people on Newsletter?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await church.client.get(`/api/email-campaigns/${saved.id}`)).body.status).toBe('draft');
    await context.close();
  });

  it('a draft shows "Campaign not sent yet" and a missing one the not-found text', async () => {
    const draft = (
      await church.client.post('/api/email-campaigns', {
        name: 'Draft one',
        subject: 'S',
        content: '<p>Hello there friends</p>',
        listIds: [list.id],
      })
    ).body;
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, `/email-campaigns/${draft.id}`);
    await page.getByText('Campaign not sent yet').waitFor();
    await page.goto('/email-campaigns/999999');
    await page.getByText("Campaign not found or you don't have permission to view it.").waitFor();
    await page.goto('/email-campaigns?tab=draft');
    await page.getByRole('link', { name: 'Draft one', exact: true }).waitFor();
    await context.close();
  });
});
