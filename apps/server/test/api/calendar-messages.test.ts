import { describe, expect, it } from 'vitest';
import { createEvent, register } from '../helpers/calendar.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Staff message an event's registrants (POST /api/calendar/events/{id}/messages): an email and a
// text per registrant through the one engine as deliveries of kind 'registration'. About the event
// the person registered for, so transactional: sent to a person who unsubscribed from email (every
// registrant's new contact is), never to a suppressed address; a text only to a registrant whose
// contact has a mobile number that did not text STOP. Cancelled registrations are left out.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Church');
const visitor = new HttpClient(app.url);
const supper = await createEvent(grace.client, { title: 'Harvest supper' });

const sent = (messageId: number, count: number) =>
  expect
    .poll(
      async () =>
        (
          await app.db
            .selectFrom('deliveries')
            .select('id')
            .where('calendarMessageId', '=', messageId)
            .where('status', 'in', ['sent', 'failed'])
            .execute()
        ).length,
      { timeout: 30_000, interval: 100 },
    )
    .toBe(count);

describe('messaging registrants', () => {
  it('emails every active registrant and texts those with a mobile number; cancelled ones are left out', async () => {
    const ann = await register(visitor, supper, {}, ['Ann Lee']);
    await register(visitor, supper, {}, ['Bo Moss']);
    const cy = await register(visitor, supper, {}, ['Cy Park']);
    expect((await grace.client.post(`/api/registrations/${cy.body.registrationId}/cancel`, {})).status).toBe(200);
    // Ann's contact has a mobile number; Bo's address bounced.
    const annReg = await grace.client.get(`/api/registrations/${ann.body.registrationId}`);
    await app.db
      .updateTable('contacts')
      .set({ phone: '+61 412 345 678', phoneE164: '+61412345678', smsConsent: 'subscribed' })
      .where('id', '=', annReg.body.contactId)
      .execute();
    await app.db
      .insertInto('emailSuppressions')
      .values({ userId: grace.user.id, email: 'bo.moss@example.org', reason: 'hard_bounce' })
      .execute();

    const res = await grace.client.post(`/api/calendar/events/${supper.id}/messages`, {
      channels: ['email', 'sms'],
      subject: 'Parking for the supper',
      body: 'Park behind the hall.\n\nDoors open at 5:30.',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ registrations: 2, emails: 2, texts: 1 });
    await sent(res.body.messageId, 3);

    const out = await app.db
      .selectFrom('outboxMessages as o')
      .innerJoin('deliveries as d', 'd.id', 'o.deliveryId')
      .select(['o.channel', 'o.toAddress', 'o.subject', 'o.text'])
      .where('d.calendarMessageId', '=', res.body.messageId)
      .orderBy('o.id')
      .execute();
    expect(out.map((o) => [o.channel, o.toAddress])).toEqual(
      expect.arrayContaining([
        ['email', 'ann.lee@example.org'],
        ['sms', '+61412345678'],
      ]),
    );
    expect(out).toHaveLength(2);
    const email = out.find((o) => o.channel === 'email')!;
    expect(email.subject).toBe('Parking for the supper');
    expect(email.text).toContain('Doors open at 5:30.');
    expect(email.text).toContain('About your registration for Harvest supper.');
    expect(out.find((o) => o.channel === 'sms')!.text).toBe(
      'Grace Church: Park behind the hall.\n\nDoors open at 5:30.',
    );
    const skipped = await app.db
      .selectFrom('deliveries')
      .select(['status', 'lastError'])
      .where('calendarMessageId', '=', res.body.messageId)
      .where('address', '=', 'bo.moss@example.org')
      .executeTakeFirstOrThrow();
    expect(skipped).toEqual({ status: 'failed', lastError: 'Skipped: suppressed (hard bounce)' });
  });

  it('answers bad input naming the field, and another church’s event with 404', async () => {
    const noSubject = await grace.client.post(`/api/calendar/events/${supper.id}/messages`, {
      channels: ['email'],
      body: 'Hello',
    });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.issues).toEqual([{ path: 'subject', message: 'An email needs a subject' }]);
    const none = await grace.client.post(`/api/calendar/events/${supper.id}/messages`, { channels: [], body: 'Hi' });
    expect(none.body.issues[0]).toMatchObject({ path: 'channels', message: 'Choose email, text or both' });
    const long = await grace.client.post(`/api/calendar/events/${supper.id}/messages`, {
      channels: ['sms'],
      body: 'x'.repeat(641),
    });
    expect(long.body.issues[0]).toMatchObject({ path: 'body', message: 'A text may be at most 640 characters' });
    const other = await hope.client.post(`/api/calendar/events/${supper.id}/messages`, {
      channels: ['email'],
      subject: 'Hi',
      body: 'Hi',
    });
    expect(other.status).toBe(404);
  });
});
