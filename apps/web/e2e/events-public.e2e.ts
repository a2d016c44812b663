import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, shotsAtWidths, startE2E } from './helpers';

// A church's public events in Chromium: staff make a paid event with a question and 2 seats
// (through the REST API: the staff screens are tested on their own); Ann registers two people on
// the event's page (no script before payment) and pays in demo mode; Ben, registering next, is
// waitlisted; Ann's registration is cancelled; Ben gets the offer link by email, claims the seat
// and pays. axe on each page; screenshots at 390, 1024 and 1366 px.
browserDescribe(describe)('public events', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await e2e.app.db.insertInto('churchProfiles').values({ userId: church.user.id, handle: 'grace-events' }).execute();
  const c = church.client;
  const inDays = (d: number, h = 18) => {
    const t = new Date(Date.now() + d * 86_400_000);
    t.setUTCHours(h, 0, 0, 0);
    return t.toISOString();
  };
  const created = await c.post('/api/calendar/events', {
    title: 'Youth camp',
    slug: 'youth-camp',
    status: 'published',
    descriptionHtml: '<p>A weekend away for teenagers: games, talks and a campfire.</p>',
    locationName: 'Pine Lake Camp',
    address: '12 Lake Road, Springfield',
    latitude: 39.7817,
    longitude: -89.6501,
    times: [{ startsAt: inDays(10), endsAt: inDays(10, 21), capacity: 2 }],
    ticketTypes: [{ name: 'Camper', priceCents: 2500 }],
    questions: [{ kind: 'choice', label: 'T-shirt size', choices: ['S', 'M', 'L'], required: true }],
  });
  expect(created.status, created.text).toBe(201);
  const event = created.body as { id: number; questions: { id: number }[] };
  const size = event.questions[0]!.id;

  const shots = (page: Page, name: string) =>
    shotsAtWidths(page, name, { height: 844, after: { width: 390, height: 844 } });
  const visitor = () => e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
  const fill = async (page: Page, name: string, email: string) => {
    await page.locator('#f-registrant-name').fill(name);
    await page.locator('#f-registrant-email').fill(email);
    await page.locator('#f-attendees-0-name').fill(name);
    await page.locator(`#f-answers-${size}`).selectOption('M');
  };
  /** The newest email to `to` whose text matches `pattern`, once the worker has sent it. */
  const emailLink = async (to: string, pattern: RegExp) => {
    let text = '';
    await expect
      .poll(
        async () => {
          const m = await e2e.app.db
            .selectFrom('outboxMessages')
            .select('text')
            .where('toAddress', '=', to)
            .orderBy('id', 'desc')
            .execute();
          text = m.map((x) => x.text ?? '').find((t) => pattern.test(t)) ?? '';
          return text !== '';
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    return pattern.exec(text)![0];
  };

  it('Ann finds the event, registers two people and pays in demo mode', async () => {
    const context = await visitor();
    const page = await context.newPage();
    await page.goto('/c/grace-events');
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await expectAccessible(page);
    await shots(page, 'events-list');
    await page.getByRole('link', { name: 'Youth camp' }).click();
    await page.getByRole('heading', { name: 'Youth camp', level: 1 }).waitFor();
    expect(await page.locator('script').count()).toBe(0);
    // The place: a map tile with a pin (an image: tiles cannot be reached here) and the map-search link.
    await page.getByRole('img', { name: 'Map of Pine Lake Camp, 12 Lake Road, Springfield' }).waitFor();
    await page.getByRole('link', { name: 'Map', exact: true }).waitFor();
    await page.getByText('2 left').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-page');

    // The required question left out: the worded error by its field.
    await page.locator('#f-registrant-name').fill('Ann Lee');
    await page.locator('#f-registrant-email').fill('ann@example.org');
    await page.locator('#f-attendees-0-name').fill('Ann Lee');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByText('"T-shirt size" needs an answer').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-form-error');

    await page.getByRole('button', { name: 'Add another attendee' }).click();
    await page.getByRole('group', { name: 'Attendee 2' }).waitFor();
    await fill(page, 'Ann Lee', 'ann@example.org');
    await page.locator('#f-attendees-1-name').fill('Sam Lee');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByText('Your seats are held for 10 minutes').waitFor();
    await page.getByText('Total: $50.00').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-payment');
    await page.getByRole('button', { name: 'Pay $50.00' }).click();
    await page.getByRole('heading', { name: 'Paid: you are registered' }).waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('Ben is waitlisted, gets the offer when Ann cancels, claims it and pays', async () => {
    const context = await visitor();
    const page = await context.newPage();
    await page.goto('/c/grace-events/events/youth-camp');
    await page.getByText('Full: waitlist').waitFor();
    await fill(page, 'Ben Ray', 'ben@example.org');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    await page.getByText('Nothing has been charged').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-waitlisted');

    const ann = await e2e.app.db
      .selectFrom('calendarRegistrations')
      .select('id')
      .where('email', '=', 'ann@example.org')
      .executeTakeFirstOrThrow();
    const cancelled = await c.post(`/api/registrations/${ann.id}/cancel`, {});
    expect(cancelled.status, cancelled.text).toBe(200);

    const link = await emailLink('ben@example.org', /http:\/\/\S+\/events\/offers\/[\w-]+/);
    await page.goto(new URL(link).pathname);
    await page.getByRole('heading', { name: 'A seat came free' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'events-offer');
    await page.getByRole('button', { name: 'Claim my seat' }).click();
    await page.getByText('Your seats are held for 10 minutes').waitFor();
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByRole('heading', { name: 'Paid: you are registered' }).waitFor();
    await expect
      .poll(
        async () =>
          (
            await e2e.app.db
              .selectFrom('calendarRegistrations')
              .select('status')
              .where('email', '=', 'ben@example.org')
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe('confirmed');

    // Ben's ticket: the page his QR code opens.
    const ticket = await e2e.app.db
      .selectFrom('calendarAttendees as a')
      .innerJoin('calendarRegistrations as r', 'r.id', 'a.registrationId')
      .select('a.ticketToken')
      .where('r.email', '=', 'ben@example.org')
      .executeTakeFirstOrThrow();
    await page.goto(`/tickets/${ticket.ticketToken}`);
    await page.getByRole('img', { name: 'QR code of the ticket for Ben Ray' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'events-ticket');
    await context.close();
  });

  it("Ben sees his registration in the portal's My events, with his ticket and the refund a cancel gives", async () => {
    // Ben's daughter shares his email: she is his household in the portal.
    const mia = await c.post('/api/contacts', {
      firstName: 'Mia',
      lastName: 'Ray',
      email: 'ben@example.org',
      phone: '0412345678',
    });
    expect(mia.status, mia.text).toBe(201);
    const context = await visitor();
    const page = await context.newPage();
    await page.goto('/c/grace-events/me');
    await page.getByLabel('Enter your email or mobile number').fill('ben@example.org');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('If we know this address, we have sent you a link').waitFor();
    const link = await emailLink('ben@example.org', /http:\/\/\S+\/c\/grace-events\/me\/link\/[\w-]+/);
    await page.goto(new URL(link).pathname);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('link', { name: 'My events' }).click();
    await page.getByRole('heading', { name: 'My registrations' }).waitFor();
    await page.getByRole('link', { name: 'Ben Ray: ticket' }).waitFor();
    await page.getByText('You will be refunded $25.00.').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-portal-my-events');

    // Registering in the portal: a box to tick for each of the household, Ben ticked.
    await page.goto('/c/grace-events/me/events/youth-camp');
    await page.getByRole('heading', { name: 'Who is coming' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Ben Ray' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Mia Ray' }).isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'Mia Ray' }).check();
    await page.getByRole('button', { name: 'Add someone else' }).click();
    await page.getByRole('group', { name: 'Someone else 1' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Mia Ray' }).isChecked()).toBe(true);
    await expectAccessible(page);
    await shots(page, 'events-portal-register');
    await context.close();
  });
});
