import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addContact, registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  choose,
  expectAccessible,
  screenshot,
  shotsAtWidths,
  signIn,
  startE2E,
} from './helpers';

// Groups from the three sides: a visitor finds a Tuesday group on the public finder and asks to
// join; the group's leader, signed in to the members' portal on a 390 px phone, approves and takes
// attendance (once offline: kept on the phone, sent when the network returns, recorded once);
// staff see the attendance on the group's page.
browserDescribe(describe)('groups', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await e2e.app.db.insertInto('churchProfiles').values({ userId: church.user.id, handle: 'grace-groups' }).execute();
  const c = church.client;
  const lydia = await addContact(c, {
    firstName: 'Lydia',
    lastName: 'Dye',
    email: 'lydia@example.org',
    phone: '+15550100',
  });
  const tom = await addContact(c, { firstName: 'Tom', lastName: 'Reed', email: 'tom@example.org' });
  const ann = await addContact(c, { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.org' });
  const tuesday = (
    await c.post('/api/groups', {
      name: 'Tuesday Night',
      type: 'Small group',
      description: 'Dinner, a Bible passage and prayer.',
      frequency: 'weekly',
      weekday: 2,
      time: '19:00',
      area: 'Northside',
      tags: ['kid-friendly'],
      joinMode: 'request',
      leaderContactIds: [lydia.id],
    })
  ).body;
  await c.post(`/api/groups/${tuesday.id}/members`, { contactIds: [tom.id, ann.id] });
  const sunday = (
    await c.post('/api/groups', { name: 'Sunday Class', type: 'Class', frequency: 'weekly', weekday: 0, time: '09:00' })
  ).body;

  const shots = (page: Page, name: string) => shotsAtWidths(page, name, { height: 844 });
  /** The newest email to `to`, once the worker has sent every portal message. */
  const latestEmail = async (to: string) => {
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
      .where('toAddress', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  };

  it('a visitor finds the Tuesday group and asks to join', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/c/grace-groups/groups');
    await page.getByRole('heading', { name: 'Find a group', level: 1 }).waitFor();
    await page.getByLabel('Day').selectOption({ label: 'Tuesday' });
    await page.getByRole('button', { name: 'Find a group' }).click();
    await page.getByRole('status').filter({ hasText: '1 group' }).waitFor();
    await expect.poll(() => page.getByText('Sunday Class').count()).toBe(0);
    await expectAccessible(page);
    await shots(page, 'groups-finder');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: /Ask to join Tuesday Night/ }).click();
    await page.getByRole('heading', { name: 'Tuesday Night', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Nia Newcomer');
    await page.getByLabel('Email').fill('nia@example.org');
    await page.getByLabel('Note (optional)').fill('New in town, free on Tuesdays.');
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await page.getByRole('heading', { name: 'Request sent', level: 1 }).waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('the leader approves in the portal and takes attendance at 390 px, offline first', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/c/grace-groups/me');
    await page.getByLabel('Enter your email or mobile number').fill('lydia@example.org');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('If we know this address, we have sent you a link').waitFor();
    const email = await latestEmail('lydia@example.org');
    const link = /http:\/\/\S+\/c\/grace-groups\/me\/link\/[\w-]+/.exec(email.text ?? '')![0];
    await page.goto(new URL(link).pathname);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('link', { name: 'My groups' }).click();
    await page.getByRole('heading', { name: 'My groups', level: 1 }).waitFor();
    await expect.poll(() => page.getByText('You lead this group').count()).toBe(1);
    await expectAccessible(page);
    await shots(page, 'groups-portal-my-groups');
    await page.setViewportSize({ width: 390, height: 844 });

    // Join requests: approve Nia; the roster has phone and email.
    await page.getByRole('link', { name: 'Roster and requests' }).click();
    await page.getByRole('heading', { name: 'Tuesday Night', level: 1 }).waitFor();
    await page.getByText('New in town, free on Tuesdays.').waitFor();
    await expectAccessible(page);
    await shots(page, 'groups-portal-leader');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Approve Nia Newcomer' }).click();
    await page.getByText('Approved: they are in the group and have been told.').waitFor();
    await expect.poll(() => page.getByRole('link', { name: '+15550100' }).count()).toBe(1);

    // Three taps: today's meeting, untick Ann (everyone else came), a visitor, Save. Offline first.
    await page.getByRole('link', { name: "Take today's attendance" }).click();
    await page.getByRole('heading', { name: 'Take attendance', level: 1 }).waitFor();
    for (const name of ['Lydia Dye', 'Tom Reed', 'Ann Lee', 'Nia Newcomer'])
      expect(await page.getByRole('checkbox', { name }).isChecked(), name).toBe(true);
    await page.getByRole('checkbox', { name: 'Ann Lee' }).uncheck();
    await page.getByLabel('Visitor 1 (name)').fill('Vera Visitor');
    await expectAccessible(page);
    await shots(page, 'groups-portal-attendance');
    await page.setViewportSize({ width: 390, height: 844 });
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Save attendance' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved on this phone' }).waitFor();
    const queued = await page.evaluate(() => JSON.parse(localStorage.getItem('lampstand-attendance') ?? '[]').length);
    expect(queued).toBe(1);
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: 'Attendance saved for Tuesday Night' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('lampstand-attendance'))).toBe('[]');
    await screenshot(page, 'groups-portal-attendance-saved-390', { fullPage: false });
    const events = await e2e.app.db
      .selectFrom('events')
      .select('id')
      .where('userId', '=', church.user.id)
      .where('type', '=', 'group.attendance_recorded')
      .execute();
    expect(events).toHaveLength(1);
    await context.close();
  });

  it('staff see the attendance on the group page', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('link', { name: 'Groups', exact: true }).click();
    await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Tuesday Night' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'groups-staff-list');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Tuesday Night' }).click();
    await page.getByRole('heading', { name: 'Tuesday Night', level: 1 }).waitFor();
    const meetings = page.getByRole('table', { name: 'Meetings' });
    await meetings.getByText('Vera Visitor').waitFor();
    await meetings.getByText('Lydia Dye, Nia Newcomer, Tom Reed').waitFor();
    await expect.poll(() => page.getByText('75%').count()).toBeGreaterThan(0);
    const members = page.getByRole('table', { name: 'Members' });
    await members.getByRole('link', { name: 'Nia Newcomer' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'groups-staff-group');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Its dialogs, open: taking attendance, adding people, copying Tom to the Sunday class.
    await page.getByRole('button', { name: 'Take attendance' }).click();
    const taking = page.getByRole('dialog', { name: 'Attendance: Tuesday Night' });
    await taking.getByRole('checkbox', { name: 'Tom Reed' }).waitFor();
    await expectAccessible(page);
    await taking.getByRole('button', { name: 'Cancel' }).click();
    await taking.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Add members' }).click();
    const adding = page.getByRole('dialog', { name: 'Add people to Tuesday Night' });
    await adding.getByRole('button', { name: 'Add to group' }).click();
    await adding.getByText('Choose at least one contact').waitFor();
    await expectAccessible(page);
    await adding.getByRole('button', { name: 'Cancel' }).click();
    await adding.waitFor({ state: 'hidden' });
    await members.getByRole('checkbox', { name: 'Select Tom Reed' }).check();
    await page.getByRole('button', { name: 'Move or copy 1' }).click();
    const moving = page.getByRole('dialog', { name: 'Move or copy 1 person' });
    await moving.getByText('Copy (stay in both)').click();
    await choose(page, 'To group', 'Sunday Class');
    await expectAccessible(page);
    await moving.getByRole('button', { name: 'Copy', exact: true }).click();
    await moving.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await c.get(`/api/groups/${sunday.id}/members`)).body.map((m: { name: string }) => m.name))
      .toEqual(['Tom Reed']);

    // The editor, with its errors showing: axe clean too.
    await page.getByRole('button', { name: 'Edit group' }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit Tuesday Night' });
    await drawer.getByLabel('Name').fill('');
    await drawer.getByRole('button', { name: 'Save group' }).click();
    await drawer.getByText('Name is required').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'groups-staff-editor-1280', { fullPage: false });
    await context.close();
  });
  it("on a phone, staff tick several members and copy them; attendance starts on the church's today", async () => {
    // The church keeps Kiritimati's time (UTC+14), this phone Pago Pago's (UTC−11): 25 hours apart,
    // so their dates always differ.
    const zoned = await c.put('/api/settings', { timeZone: 'Pacific/Kiritimati', country: 'US' });
    expect(zoned.body.timeZone, zoned.text).toBe('Pacific/Kiritimati');
    const churchToday = () =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date()).slice(0, 10);
    const context = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      viewport: { width: 390, height: 844 },
      timezoneId: 'Pacific/Pago_Pago',
    });
    const page = await context.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/groups/${tuesday.id}` });
    await page.getByRole('heading', { name: 'Tuesday Night', level: 1 }).waitFor();
    const members = page.getByRole('list', { name: 'Members' });
    await members.getByRole('link', { name: 'Nia Newcomer' }).waitFor();

    // Each card has its tick box; the chosen people's actions wait at the foot of the screen.
    await members.getByRole('checkbox', { name: 'Select Ann Lee' }).check();
    await members.getByRole('checkbox', { name: 'Select Nia Newcomer' }).check();
    await page.getByText('2 selected').waitFor();
    await expectAccessible(page);
    await animationsDone(page);
    await screenshot(page, 'groups-staff-members-selected-390', { fullPage: false });
    await page.getByRole('button', { name: 'Move or copy 2' }).click();
    const moving = page.getByRole('dialog', { name: 'Move or copy 2 people' });
    await moving.getByText('Ann Lee, Nia Newcomer').waitFor();
    await moving.getByText('Copy (stay in both)').click();
    await choose(page, 'To group', 'Sunday Class');
    await moving.getByRole('button', { name: 'Copy', exact: true }).click();
    await moving.waitFor({ state: 'hidden' });
    await expect
      .poll(async () =>
        (await c.get(`/api/groups/${sunday.id}/members`)).body.map((m: { name: string }) => m.name).sort(),
      )
      .toEqual(['Ann Lee', 'Nia Newcomer', 'Tom Reed']);
    await expect.poll(() => page.getByText('2 selected').count()).toBe(0);
    // 'Select all' ticks every card.
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.getByText('4 selected').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.getByText('4 selected').count()).toBe(0);

    // 'Take attendance' opens on the church's date, not this phone's.
    const phoneToday = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
    const before = churchToday();
    expect(phoneToday).not.toBe(before);
    await page.getByRole('button', { name: 'Take attendance' }).click();
    const taking = page.getByRole('dialog', { name: 'Attendance: Tuesday Night' });
    const date = await taking.getByLabel('Meeting date').inputValue();
    expect([before, churchToday()]).toContain(date);
    await taking.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });
});
