import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { createPortalSession, runPlannerDue } from '@lampstand/api/server';
import {
  animationsDone,
  browserDescribe,
  choose,
  expectAccessible,
  screenshot,
  seeToast,
  signIn,
  startE2E,
} from './helpers';

/** A link from the newest email to `to` whose subject matches, read from the outbox (the local mail capture). */
async function linkIn(e2e: Awaited<ReturnType<typeof startE2E>>, to: string, subject: string, pattern: RegExp) {
  const mail = () =>
    e2e.app.db
      .selectFrom('outboxMessages')
      .select(['subject', 'text'])
      .where('toAddress', '=', to)
      .where('subject', '=', subject)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  await expect.poll(mail).toBeTruthy();
  const url = new URL(pattern.exec((await mail())!.text!)![0]);
  return url.pathname + url.search;
}

async function atWidths(page: Page, name: string, heading: string) {
  for (const width of [390, 1024, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole('heading', { name: heading }).waitFor();
    await screenshot(page, `${name}-${width}`);
  }
}

/** A date in words, as the emails and pages say it ('Sunday, March 14, 2032') or the matrix ('Mar 14, 2032'). */
const dayIn = (iso: string, o: Intl.DateTimeFormatOptions) =>
  new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { ...o, timeZone: 'UTC' });
