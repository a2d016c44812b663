import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { twilioSignature } from '@lampstand/api/server';
import { startFakeTwilio } from '../../server/test/helpers/fake-twilio';
import { processInbound } from '../../server/test/helpers/inbound';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  seeToast,
  signIn,
  startE2E,
  toast,
} from './helpers';

// Marketing → Conversations: a text arrives through Twilio's signed webhook and shows
// as unread; staff open it, read it, and answer it; the reply leaves through the local Twilio peer.
const SID = 'AC000000000000000000000000000000e2';
const TOKEN = 'e2e-auth-token';
const CHURCH_NUMBER = '+61400777000';
const PUBLIC_URL = 'http://lampstand.test';
// Hope Chapel's own Twilio account (Settings → Texting).
const HOPE_SID = 'AC0000000000000000000000000000a0e2';
const HOPE_TOKEN = 'hope-own-token-5b7d';
const HOPE_NUMBER = '+61400777111';

browserDescribe(describe)('Conversations', async () => {
  const twilio = await startFakeTwilio({
    accountSid: SID,
    authToken: TOKEN,
    accounts: [{ accountSid: HOPE_SID, authToken: HOPE_TOKEN, numbers: [HOPE_NUMBER] }],
  });
  afterAll(() => twilio.close());
  const e2e = await startE2E({
    twilioAccountSid: SID,
    twilioAuthToken: TOKEN,
    twilioFromNumber: '+61400999000',
    twilioApiBaseUrl: twilio.url,
    publicUrl: PUBLIC_URL,
  });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await church.client.put('/api/settings', { postalAddress: '1 Church St' });
  await e2e.app.db
    .updateTable('churchSettings')
    .set({ smsFromNumber: CHURCH_NUMBER })
    .where('userId', '=', church.user.id)
    .execute();
  await church.client.post('/api/contacts', {
    firstName: 'Ann',
    lastName: 'Parent',
    email: 'ann@example.org',
    phone: '+61412000001',
  });
  let n = 0;
  async function text(from: string, body: string) {
    const params = {
      MessageSid: `SM${(++n).toString(16).padStart(32, '0')}`,
      From: from,
      To: CHURCH_NUMBER,
      Body: body,
    };
    const res = await fetch(`${e2e.app.url}/api/twilio/inbound`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(TOKEN, `${PUBLIC_URL}/api/twilio/inbound`, params),
      },
      body: new URLSearchParams(params),
    });
    expect(res.status).toBe(200);
    // The text is on its conversation once the 'sms-inbound-process' job has run.
    await processInbound(e2e.app);
  }

  it('a reply arrives and shows as unread; staff open it and answer it', async () => {
    await text('+61412000001', 'Running late, save me a seat <b>please</b>');
    await text('+61412000002', 'Who is this?');
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await page.getByRole('link', { name: 'Conversations' }).first().click();
    await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
    const ann = page.getByRole('link', { name: 'Ann Parent, 1 unread' });
    await ann.waitFor();
    await page.getByRole('link', { name: 'Unknown, 1 unread' }).waitFor();
    // Inbound text is text: the tags show as typed, never as markup.
    await page.getByText('Running late, save me a seat <b>please</b>').waitFor();
    expect(await page.locator('table b').count()).toBe(0);
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Conversations', level: 1 }).waitFor();
      await animationsDone(page);
      await screenshot(page, `conversations-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('link', { name: 'Ann Parent, 1 unread' }).click();
    await page.getByRole('heading', { name: 'Ann Parent', level: 1 }).waitFor();
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByText('Running late, save me a seat <b>please</b>').waitFor();
    // Too long: the schema's message under the box, nothing sent.
    await page.getByRole('textbox', { name: 'Reply' }).fill('x'.repeat(1601));
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply must be at most 1,600 characters').waitFor();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Reply' }).fill('See you soon, Ann! We saved you a seat.');
    await page.getByTestId('sms-counter').getByText('This message counts as 1 text per person').waitFor();
    const before = twilio.requests.length;
    await page.getByRole('button', { name: 'Send reply' }).click();
    await toast(page, 'Reply sent').waitFor();
    await log.getByText('See you soon, Ann! We saved you a seat.').waitFor();
    await log.getByText('Sent', { exact: true }).waitFor();
    expect(twilio.requests.slice(before)).toEqual([
      expect.objectContaining({
        To: '+61412000001',
        From: CHURCH_NUMBER,
        Body: 'See you soon, Ann! We saved you a seat.',
      }),
    ]);
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByText('Assigned to you').waitFor();
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Reopen' }).waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Ann Parent', level: 1 }).waitFor();
      await animationsDone(page);
      await screenshot(page, `conversation-thread-${width}`);
    }

    // Back in the list: read now, and under Closed.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('link', { name: 'Conversations' }).first().click();
    await page.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await page.getByRole('link', { name: 'Ann Parent', exact: true }).waitFor();
  });

  it('a keyword added on the Keywords screen adds the texter to a list and answers them', async () => {
    const youth = (await church.client.post('/api/contact-lists', { name: 'Youth', type: 'sms' })).body;
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, '/conversations');
    await page.getByRole('link', { name: 'Keywords' }).click();
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.getByText('No keywords yet.').waitFor();
    await page.getByRole('button', { name: 'Add keyword' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add keyword' });
    await dialog.getByRole('textbox', { name: 'Keyword' }).fill('stop');
    await dialog.getByRole('button', { name: 'Add keyword' }).click();
    await dialog.getByText('STOP is reserved for opting out, in or for help').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('textbox', { name: 'Keyword' }).fill('Join Youth');
    await dialog.getByRole('textbox', { name: 'Reply' }).fill('Welcome to youth! Fridays at 7.');
    await dialog.getByRole('combobox', { name: 'Add to list' }).click();
    await page.getByRole('option', { name: 'Youth' }).click();
    await dialog.getByRole('button', { name: 'Add keyword' }).click();
    await toast(page, 'Keyword added').waitFor();
    await page.getByRole('cell', { name: 'JOIN YOUTH', exact: true }).waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
      await animationsDone(page);
      await screenshot(page, `conversation-keywords-${width}`);
    }

    const before = twilio.requests.length;
    await text('+61412000003', 'join youth!');
    await expect
      .poll(async () => (await church.client.get(`/api/contact-lists/${youth.id}/contacts`)).body)
      .toEqual(expect.arrayContaining([expect.objectContaining({ phone: '+61412000003' })]));
    await expect.poll(() => twilio.requests.length).toBe(before + 1);
    expect(twilio.requests[before]).toMatchObject({ To: '+61412000003', Body: 'Welcome to youth! Fridays at 7.' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.reload();
    await page.getByRole('cell', { name: '1', exact: true }).waitFor();
  });

  it("on the shared number the Keywords screen says why keywords are off; Settings → Texting saves the church's own number", async () => {
    const hope = await registerChurch(e2e.app.url, 'Hope Chapel');
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, hope.user.username, hope.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Hope Chapel!$/ }).waitFor();
    await openInApp(page, '/conversations/keywords');
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    const why = page.getByRole('alert').filter({ hasText: 'Keywords are off on the shared number' });
    await why.getByText('on the shared number a reply cannot be told apart from a reply to another church').waitFor();
    expect(await page.getByRole('button', { name: 'Add keyword' }).first().isDisabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'keywords-shared-number-1366');

    await why.getByRole('link', { name: 'Add your number in Settings → Texting' }).click();
    const section = page.locator('#texting');
    await section.getByRole('heading', { name: 'Texting' }).waitFor();
    await section.getByText('Shared number', { exact: true }).waitFor();
    await animationsDone(page);
    await screenshot(section, 'settings-texting-shared-1366');
    await section.getByRole('textbox', { name: 'Twilio number' }).fill(HOPE_NUMBER);
    await section.getByRole('textbox', { name: 'Account SID' }).fill(HOPE_SID);
    await section.getByLabel('Auth Token').fill('not-the-token');
    await section.getByRole('button', { name: 'Save and check with Twilio' }).click();
    await section.getByText('Twilio refused this Account SID and Auth Token: check both').waitFor();
    await section.getByLabel('Auth Token').fill(HOPE_TOKEN);
    await section.getByRole('button', { name: 'Save and check with Twilio' }).click();
    await seeToast(page, 'Texting number saved');
    await section.getByText('Your own number', { exact: true }).waitFor();
    await section.getByText('Saved (ending 5b7d). Leave empty to keep it.').waitFor();
    expect(await section.getByLabel('Auth Token').inputValue()).toBe('');
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await section.getByRole('heading', { name: 'Texting' }).waitFor();
      await animationsDone(page);
      await screenshot(section, `settings-texting-${width}`);
    }

    // Keywords now work on Hope's own number.
    await page.goto('/conversations/keywords');
    await page.getByRole('heading', { name: 'Keywords', level: 1 }).waitFor();
    await page.getByText('No keywords yet.').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Keywords are off' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add keyword' }).first().isDisabled()).toBe(false);
  });
});
