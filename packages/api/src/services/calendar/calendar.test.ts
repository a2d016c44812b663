import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import type { EmailMessage } from '../../providers/email.js';
import { createDemoPayments } from '../../providers/payments.js';
import { donorsInRange, statementLines } from '../giving/statements-build.js';
import { createCalendarEvent } from './events.js';
import { deliverRegistrationMessages } from './messages.js';
import { registerForEvent } from './register.js';
import { ticketUrl } from './door.js';
import { runCalendarDue } from './background.js';
import { createEventInput } from './test-input.js';

// The calendar's services on a real database: a registration fee is goods received, left out of
// giving statements beside a gift of the same person; the confirmation email carries a QR ticket
// per attendee (the ticket's address) and the calendar file; a hold runs out on the test's clock.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
const { deps: delivery, jobs } = recordingDeliveryDeps(db);
const emails: EmailMessage[] = [];
delivery.email = {
  kind: 'outbox',
  send: async (m) => (emails.push(m), { providerMessageId: m.messageId }),
  close: async () => {},
};
const payments = createDemoPayments({ webhookSecret: 'whsec_calendar_test', connect: false, platformFeePercent: 0 });
const deps = { db, payments, jobs, publicUrl: 'http://localhost' };
const PAID_AT = new Date('2026-06-15T12:00:00Z');

describe('calendar services', () => {
  it('leaves registration fees out of giving statements', async () => {
    const event = await createCalendarEvent(db, church.id, createEventInput({ priceCents: 2000 }));
    const r = await registerForEvent(deps, {
      id: event.id,
      registrant: { name: 'Ann Lee', email: 'ann@example.org' },
      attendees: [{ name: 'Ann Lee', ticketTypeId: event.ticketTypes[0]!.id, answers: [] }],
      answers: [],
    });
    expect(r.outcome).toBe('payment');
    const reg = await db
      .selectFrom('calendarRegistrations')
      .selectAll()
      .where('id', '=', r.registrationId)
      .executeTakeFirstOrThrow();
    // Paid, and a gift of the same person beside it.
    await db
      .updateTable('gifts')
      .set({ status: 'completed', completedAt: PAID_AT })
      .where('id', '=', reg.giftId!)
      .execute();
    await db.updateTable('calendarRegistrations').set({ status: 'confirmed' }).where('id', '=', reg.id).execute();
    const fund = await db
      .selectFrom('funds')
      .select('id')
      .where('userId', '=', church.id)
      .where('name', '=', 'General')
      .executeTakeFirstOrThrow();
    const gift = await db
      .insertInto('gifts')
      .values({
        userId: church.id,
        amountCents: 5000,
        status: 'completed',
        completedAt: PAID_AT,
        contactId: reg.contactId,
        idempotencyKey: 'calendar-test-gift',
        receiptToken: 'calendar-test-receipt',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('giftLines')
      .values({ userId: church.id, giftId: gift.id, fundId: fund.id, amountCents: 5000 })
      .execute();
    const range = { from: '2026-01-01', to: '2026-12-31' };
    const { rows } = await donorsInRange(church.id, 'UTC', range).execute(db);
    expect(rows).toEqual([expect.objectContaining({ giftCount: 1, totalCents: 5000 })]);
    const lines = await statementLines(db, church.id, { fromDate: range.from, toDate: range.to }, 'UTC', [
      reg.contactId!,
    ]);
    expect(lines.get(reg.contactId!)!.map((l) => [l.fund, l.amountCents])).toEqual([['General', 5000]]);
  });

  it('emails a QR ticket per attendee and the calendar file', async () => {
    const event = await createCalendarEvent(db, church.id, createEventInput({ title: 'Picnic' }));
    const r = await registerForEvent(deps, {
      id: event.id,
      registrant: { name: 'Bo Park', email: 'bo@example.org' },
      attendees: ['Bo Park', 'Cy Park'].map((name) => ({ name, ticketTypeId: event.ticketTypes[0]!.id, answers: [] })),
      answers: [],
    });
    expect(r.outcome).toBe('confirmed');
    await deliverRegistrationMessages(delivery, church.id);
    const mail = emails.find((m) => m.to === 'bo@example.org')!;
    expect(mail.subject).toBe("You're registered: Picnic");
    const attendees = await db
      .selectFrom('calendarAttendees')
      .select(['ticketToken'])
      .where('registrationId', '=', r.registrationId)
      .orderBy('id')
      .execute();
    const qr = mail.attachments!.filter((a) => a.contentType === 'image/png');
    expect(qr).toHaveLength(2);
    for (const [i, a] of attendees.entries()) {
      const expected = await QRCode.toBuffer(ticketUrl('http://localhost', a.ticketToken), {
        type: 'png',
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 320,
      });
      expect(qr[i]!.content.equals(expected)).toBe(true);
    }
    const ics = mail.attachments!.find((a) => a.contentType === 'text/calendar')!.content.toString();
    expect(ics).toContain('SUMMARY:Picnic');
    expect(mail.text).toContain('Bo Park (Adult)');
  });

  it('ends a hold on the clock and gives its seat back', async () => {
    const event = await createCalendarEvent(
      db,
      church.id,
      createEventInput({ title: 'Held', priceCents: 900, capacity: 1 }),
    );
    const r = await registerForEvent(deps, {
      id: event.id,
      registrant: { name: 'Di Hold', email: 'di@example.org' },
      attendees: [{ name: 'Di Hold', ticketTypeId: event.ticketTypes[0]!.id, answers: [] }],
      answers: [],
    });
    const expires = new Date(r.payment!.holdExpiresAt);
    expect((await runCalendarDue(deps, { now: new Date(expires.getTime() - 1000) })).holdsExpired).toBe(0);
    expect((await runCalendarDue(deps, { now: expires })).holdsExpired).toBe(1);
    const time = await db
      .selectFrom('calendarEventTimes')
      .select('seatsTaken')
      .where('eventId', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(time.seatsTaken).toBe(0);
  });

  it("gives a discount code's use back when a hold runs out unpaid", async () => {
    const event = await createCalendarEvent(db, church.id, {
      ...createEventInput({ title: 'Coded', priceCents: 1000 }),
      discountCodes: [{ code: 'ONCE', percentOff: 20, maxUses: 1 }],
    });
    const form = (email: string) => ({
      id: event.id,
      registrant: { name: 'Ed Code', email },
      attendees: [{ name: 'Ed Code', ticketTypeId: event.ticketTypes[0]!.id, answers: [] }],
      answers: [],
      discountCode: 'once',
    });
    const first = await registerForEvent(deps, form('ed@example.org'));
    expect(first.totalCents).toBe(800);
    await expect(registerForEvent(deps, form('fi@example.org'))).rejects.toThrow('Discount code once has been used up');
    await runCalendarDue(deps, { now: new Date(Date.now() + 11 * 60_000) });
    expect((await registerForEvent(deps, form('fi@example.org'))).discountCents).toBe(200);
  });
});