const longDay = (iso: string) => dayIn(iso, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
/** 'Sunday, December 20': how a serving question names its day (with ' at 10:00 AM' after it). */
const weekDay = (iso: string) => dayIn(iso, { weekday: 'long', month: 'long', day: 'numeric' });
const shortDay = (iso: string) => dayIn(iso, { month: 'short', day: 'numeric', year: 'numeric' });

// Serving in a browser, as one story: the planner auto-schedules four Sundays (one volunteer is
// away), sends the requests after one confirmation; a volunteer declines from her email and asks
// for a substitute, a teammate accepts from his, the matrix shows it; a reminder arrives on a
// controlled clock. Then the planner's reminder settings and the portal's 'Swap a date'.
browserDescribe(describe)('Serving: auto-schedule, substitutes and reminders', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const api = church.client;
  const BASE = '/api/service-planner';
  // Four Sundays, the first at least two weeks ahead.
  const day = new Date(Date.now() + 14 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((7 - day.getUTCDay()) % 7));
  const sundays = [0, 1, 2, 3].map((w) => new Date(day.getTime() + w * 7 * 86_400_000).toISOString().slice(0, 10));
  const date = sundays[0]!;

  it('auto-schedules four Sundays, sends the requests; a decline from the email is covered by a teammate, the matrix shows it; a reminder on a controlled clock', async () => {
    const sound = (await api.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
    // A position nobody is qualified for: the proposal says why it stays empty.
    await api.post(`${BASE}/positions`, { name: 'Camera', category: 'Tech' });
    const add = async (name: string) =>
      (await api.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}@example.org`, positionIds: [sound.id] }))
        .body;
    const ann = await add('Ann');
    await add('Ben');
    await add('Cal');
    await api.post(`${BASE}/blockouts`, {
      memberId: ann.id,
      startsOn: sundays[1],
      endsOn: sundays[1],
      reason: 'Holiday',
    });
    for (const d of sundays)
      await api.post(`${BASE}/plans`, { title: 'Sunday Service', date: d, startTime: '10:00', location: 'Main Hall' });

    // The planner proposes a schedule for the four Sundays (the upcoming plans are chosen at first).
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/service-planner' });
    await page.getByRole('button', { name: 'Auto-schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Auto-schedule' });
    for (const d of sundays) await dialog.getByText(`${shortDay(d)} · Sunday Service`).waitFor();
    await dialog.getByRole('combobox', { name: 'Positions' }).click();
    await page.getByRole('option', { name: 'Tech: Sound' }).click();
    await page.getByRole('option', { name: 'Tech: Camera' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Propose' }).click();
    const proposal = dialog.getByRole('table', { name: 'Proposed schedule' });
    await proposal.waitFor();
    // A person's cell on a date (the person's name is the row's header, not a cell).
    const cell = (grid: Locator, name: string, d: string) =>
      grid
        .getByRole('row', { name: new RegExp(`^${name}`) })
        .getByRole('cell')
        .nth(sundays.indexOf(d));
    // What a cell shows (the everyday matrix's cells are buttons named 'Ann, Sun, Mar 14, 2032: …').
    const text = async (l: Locator) =>
      (await l.innerText())
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^\w+, \w{3}, \w{3} \d+, \d{4}: /, '');
    // Rotation: Ann, Ben (Ann is away), Cal, then Ann again (served least recently).
    expect(await Promise.all(sundays.map((d) => text(cell(proposal, 'Ann', d))))).toEqual([
      'Sound Proposed',
      'Away Holiday',
      '– not scheduled',
      'Sound Proposed',
    ]);
    expect(await text(cell(proposal, 'Ben', sundays[1]!))).toBe('Sound Proposed');
    expect(await text(cell(proposal, 'Cal', sundays[2]!))).toBe('Sound Proposed');
    expect(await text(cell(proposal, 'Not filled', sundays[0]!))).toBe(
      'Camera: not filled Nobody active is qualified for Camera',
    );
    // Giving Ann the Sunday she is away warns in her words; the planner puts Ben back.
    const away = new Date(`${sundays[1]}T12:00:00Z`);
    const warning = `Ann is away ${away.getUTCDate()} ${away.toLocaleDateString('en-GB', { month: 'short', timeZone: 'UTC' })}`;
    const second = dialog.getByRole('combobox', { name: new RegExp(`^Sound on .*${shortDay(sundays[1]!)}`) });
    await second.click();
    await page.getByRole('option', { name: 'Ann', exact: true }).click();
    await dialog.getByText(warning).waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await screenshot(page, `serving-proposal-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await second.click();
    await page.getByRole('option', { name: 'Ben', exact: true }).click();
    await dialog.getByText(warning).waitFor({ state: 'detached' });

    // One confirmation naming how many people get how many requests.
    await dialog.getByRole('button', { name: 'Send requests' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send requests' });
    await confirm.getByText('Send 4 requests to 3 people? Each gets an email with Accept and Decline.').waitFor();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Send requests' }).click();
    await seeToast(page, '4 requests to 3 people.');
    // Ann, asked for two Sundays, gets one email listing both, each with its own answer.
    const both = await linkIn(e2e, 'ann@example.org', 'Can you serve on 2 dates?', /https?:\/\/\S+\/serve\/[\w-]+/);
    expect(both).toMatch(/^\/serve\//);

    // Cal declines from his email's link and asks his teammates to cover.
    const decline = await linkIn(
      e2e,
      'cal@example.org',
      `Can you serve as Sound on ${longDay(sundays[2]!)}?`,
      /https?:\/\/\S+\/serve\/[\w-]+\?answer=decline/,
    );
    const calCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const calPage = await calCtx.newPage();
    await calPage.goto(decline);
    await calPage.getByText(`${longDay(sundays[2]!)} at 10:00 AM`).waitFor();
    await calPage.getByRole('button', { name: "Decline: I can't serve" }).click();
    await calPage.getByRole('heading', { name: 'Thanks for letting us know' }).waitFor();
    await expectAccessible(calPage);
    await atWidths(calPage, 'serving-declined', 'Thanks for letting us know');
    await calPage.getByRole('button', { name: 'Ask my teammates to cover' }).click();
    await calPage.getByRole('heading', { name: 'Teammates asked' }).waitFor();
    await calPage
      .getByText(
        `We asked 2 teammates who can serve as Sound on ${weekDay(sundays[2]!)} at 10:00 AM. The first to accept gets it.`,
      )
      .waitFor();
    await expectAccessible(calPage);
    await calCtx.close();

    // Ben accepts from his email; Ann, later, finds it filled.
    const question = `Can you cover Sound on ${weekDay(sundays[2]!)} at 10:00 AM?`;
    const coverLink = /https?:\/\/\S+\/serve\/cover\/[\w-]+/;
    const benLink = await linkIn(e2e, 'ben@example.org', question, coverLink);
    const annLink = await linkIn(e2e, 'ann@example.org', question, coverLink);
    const benCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const benPage = await benCtx.newPage();
    await benPage.goto(benLink);
    await benPage.getByRole('heading', { name: question }).waitFor();
    await expectAccessible(benPage);
    await atWidths(benPage, 'serving-cover', question);
    await benPage.getByRole('button', { name: 'Accept' }).click();
    await benPage.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await benCtx.close();
    const annCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const annPage = await annCtx.newPage();
    await annPage.goto(annLink);
    await annPage.getByText('This slot is filled:').waitFor();
    await annCtx.close();
    // The leader is told by email.
    await linkIn(
      e2e,
      church.user.email,
      `Ben covers Sound on ${weekDay(sundays[2]!)} at 10:00 AM`,
      /https?:\/\/\S+\/service-planner\/plans\/\d+/,
    );

    // The matrix shows it: Cal declined, Ben accepted the third Sunday; Ann away on the second.
    await page.getByRole('tab', { name: 'Matrix' }).click();
    await page.getByLabel('From', { exact: true }).fill(sundays[0]!);
    await page.getByLabel('To', { exact: true }).fill(sundays[3]!);
    await choose(page, 'Team', 'Tech');
    const grid = page.getByRole('table', { name: 'Scheduling matrix' });
    await expect.poll(() => text(cell(grid, 'Cal', sundays[2]!))).toBe('Sound Declined');
    expect(await text(cell(grid, 'Ben', sundays[2]!))).toBe('Sound Accepted');
    expect(await text(cell(grid, 'Ben', sundays[1]!))).toBe('Sound Pending');
    expect(await text(cell(grid, 'Ann', sundays[1]!))).toBe('Away Holiday');
    expect(await text(cell(grid, 'Ann', sundays[0]!))).toBe('Sound Pending');
    // The camera slots nobody could fill stay in the matrix, with why.
    expect(await text(cell(grid, 'Not filled', sundays[0]!))).toBe(
      'Camera: not filled Nobody active is qualified for Camera',
    );
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await screenshot(page, `serving-matrix-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    // Scheduling Ann by hand on the day she is away warns, and offers 'Schedule anyway'.
    await cell(grid, 'Ann', sundays[1]!).getByRole('button').click();
    const annDialog = page.getByRole('dialog', { name: new RegExp(`^Ann · .*${shortDay(sundays[1]!)}`) });
    await choose(page, 'Position', 'Tech: Sound');
    await annDialog.getByRole('button', { name: 'Assign' }).click();
    await annDialog.getByText(warning).waitFor();
    await annDialog.getByRole('button', { name: 'Schedule anyway' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await annDialog.waitFor({ state: 'hidden' });
    expect(await text(cell(grid, 'Ann', sundays[1]!))).toBe('Away Holiday');

    // A reminder on a controlled clock: one day before 10:00 on the first Sunday (UTC: the church's zone).
    const deps = e2e.app.deps;
    const dueDeps = { db: deps.db, jobs: deps.jobs, email: deps.email, sms: deps.sms, config: deps.delivery };
    const oneDayBefore = new Date(`${date}T10:00:00Z`);
    oneDayBefore.setUTCDate(oneDayBefore.getUTCDate() - 1);
    expect((await runPlannerDue(dueDeps, { now: oneDayBefore })).reminders).toBe(1);
    const reminder = await linkIn(
      e2e,
      'ann@example.org',
      `Reminder: Sunday Service on ${longDay(date)} at 10:00 AM`,
      /https?:\/\/\S+\/serve\/[\w-]+/,
    );
    // Its link opens Ann's answer page, still unanswered.
    const annAgain = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const reminded = await annAgain.newPage();
    await reminded.goto(reminder);
    await reminded.getByRole('heading', { name: 'Can you serve?' }).waitFor();
    await reminded.getByText(`${longDay(date)} at 10:00 AM`).waitFor();
    await annAgain.close();
    // Exactly once: the same clock again sends nothing.
    expect((await runPlannerDue(dueDeps, { now: oneDayBefore })).reminders).toBe(0);
  }, 180_000);

  it("the planner's reminder settings; the portal's 'Swap a date'", async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/service-planner?tab=team' });
    const card = page.getByRole('heading', { name: 'Reminders and substitutes' });
    await card.waitFor();
    await page.getByRole('checkbox', { name: '7 days' }).check();
    await page.getByRole('checkbox', { name: '3 days' }).uncheck();
    await page.getByRole('textbox', { name: 'Hours to find a substitute' }).fill('24');
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await card.waitFor();
      await animationsDone(page);
      await screenshot(page, `serving-settings-${width}`);
    }
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Reminder settings saved').first().waitFor();
    expect((await api.get(`${BASE}/settings`)).body).toEqual({ reminderDays: [7, 1], substituteHours: 24 });

    // The portal: Dana serves on the plan and offers her date to her teammates.
    const handle = 'grace-serving';
    await e2e.app.db.insertInto('churchProfiles').values({ userId: church.user.id, handle }).execute();
    const keys = (await api.post(`${BASE}/positions`, { name: 'Keys' })).body;
    const contact = (
      await api.post('/api/contacts', {
        firstName: 'Dana',
        lastName: 'Lee',
        email: 'dana@example.org',
        phone: '0412345678',
      })
    ).body;
    const dana = (await api.post(`${BASE}/members`, { contactId: contact.id, positionIds: [keys.id] })).body;
    await api.post(`${BASE}/members`, { name: 'Eli', email: 'eli@example.org', positionIds: [keys.id] });
    const plan = (await api.post(`${BASE}/plans`, { title: 'Evening Worship', date, startTime: '18:00' })).body;
    await api.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: dana.id, positionId: keys.id });
    const member = await e2e.browser.newContext({ baseURL: e2e.app.url });
    await member.addCookies([
      {
        name: 'lampstand_portal',
        value: await createPortalSession(e2e.app.db, church.user.id, [contact.id]),
        url: `${e2e.app.url}/c/${handle}/me`,
      },
    ]);
    const portal = await member.newPage();
    await portal.goto(`/c/${handle}/me/swaps`);
    await portal.getByRole('heading', { name: 'Swap a date', level: 1 }).waitFor();
    await portal.getByRole('heading', { name: 'Evening Worship' }).waitFor();
    await expectAccessible(portal);
    await atWidths(portal, 'serving-portal-swaps', 'Swap a date');
    await portal.getByRole('button', { name: 'Offer to teammates' }).click();
    await portal.getByText(`We asked 1 teammate who can serve as Keys on ${weekDay(date)} at 6:00 PM.`).waitFor();
    await portal.getByText('Your teammates are being asked.').waitFor();
    await expectAccessible(portal);
    await member.close();
    await linkIn(
      e2e,
      'eli@example.org',
      `Can you cover Keys on ${weekDay(date)} at 6:00 PM?`,
      /https?:\/\/\S+\/serve\/cover\/[\w-]+/,
    );
  });
});
