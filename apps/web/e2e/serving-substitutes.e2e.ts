import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { createPortalSession, runPlannerDue } from '@lampstand/api/server';
import { animationsDone, browserDescribe, expectAccessible, screenshot, signIn, startE2E } from './helpers';

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

// Issue 31 §6–8 in a browser: a volunteer declines from the email and asks for a substitute, a
// teammate accepts from their email, the plan shows it; a reminder arrives on a controlled clock;
// the planner's reminder settings and the portal's 'Swap a date'.
browserDescribe(describe)('Serving: substitutes and reminders', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const api = church.client;
  const BASE = '/api/service-planner';
  // The Sunday at least two weeks ahead.
  const day = new Date(Date.now() + 14 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((7 - day.getUTCDay()) % 7));
  const date = day.toISOString().slice(0, 10);

  it('declined from the email, covered by the first teammate to accept, shown on the plan; a reminder on a controlled clock', async () => {
    const sound = (await api.post(`${BASE}/positions`, { name: 'Sound', category: 'Tech' })).body;
    const add = async (name: string) =>
      (await api.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}@example.org`, positionIds: [sound.id] }))
        .body;
    const ann = await add('Ann');
    await add('Ben');
    await add('Cal');
    const plan = (
      await api.post(`${BASE}/plans`, { title: 'Sunday Service', date, startTime: '10:00', location: 'Main Hall' })
    ).body;
    await api.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: ann.id, positionId: sound.id });
    expect((await api.post(`${BASE}/plans/${plan.id}/send-requests`)).status).toBe(200);

    // Ann declines from her email's link and asks her teammates to cover.
    const decline = await linkIn(
      e2e,
      'ann@example.org',
      `Can you serve as Sound on ${day.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}?`,
      /https?:\/\/\S+\/serve\/[\w-]+\?answer=decline/,
    );
    const annCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const annPage = await annCtx.newPage();
    await annPage.goto(decline);
    await annPage.getByRole('button', { name: "Decline: I can't serve" }).click();
    await annPage.getByRole('heading', { name: 'Thanks for letting us know' }).waitFor();
    await expectAccessible(annPage);
    await atWidths(annPage, 'serving-declined', 'Thanks for letting us know');
    await annPage.getByRole('button', { name: 'Ask my teammates to cover' }).click();
    await annPage.getByRole('heading', { name: 'Teammates asked' }).waitFor();
    await annPage
      .getByText('We asked 2 teammates who can serve as Sound on Sunday 10:00. The first to accept gets it.')
      .waitFor();
    await expectAccessible(annPage);
    await atWidths(annPage, 'serving-teammates-asked', 'Teammates asked');
    await annCtx.close();

    // Ben accepts from his email; Cal, later, finds it filled.
    const question = 'Can you cover Sound on Sunday 10:00?';
    const coverLink = /https?:\/\/\S+\/serve\/cover\/[\w-]+/;
    const benLink = await linkIn(e2e, 'ben@example.org', question, coverLink);
    const calLink = await linkIn(e2e, 'cal@example.org', question, coverLink);
    const benCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const benPage = await benCtx.newPage();
    await benPage.goto(benLink);
    await benPage.getByRole('heading', { name: question }).waitFor();
    await expectAccessible(benPage);
    await atWidths(benPage, 'serving-cover', question);
    await benPage.getByRole('button', { name: 'Accept' }).click();
    await benPage.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await benCtx.close();
    const calCtx = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const calPage = await calCtx.newPage();
    await calPage.goto(calLink);
    await calPage.getByText('This slot is filled:').waitFor();
    await calCtx.close();

    // The planner sees Ben accepted on the plan; the leader was told by email.
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.goto(`/service-planner/plans/${plan.id}`);
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
    await page.getByTestId('assignment').filter({ hasText: 'Ben' }).getByText('Confirmed').waitFor();
    await page.getByTestId('assignment').filter({ hasText: 'Ann' }).getByText('Declined').waitFor();
    await linkIn(
      e2e,
      church.user.email,
      'Ben covers Sound on Sunday 10:00',
      /https?:\/\/\S+\/service-planner\/plans\/\d+/,
    );

    // A reminder on a controlled clock: one day before 10:00 on the plan's date (UTC: the church's zone).
    const deps = e2e.app.deps;
    const oneDayBefore = new Date(`${date}T10:00:00Z`);
    oneDayBefore.setUTCDate(oneDayBefore.getUTCDate() - 1);
    const due = await runPlannerDue(
      { db: deps.db, jobs: deps.jobs, email: deps.email, sms: deps.sms, config: deps.delivery },
      { now: oneDayBefore },
    );
    expect(due.reminders).toBe(1);
    const reminders = await e2e.app.db
      .selectFrom('deliveries')
      .select(['plannerNotice', 'address'])
      .where('kind', '=', 'planner-notice')
      .where('plannerNotice', 'like', 'reminder:%')
      .execute();
    expect(reminders).toEqual([{ plannerNotice: 'reminder:1', address: 'ben@example.org' }]);
    const when = day.toLocaleDateString('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    });
    await linkIn(
      e2e,
      'ben@example.org',
      `Reminder: Sunday Service on ${when} at 10:00 AM`,
      /https?:\/\/\S+\/serve\/[\w-]+/,
    );
    // Exactly once: the same clock again sends nothing.
    expect(
      (
        await runPlannerDue(
          { db: deps.db, jobs: deps.jobs, email: deps.email, sms: deps.sms, config: deps.delivery },
          { now: oneDayBefore },
        )
      ).reminders,
    ).toBe(0);
  });

  it("the planner's reminder settings; the portal's 'Swap a date'", async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.goto('/service-planner?tab=team');
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
    await portal.getByText('We asked 1 teammate who can serve as Keys on Sunday 18:00.').waitFor();
    await portal.getByText('Your teammates are being asked.').waitFor();
    await expectAccessible(portal);
    await member.close();
    await linkIn(e2e, 'eli@example.org', 'Can you cover Keys on Sunday 18:00?', /https?:\/\/\S+\/serve\/cover\/[\w-]+/);
  });
});
