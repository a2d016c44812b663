import { describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { registerChurch } from '@lampstand/server/testing';
import { formatDate, formatTime } from '@lampstand/api/shared/format';
import { browserDescribe, expectAccessible, openInApp, screenshot, signIn, startE2E, toast } from './helpers';

browserDescribe(describe)('SMS campaigns', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  // Kolkata: a half-hour offset and no clock changes, so the times below are the church's, not the
  // machine's. An Australian church (its people's phones are Australian) that keeps Kolkata's time.
  await church.client.put('/api/settings', { timeZone: 'Asia/Kolkata', country: 'AU' });
  const { locale } = (await church.client.get('/api/settings')).body as { locale: string };
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
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, '/contacts?tab=lists');
    await page.getByRole('link', { name: 'SMS', exact: true }).click();

    // The form is open with the list chosen.
    await page.getByRole('heading', { name: 'New SMS Campaign' }).waitFor();
    await page
      .getByRole('button', { name: 'Create Campaign' })
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    // The spec: Create Campaign is disabled while the form is invalid (no name or message yet).
    await page.getByRole('tab', { name: 'Schedule & Review' }).click();
    const createButton = page.getByRole('button', { name: 'Create Campaign' });
    expect(await createButton.isDisabled()).toBe(true);
    await page.getByText('Before saving: Campaign name is required · SMS content is required').waitFor();
    await page.getByRole('tab', { name: 'Campaign Details' }).click();
    await page.getByLabel('Campaign Name').fill('Youth night');
    // Plain words: texts per person and for the whole list (2 people); the encoding sits in a tooltip.
    await page.getByLabel('Message').fill('Hi {{firstName}}, youth night at {{churchName}} is on tonight');
    await page
      .getByTestId('sms-counter')
      .getByText('This message counts as 1 text per person — 2 texts to this list')
      .waitFor();
    await page.getByLabel('Message').fill(`Hi {{firstName}}, youth night tonight 🙏 ${'x'.repeat(40)}`);
    await page
      .getByTestId('sms-counter')
      .getByText('This message counts as 2 texts per person — 4 texts to this list')
      .waitFor();
    expect(await page.getByRole('img', { name: /UCS-2 encoding: 2 segments/ }).count()).toBe(1);
    await page.getByLabel('Message').fill('Hi {{firstName}}, youth night tonight 🙏');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByRole('radio', { name: /Youth Parents/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();

    // A draft by default; scheduling starts at the next whole hour in the church's time zone.
    expect(await page.getByRole('radio', { name: 'Save as draft' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Schedule for later' }).check();
    await page.getByText('Time zone: Asia/Kolkata (GMT+5:30)').waitFor();
    const wall = (d: Date) =>
      Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone: 'Asia/Kolkata',
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          hour12: true,
        })
          .formatToParts(d)
          .map((p) => [p.type, p.value]),
      );
    // Kolkata's whole hours fall at half past in UTC.
    const nextHour = wall(new Date((Math.floor((Date.now() - 1_800_000) / 3_600_000) + 1) * 3_600_000 + 1_800_000));
    const field = page.getByLabel('Send at');
    expect(await field.textContent()).toContain(`${nextHour.hour}:00 ${nextHour.dayPeriod}`);

    // Now schedule it for a time soon, entered in Kolkata time on the 12-hour picker.
    // Two minutes ahead: the steps between here and saving must not outrun it (the test then
    // brings its time forward instead of waiting).
    const at = new Date(Date.now() + 120_000);
    at.setSeconds(0, 0);
    const w = wall(at);
    await field.click();
    await page.getByRole('button', { name: `${w.day} ${w.month} ${w.year}`, exact: true }).click();
    await page.getByRole('spinbutton', { name: 'Hour' }).fill(w.hour!.padStart(2, '0'));
    await page.getByRole('spinbutton', { name: 'Minute' }).fill(w.minute!);
    await page.getByRole('combobox', { name: 'AM or PM' }).selectOption(w.dayPeriod!);
    await page.locator('.mantine-Popover-dropdown button[data-variant="default"]').last().click();
    expect(await field.textContent()).toContain(`${w.hour}:${w.minute} ${w.dayPeriod}`);
    await screenshot(page, 'sms-form-schedule');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create Campaign' }).click();
    await toast(page, 'Campaign created').waitFor();
    // Entered in Kolkata, stored as the same instant in UTC.
    const saved = (await church.client.get('/api/sms-campaigns')).body[0];
    expect(saved).toMatchObject({ name: 'Youth night', scheduledFor: at.toISOString() });
    await page.locator('.mantine-Badge-root', { hasText: /^Scheduled$/ }).waitFor();

    // At its time the workers send it; without Twilio the texts land in the outbox.
    // Shown in the church's time zone.
    await page
      .getByRole('cell', {
        name: `${formatDate(at, { locale, timeZone: 'Asia/Kolkata' })} ${formatTime(at, { locale, timeZone: 'Asia/Kolkata' })}`,
      })
      .waitFor();
    // Its time comes now rather than in two minutes of real waiting: the stored time moves to a
    // second ago, and the sweep (every minute in production) starts it, as it would its own job.
    await sql`update sms_campaigns set scheduled_for = now() - interval '1 second' where id = ${saved.id}`.execute(
      ownerDb(e2e.app.db),
    );
    await e2e.app.runtime.runner.sweep();
    await page.locator('.mantine-Badge-root', { hasText: /^Sent$/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('cell', { name: 'Hi Ann, youth night tonight 🙏' }).waitFor({ timeout: 10_000 });
    await page.getByRole('cell', { name: '+61412000002' }).waitFor();
    await screenshot(page, 'sms-sent-outbox');
    await context.close();
  }, 120_000);

  it('Send in the table asks first, naming the list, the people and the texts', async () => {
    const draft = (
      await church.client.post('/api/sms-campaigns', {
        name: 'Camp reminder',
        content: `Camp forms are due Sunday, {{firstName}}. ${'Please bring them to the office. '.repeat(5)}`,
        listIds: [list.id],
      })
    ).body;
    expect(draft.status).toBe('draft');
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, '/sms-campaigns');
    await page.getByRole('button', { name: 'Send Camp reminder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Camp reminder?' });
    await dialog.getByText('Send to 2 people on Youth Parents?').waitFor();
    await dialog.getByText('This message counts as 2 texts per person — 4 texts to this list').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'sms-send-confirmation');
    const outboxBefore = (await church.client.get('/api/outbox?channel=sms')).body.length;
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await church.client.get(`/api/sms-campaigns/${draft.id}`)).body.status).toBe('draft');

    await page.getByRole('button', { name: 'Send Camp reminder' }).click();
    await dialog.getByRole('button', { name: 'Send 4 texts' }).click();
    await toast(page, 'Campaign sent successfully').waitFor();
    await expect
      .poll(async () => (await church.client.get('/api/outbox?channel=sms')).body.length, { timeout: 20_000 })
      .toBe(outboxBefore + 2);
    await context.close();
  });
});
