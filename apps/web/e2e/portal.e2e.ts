import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addContact, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, shotsAtWidths, signIn, startE2E, toast } from './helpers';

// A member signs in to the church's portal by the link in their email, turns off
// one list and proposes a new phone (confirmed by the code texted to it); staff approve it from
// the dashboard's count; the contact's Activity tab shows both. Member screens at 390 px first.
browserDescribe(describe)('members portal', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await e2e.app.db.insertInto('churchProfiles').values({ userId: church.user.id, handle: 'grace-portal' }).execute();
  const ruth = await addContact(church.client, {
    firstName: 'Ruth',
    lastName: 'Moss',
    email: 'ruth@example.org',
    phone: '0412345678',
  });
  await church.client.put(`/api/contacts/${ruth.id}/consent`, { channel: 'email', status: 'subscribed' });
  const lists: Record<string, number> = {};
  for (const name of ['Prayer news', 'Youth events']) {
    const l = await church.client.post('/api/contact-lists', { name, type: 'email' });
    lists[name] = l.body.id;
    await church.client.post(`/api/contact-lists/${l.body.id}/contacts/${ruth.id}`);
  }
  await e2e.app.db
    .updateTable('contactLists')
    .set({ isPublic: true, publicDescription: 'News from the church, once a month' })
    .where('id', 'in', Object.values(lists))
    .execute();
  /** The newest message to `to`, once the worker has sent every portal message. */
  const latest = async (channel: 'email' | 'sms', to: string) => {
    await expect
      .poll(
        async () =>
          (
            await e2e.app.db
              .selectFrom('deliveries')
              .select('id')
              .where('userId', '=', church.user.id)
              .where('kind', '=', 'portal')
              .where('status', 'in', ['pending', 'sending'])
              .execute()
          ).length,
        { timeout: 60_000 },
      )
      .toBe(0);
    return e2e.app.db
      .selectFrom('outboxMessages')
      .select('text')
      .where('userId', '=', church.user.id)
      .where('channel', '=', channel)
      .where('toAddress', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  };
  const shots = (page: Page, name: string) =>
    shotsAtWidths(page, name, { height: 844, after: { width: 390, height: 844 } });

  it('signs in by link, turns off a list, proposes a phone; staff approve; Activity shows both', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
    const member = await context.newPage();
    await member.goto('/c/grace-portal/me');
    await member.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(member);
    await shots(member, 'portal-sign-in');
    await member.getByLabel('Enter your email or mobile number').fill('ruth@example.org');
    await member.getByRole('button', { name: 'Send me a link' }).click();
    await member.getByText('If we know this address, we have sent you a link').waitFor();
    await expectAccessible(member);

    // The sink's email: its link opens a page with a button (mail scanners only follow links).
    const email = await latest('email', 'ruth@example.org');
    const link = /http:\/\/\S+\/c\/grace-portal\/me\/link\/[\w-]+/.exec(email.text ?? '')![0];
    await member.goto(new URL(link).pathname);
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('heading', { name: 'Welcome' }).waitFor();
    expect(await member.getByRole('navigation').getByRole('link').allTextContents()).toEqual([
      'Subscriptions',
      'My details',
      'My household',
      'My schedule',
      'My giving',
      'My groups',
      'My events',
    ]);
    await member.getByText('Signed in as Ruth Moss.').waitFor();
    // On a 390 px phone every section's tab is whole and in sight (the bar wraps, nothing is cut).
    for (const tab of await member.getByRole('navigation').getByRole('link').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await tab.evaluate((a) => a.scrollWidth <= a.clientWidth)).toBe(true);
    }
    await expectAccessible(member);
    await shots(member, 'portal-home');

    await member.getByRole('navigation').getByRole('link', { name: 'Subscriptions' }).click();
    await member.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    expect(await member.getByLabel('Prayer news').isChecked()).toBe(true);
    await member.getByLabel('Youth events').uncheck();
    await member.getByRole('button', { name: 'Save subscriptions' }).click();
    await member.getByText('Your subscriptions are saved.').waitFor();
    expect(await member.getByLabel('Youth events').isChecked()).toBe(false);
    expect(await member.getByLabel('Email', { exact: true }).isChecked()).toBe(true);
    await expectAccessible(member);
    await shots(member, 'portal-subscriptions');

    await member.getByRole('navigation').getByRole('link', { name: 'My details' }).click();
    await member.getByLabel('Phone').fill('0498 765 432');
    // Every part of the address, not only the street.
    await member.getByLabel('Street address').fill('12 Vine Street');
    await member.getByLabel('City or town').fill('Bethel');
    await member.getByLabel('State or region').fill('NSW');
    await member.getByLabel('Postcode').fill('2999');
    await member.getByLabel('Country').fill('Australia');
    await member.getByRole('button', { name: 'Propose changes' }).click();
    await member.getByText('Thank you. The church will check your changes.').waitFor();
    const sms = await latest('sms', '+61498765432');
    await member
      .getByLabel('Enter the 6-digit code we texted to your new number')
      .fill(/\d{6}/.exec(sms.text ?? '')![0]);
    await member.getByRole('button', { name: 'Confirm my phone' }).click();
    await member
      .getByText(
        'Waiting for the church to approve: Phone, Street address, City or town, State or region, Postcode, Country.',
      )
      .waitFor();
    await expectAccessible(member);
    await shots(member, 'portal-details');

    await member.getByRole('navigation').getByRole('link', { name: 'My household' }).click();
    await member.getByText('No family members are linked to you yet.').waitFor();
    await expectAccessible(member);
    await shots(member, 'portal-household');

    // My schedule: accept a request, add blockout dates.
    const P = '/api/service-planner';
    const sound = (await church.client.post(`${P}/positions`, { name: 'Sound', category: 'Tech' })).body;
    const ruthMember = (await church.client.post(`${P}/members`, { contactId: ruth.id, positionIds: [sound.id] })).body;
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const plan = (
      await church.client.post(`${P}/plans`, { title: 'Morning Service', date: soon, serviceTimes: ['09:00', '11:00'] })
    ).body;
    await church.client.post(`${P}/plans/${plan.id}/assignments`, {
      memberId: ruthMember.id,
      positionId: sound.id,
      serviceTime: '09:00',
    });
    await member.getByRole('navigation').getByRole('link', { name: 'My schedule' }).click();
    await member.getByRole('heading', { name: 'My schedule', level: 1 }).waitFor();
    await member.getByText(/9:00 AM · Sound/).waitFor();
    await expectAccessible(member);
    await shots(member, 'portal-schedule');
    await member.getByRole('button', { name: /^Accept Morning Service/ }).click();
    await member.getByText('Thank you. You have accepted.').waitFor();
    await member.getByText('Accepted', { exact: true }).waitFor();
    await member.getByLabel('From', { exact: true }).fill('2031-05-10');
    await member.getByLabel('To', { exact: true }).fill('2031-05-01');
    await member.getByRole('button', { name: 'Add dates you are away' }).click();
    await member.getByText('End date must be on or after the start date').waitFor();
    await expectAccessible(member);
    await member.getByLabel('To', { exact: true }).fill('2031-05-19');
    await member.getByLabel('Reason (optional)').fill('Holiday');
    await member.getByRole('button', { name: 'Add dates you are away' }).click();
    await member.getByText('The dates you are away are saved.').waitFor();
    await member.getByText(/May 10, 2031 to .*May 19, 2031 · Holiday/).waitFor();
    await expectAccessible(member);
    await shots(member, 'portal-schedule-blockout');
    await context.close();

    // Staff: the dashboard's count, the queue, Approve.
    const { page: staff } = await e2e.newPage();
    await signIn(staff, e2e.app.url, church.user.username, church.password);
    await staff.getByText('1 member proposed new details.').waitFor();
    await staff.getByRole('link', { name: 'Review 1 update' }).click();
    await staff.getByRole('heading', { name: 'Profile updates' }).waitFor();
    await staff.getByText('0412 345 678 → 0498 765 432').waitFor();
    await expectAccessible(staff);
    await shotsAtWidths(staff, 'profile-updates');
    await staff.getByRole('button', { name: 'Approve Ruth Moss' }).click();
    await toast(staff, 'Update approved').waitFor();
    await staff.getByText('No profile updates are waiting.').waitFor();
    const approved = (await church.client.get(`/api/contacts/${ruth.id}`)).body;
    expect(approved.phone).toBe('0498 765 432');
    expect(approved.metadata).toMatchObject({ address: '12 Vine Street', city: 'Bethel', postalCode: '2999' });

    await staff.goto(`/contacts/detail/${ruth.id}?tab=activity`);
    const timeline = staff.getByLabel('Activity', { exact: true });
    const removed = timeline.getByRole('listitem').filter({ hasText: 'Removed from the list' });
    await removed.getByRole('link', { name: 'Youth events' }).waitFor();
    // Who did it: the person, in the portal; the approval by the church's account.
    await removed.getByText('by Ruth Moss, in the portal').waitFor();
    await timeline.getByText(/^Proposed new details in the members’ portal: Phone, Street address/).waitFor();
    const approval = timeline.getByRole('listitem').filter({ hasText: 'New details approved: Phone' });
    await approval.getByText(`by ${church.user.username} (staff)`).waitFor();
    await expectAccessible(staff);
    await screenshot(staff, 'portal-activity-1366');
  }, 120_000);
});
