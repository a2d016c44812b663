import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  signIn,
  startE2E,
  toast,
} from './helpers';

// Settings → Suppressed addresses: a bounced address is listed with its reason;
// removing it asks first, and the address leaves the list. A journey's enrolment says how many of
// the people's addresses are suppressed before it goes. With the platform's email warm-up (§8), the
// email campaign screens show the day's number.
browserDescribe(describe)('Suppressed addresses', async () => {
  const e2e = await startE2E({ emailWarmup: true });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await e2e.app.db
    .insertInto('emailSuppressions')
    .values({ userId: church.user.id, email: 'gone@example.org', reason: 'hard_bounce', detail: '5.1.1 User unknown' })
    .execute();

  it('lists a bounced address and removes it after asking', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, '/settings/sending');
    await page.getByRole('heading', { name: 'Suppressed addresses' }).waitFor();
    await page.getByRole('cell', { name: 'gone@example.org', exact: true }).waitFor();
    await page.getByText('5.1.1 User unknown').waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Suppressed addresses' }).scrollIntoViewIfNeeded();
      await animationsDone(page);
      await screenshot(page, `suppressions-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Remove gone@example.org' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove from the suppression list' });
    await dialog.getByText('Remove gone@example.org? The next emails will be sent to it again.').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Address removed from the suppression list').waitFor();
    await page.getByText('No suppressed addresses.').waitFor();
    expect((await church.client.get('/api/suppressions')).body).toEqual([]);
  });

  it('says how many addresses are suppressed before enrolling a list in a journey with email', async () => {
    await e2e.app.db
      .insertInto('emailSuppressions')
      .values({ userId: church.user.id, email: 'bounced@example.org', reason: 'hard_bounce', detail: '5.1.1' })
      .execute();
    const list = (await church.client.post('/api/contact-lists', { name: 'Newcomers', type: 'email' })).body;
    for (const [firstName, email, phone] of [
      ['Bounced', 'bounced@example.org', '+61412000101'],
      ['Fine', 'fine@example.org', '+61412000102'],
    ]) {
      const c = await church.client.post('/api/contacts', { firstName, lastName: 'X', email, phone });
      expect(c.status, c.text).toBe(201);
      const added = await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.body.id}`);
      expect(added.status, added.text).toBeLessThan(300);
    }
    expect((await church.client.post('/api/suppressions/count', { listId: list.id })).body).toEqual({ suppressed: 1 });
    const journey = (
      await church.client.post('/api/journeys', {
        name: 'Welcome',
        trigger: { kind: 'manual' },
        steps: [{ id: 'hi', kind: 'email', name: 'Hi', subject: 'Hi', content: '<p>Hi</p>', next: null }],
      })
    ).body;
    expect((await church.client.post(`/api/journeys/${journey.id}/activate`)).status).toBe(200);

    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/journeys/${journey.id}` });
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Enrol people' }).click();
    const enrol = page.getByRole('dialog', { name: 'Enrol people in Welcome' });
    await enrol.locator('.mantine-SegmentedControl-label', { hasText: 'Everyone on a list' }).click();
    await enrol.getByRole('combobox', { name: 'List' }).click();
    await page.getByRole('option', { name: 'Newcomers' }).click();
    await enrol.getByRole('button', { name: 'Enrol 2 people' }).waitFor();
    await enrol.getByText('1 address is suppressed and will be skipped.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'suppressions-enrol-1366');
  });

  it("shows the day's warm-up number on the email campaign screens; a send skips the bounced address and says so", async () => {
    const lists = (await church.client.get('/api/contact-lists')).body as { id: number; name: string }[];
    const newcomers = lists.find((l) => l.name === 'Newcomers')!;
    const campaign = (
      await church.client.post('/api/email-campaigns', {
        name: 'Harvest',
        subject: 'Harvest supper',
        content: '<p>Join us</p>',
        listIds: [newcomers.id],
      })
    ).body as { id: number };
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/email-campaigns' });
    const notice = page.getByRole('alert').filter({ hasText: 'Warming up: at most 50 emails today' });
    await notice
      .getByText(
        "Day 1 of 7 of warming up: your church's email goes out to at most 50 addresses today (0 sent, 50 left).",
      )
      .waitFor();
    await notice.getByText(/when up to 100 can go\./).waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await screenshot(page, `email-warmup-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Send Harvest' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send Harvest?' });
    await confirm.getByText(/^Send to 1 person on .*Newcomers/).waitFor();
    await confirm.getByText('1 address is suppressed and will be skipped.').waitFor();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Send to 1 person' }).click();
    await confirm.waitFor({ state: 'detached' });
    const addresses = async () =>
      (await e2e.app.db.selectFrom('deliveries').select('address').where('campaignId', '=', campaign.id).execute()).map(
        (d) => d.address,
      );
    await expect.poll(addresses, { timeout: 15_000 }).toEqual(['fine@example.org']);
  });
});
