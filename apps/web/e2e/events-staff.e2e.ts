import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, seeToast, shotsAtWidths, signIn, startE2E } from './helpers';

// Staff's side of events: a paid event with a question, two seats and its place on the map is
// created and published in the editor; two people register through the public route (paid in demo
// mode); staff see them with their answers, cancel one with a refund and message the registrants;
// at the door on a 390 px phone a ticket is read from a picture of its QR code (checked in once, the
// second scan says when, another event's ticket says which event it is for) and a walk-in is added.
browserDescribe(describe)('events (staff)', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const visitor = new HttpClient(e2e.app.url);
  let eventId = 0;

  const shots = (page: Page, name: string) => shotsAtWidths(page, name, { height: 844 });

  /** Picks a day three days ahead at 6:30 PM in the open date-time picker labelled `label`. */
  const pickStart = async (page: Page, label: string) => {
    const day = new Date(Date.now() + 3 * 86_400_000);
    await page.getByRole('button', { name: label, exact: true }).click();
    if (day.getUTCMonth() !== new Date().getUTCMonth()) await page.getByRole('button', { name: 'Next month' }).click();
    const name = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
      .format(day)
      .replace(',', '');
    await page.getByRole('button', { name, exact: true }).click();
    await page.getByRole('spinbutton', { name: 'Hour' }).fill('06');
    await page.getByRole('spinbutton', { name: 'Minute' }).fill('30');
    await page.getByRole('combobox', { name: 'AM or PM' }).selectOption('PM');
    await page.locator('.mantine-Popover-dropdown button[data-variant="default"]').last().click();
  };

  /** Registers `name` through the public route and pays in demo mode. */
  const registerAndPay = async (name: string, diet: string) => {
    const event = (await church.client.get(`/api/calendar/events/${eventId}`)).body;
    const res = await visitor.post(`/api/public/calendar/events/${eventId}/register`, {
      registrant: { name, email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.org` },
      attendees: [{ name, ticketTypeId: event.ticketTypes[0].id }],
      answers: [{ questionId: event.questions[0].id, value: diet }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.outcome).toBe('payment');
    const paid = await visitor.post('/api/public/calendar/payments/demo-complete', {
      paymentIntent: res.body.payment.intentId,
      clientSecret: res.body.payment.clientSecret,
    });
    expect(paid.status, paid.text).toBe(200);
    return res.body.registrationId as number;
  };

  it('staff create a paid event with a question and two seats, and publish it', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await page.getByText('No events yet').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-empty');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: 'New event' }).first().click();
    await page.getByRole('heading', { name: 'New event', level: 1 }).waitFor();
    // The shared schema's words under the field.
    await page.getByRole('button', { name: 'Create event' }).click();
    await expect.poll(() => page.getByText('Title is required').count()).toBeGreaterThan(0);
    await page.getByLabel('Title').fill('Christmas breakfast');
    await page.getByLabel('Location').fill('Church hall');
    await pickStart(page, 'Starts');
    await page.getByLabel('Seats').fill('2');
    await page.getByLabel('Ticket name').fill('Adult');
    await page.getByLabel('Price').fill('15');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByRole('textbox', { name: /^Question/ }).fill('Dietary needs');
    await page.getByLabel('Latitude', { exact: true }).fill('39.7817');
    await page.getByLabel('Longitude', { exact: true }).fill('-89.6501');
    // The map loads on demand (its tiles cannot be reached here: it says so, the fields still work).
    await page.getByRole('button', { name: 'Pick on a map' }).click();
    await page.getByRole('region', { name: 'Map: click to place the event' }).locator('.leaflet-container').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-editor');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.getByRole('heading', { name: 'Christmas breakfast', level: 1 }).waitFor();
    eventId = Number(new URL(page.url()).pathname.split('/')[2]);
    const saved = (await church.client.get(`/api/calendar/events/${eventId}`)).body;
    expect(saved).toMatchObject({
      status: 'draft',
      times: [{ capacity: 2 }],
      latitude: 39.7817,
      longitude: -89.6501,
      ticketTypes: [{ name: 'Adult', priceCents: 1500 }],
      questions: [{ label: 'Dietary needs', kind: 'short_text' }],
    });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('dialog', { name: 'Publish Christmas breakfast?' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await seeToast(page, 'Event published');
    expect((await church.client.get(`/api/calendar/events/${eventId}`)).body.status).toBe('published');
    await context.close();
  });

  let bo = 0;
  it('staff see the registrations with their answers and cancel one with a refund', async () => {
    await registerAndPay('Ann Lee', 'Vegetarian');
    bo = await registerAndPay('Bo Moss', 'No nuts');
    const { context, page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/events/${eventId}` });
    await page.getByRole('heading', { name: 'Christmas breakfast', level: 1 }).waitFor();
    await page.getByText('2 of 2 seats').waitFor();
    const table = page.getByRole('table', { name: 'Registrations' });
    await table.getByText('Dietary needs: Vegetarian').waitFor();
    await table.getByText('Dietary needs: No nuts').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-registrants');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A capacity below the seats taken: the backend's words under the Seats field.
    await page.goto(`/events/${eventId}/edit`);
    await page.getByLabel('Seats').fill('1');
    await page.getByRole('button', { name: 'Save event' }).click();
    await page.getByText('Capacity cannot be below the 2 seats already taken').waitFor();
    await expectAccessible(page);
    await page.goto(`/events/${eventId}`);

    await page.getByRole('button', { name: 'Actions for Bo Moss' }).click();
    await page.getByRole('menuitem', { name: 'Cancel registration' }).click();
    const dialog = page.getByRole('dialog', { name: "Cancel Bo Moss's registration?" });
    await dialog.getByText('Full refund ($15.00)').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-cancel-dialog');
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Cancel and refund $15.00' }).click();
    await seeToast(page, 'Registration cancelled');
    await expect.poll(() => table.getByText('Bo Moss').count()).toBe(0);
    const cancelled = (await church.client.get(`/api/registrations/${bo}`)).body;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.refundedCents + cancelled.refundDueCents).toBe(1500);
    await context.close();
  });

  it('staff message the registrants, after saying how many it reaches', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/events/${eventId}` });
    await page.getByRole('heading', { name: 'Christmas breakfast', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Message registrants' }).click();
    const dialog = page.getByRole('dialog', { name: 'Message registrants' });
    await dialog.getByRole('checkbox', { name: /^Text/ }).check();
    await dialog
      .getByRole('textbox', { name: 'Message', exact: true })
      .fill('Park behind the hall. Doors open at 8:30.');
    await dialog.getByText('they wait until 8:00 AM').waitFor();
    await expectAccessible(page);
    await shots(page, 'events-message-dialog');
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Send message' }).click();
    // Bo's registration was cancelled: only Ann's is active.
    const confirm = page.getByRole('dialog', { name: 'Send to 1 registrant?' });
    await confirm.getByRole('button', { name: 'Send' }).click();
    await seeToast(page, 'Message sent');
    const sent = await e2e.app.db
      .selectFrom('calendarMessages')
      .select(['body', 'channels', 'emailCount'])
      .where('eventId', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(sent).toEqual({
      body: 'Park behind the hall. Doors open at 8:30.',
      channels: ['email', 'sms'],
      emailCount: 1,
    });
    await context.close();
  });

  it('at the door on a phone, a ticket scanned from a picture checks in once; twice says when', async () => {
    const ann = await e2e.app.db
      .selectFrom('calendarAttendees')
      .select(['ticketToken'])
      .where('name', '=', 'Ann Lee')
      .executeTakeFirstOrThrow();
    const png = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ticket-')), 'ticket.png');
    await QRCode.toFile(png, `${e2e.app.deps.delivery.publicUrl}/tickets/${ann.ticketToken}`, { width: 320 });

    const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/events/${eventId}/door` });
    await page.getByRole('heading', { name: 'Door: Christmas breakfast', level: 1 }).waitFor();
    await page.locator('input[type="file"]').setInputFiles(png);
    const result = page.locator('[aria-live="polite"] .mantine-Alert-root');
    await expect.poll(() => result.textContent()).toContain('Checked in');
    expect(await result.textContent()).toContain('Ann Lee');
    await expectAccessible(page);
    await shots(page, 'events-door');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('input[type="file"]').setInputFiles(png);
    await expect.poll(() => result.textContent()).toMatch(/Already checked in at \d{1,2}:\d{2}/);
    await page.getByLabel('Name or email').fill('Ann');
    await page.getByText(/In at /).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'events-door-again-390');

    // A ticket of another of the church's events: it says which event it is for.
    const other = await church.client.post('/api/calendar/events', {
      title: 'Carol service',
      status: 'published',
      times: [{ startsAt: new Date(Date.now() + 5 * 86_400_000).toISOString() }],
    });
    expect(other.status, other.text).toBe(201);
    const carol = await visitor.post(`/api/public/calendar/events/${other.body.id}/register`, {
      registrant: { name: 'Cara Lee', email: 'cara.lee@example.org' },
      attendees: [{ name: 'Cara Lee', ticketTypeId: other.body.ticketTypes[0].id }],
    });
    expect(carol.body.outcome, carol.text).toBe('confirmed');
    const cara = await e2e.app.db
      .selectFrom('calendarAttendees')
      .select('ticketToken')
      .where('registrationId', '=', carol.body.registrationId)
      .executeTakeFirstOrThrow();
    const otherPng = path.join(path.dirname(png), 'other.png');
    await QRCode.toFile(otherPng, `${e2e.app.deps.delivery.publicUrl}/tickets/${cara.ticketToken}`, { width: 320 });
    await page.locator('input[type="file"]').setInputFiles(otherPng);
    await expect.poll(() => result.textContent()).toContain('This ticket is for Carol service (');
    await expectAccessible(page);
    await shots(page, 'events-door-other-event');

    // A walk-in: registered and checked in at once (the last seat).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Add a walk-in' }).click();
    const walkIn = page.getByRole('dialog', { name: 'Add a walk-in' });
    await walkIn.getByRole('textbox', { name: 'Name', exact: true }).fill('Cy Walker');
    await walkIn.getByRole('textbox', { name: 'Email', exact: true }).fill('cy.walker@example.org');
    await expectAccessible(page);
    await shots(page, 'events-walk-in');
    await walkIn.getByRole('button', { name: 'Add and check in' }).click();
    await seeToast(page, 'Walk-in added');
    const cy = await e2e.app.db
      .selectFrom('calendarAttendees as a')
      .innerJoin('calendarRegistrations as r', 'r.id', 'a.registrationId')
      .select(['r.status', 'a.checkedInAt'])
      .where('r.eventId', '=', eventId)
      .where('a.name', '=', 'Cy Walker')
      .executeTakeFirstOrThrow();
    expect(cy.status).toBe('confirmed');
    expect(cy.checkedInAt).not.toBeNull();
    await context.close();
  });
});
