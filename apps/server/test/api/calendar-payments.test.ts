import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { calendarDue, createEvent, demoPay, inHours, MINUTE, register, registrationMail } from '../helpers/calendar.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Paid registrations in demo mode (no Stripe keys): the fee is a ledger entry of kind registration;
// seats are held 10 minutes while the person pays; nobody waitlisted is asked to pay; a payment
// after the hold ran out and the seat went to someone else is refunded and the person told; a
// cancellation refunds in full or in part (a part stays in the ledger less its refund, in the church's
// totals and the payer's history); two people racing for the last seat: one wins. The
// background work runs on a controlled clock.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const visitor = new HttpClient(app.url);

const paidEvent = (title: string, capacity = 1, fields: Record<string, unknown> = {}) =>
  createEvent(grace.client, {
    title,
    times: [{ startsAt: inHours(72), capacity }],
    ticketTypes: [{ name: 'Adult', priceCents: 1500 }],
    ...fields,
  });
const registration = async (id: number) => (await grace.client.get(`/api/registrations/${id}`)).body;
const giftOf = (registrationId: number) =>
  app.db
    .selectFrom('gifts as g')
    .innerJoin('calendarRegistrations as r', 'r.giftId', 'g.id')
    .select(['g.kind', 'g.status', 'g.amountCents', 'g.goodsServices', 'g.goodsServicesCents', 'g.contactId'])
    .where('r.id', '=', registrationId)
    .executeTakeFirstOrThrow();

describe('paying for a registration', () => {
  it('holds the seat while the person pays, and never asks the waitlisted to pay', async () => {
    const e = await paidEvent('Marriage course', 1, { discountCodes: [{ code: 'HALF', percentOff: 50 }] });
    const key = { discountCode: 'half', idempotencyKey: 'marriage-course-ann-lee' };
    const a = await register(visitor, e, key, ['Ann Lee']);
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ outcome: 'payment', totalCents: 750, discountCents: 750 });
    expect(a.body.payment).toMatchObject({ mode: 'demo' });
    const hold = new Date(a.body.payment.holdExpiresAt).getTime() - Date.now();
    expect(hold).toBeGreaterThan(9 * MINUTE);
    expect(hold).toBeLessThanOrEqual(10 * MINUTE);
    const b = await register(visitor, e, {}, ['Bo Park']);
    expect(b.body).toMatchObject({ outcome: 'waitlisted', payment: null });
    expect((await registration(b.body.registrationId)).paymentStatus).toBeNull();

    await demoPay(visitor, a.body.payment);
    const paid = await registration(a.body.registrationId);
    expect(paid).toMatchObject({ status: 'confirmed', paymentStatus: 'completed', holdExpiresAt: null });
    expect(await giftOf(a.body.registrationId)).toMatchObject({
      kind: 'registration',
      status: 'completed',
      amountCents: 750,
      goodsServices: 'Registration: Marriage course',
      goodsServicesCents: 750,
      contactId: paid.contactId,
    });
    const mail = await registrationMail(app.db, a.body.registrationId, 1);
    expect(mail.map((m) => m.registrationNotice)).toEqual(['confirmed']);
    // Asked again with the same key: the same registration, no second seat.
    const again = await register(visitor, e, key, ['Ann Lee']);
    expect(again.body).toMatchObject({ outcome: 'confirmed', registrationId: a.body.registrationId });
    const e2 = await grace.client.get(`/api/calendar/events/${e.id}`);
    expect(e2.body.times[0].seatsTaken).toBe(1);
  });

  it('refunds a payment that comes after the hold ran out and the seat is gone, and tells the person', async () => {
    const e = await paidEvent('Late payer');
    const a = await register(visitor, e, { idempotencyKey: 'late-payer-cy' }, ['Cy Late']);
    const due = await calendarDue(app, new Date(Date.now() + 11 * MINUTE));
    expect(due.holdsExpired).toBeGreaterThanOrEqual(1);
    expect((await registration(a.body.registrationId)).status).toBe('expired');
    const retried = await register(visitor, e, { idempotencyKey: 'late-payer-cy' }, ['Cy Late']);
    expect(retried.status).toBe(409);
    expect(retried.body.message).toBe('This registration ran out before it was paid: please register again');
    const b = await register(visitor, e, {}, ['Di Quick']);
    expect(b.body.outcome).toBe('payment');

    await demoPay(visitor, a.body.payment);
    // The refund is the background work's (the app's own runner may take it first: polled).
    await calendarDue(app, new Date(Date.now() + 12 * MINUTE - 60_000));
    await expect
      .poll(() => registration(a.body.registrationId), { timeout: 30_000 })
      .toMatchObject({ status: 'expired', paymentStatus: 'refunded', refundedCents: 1500, refundDueCents: 0 });
    const mail = await registrationMail(app.db, a.body.registrationId, 1);
    const told = mail.find((m) => m.registrationNotice === 'late_refund')!;
    expect(told.subject).toBe('Your payment was refunded: Late payer');
    expect(told.text).toContain('We have refunded the full $15.00');

    await demoPay(visitor, b.body.payment);
    expect((await registration(b.body.registrationId)).status).toBe('confirmed');
    expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.times[0].seatsTaken).toBe(1);
  });

  it('confirms a late payment when the seat is still free', async () => {
    const e = await paidEvent('Still room', 2);
    const a = await register(visitor, e, {}, ['Ed Slow']);
    await calendarDue(app, new Date(Date.now() + 11 * MINUTE));
    await demoPay(visitor, a.body.payment);
    expect(await registration(a.body.registrationId)).toMatchObject({
      status: 'confirmed',
      paymentStatus: 'completed',
    });
    expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.times[0].seatsTaken).toBe(1);
  });

  it('refunds on cancel, in part or in full, through the payment processor', async () => {
    const e = await paidEvent('Retreat', 5);
    const ids: number[] = [];
    for (const name of ['Fi One', 'Gil Two']) {
      const r = await register(visitor, e, {}, [name]);
      await demoPay(visitor, r.body.payment);
      ids.push(r.body.registrationId);
    }
    const tooMuch = await grace.client.post(`/api/registrations/${ids[0]}/cancel`, { refundCents: 2000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toBe('The refund cannot be more than the $15.00 paid');
    expect(tooMuch.body.issues[0].path).toBe('refundCents');

    // The ledger: the church's registrations fund in the overview, and each payer's gift.
    const feesTotal = async () =>
      ((await grace.client.get('/api/giving/overview')).body.funds as { fundName: string; totalCents: number }[]).find(
        (f) => f.fundName === 'Event registrations',
      )!.totalCents;
    const ledgerOf = async (id: number) => {
      const { contactId } = await registration(id);
      const list = await grace.client.get(`/api/giving/gifts?contactId=${contactId}`);
      return list.body.gifts[0];
    };
    const before = await feesTotal();

    // The refund is sent right after the cancellation commits (or by the background work, should
    // the app's own runner hold the row at that moment: polled).
    const part = await grace.client.post(`/api/registrations/${ids[0]}/cancel`, { refundCents: 500 });
    expect(part.status, part.text).toBe(200);
    expect(part.body.status).toBe('cancelled');
    await expect
      .poll(() => registration(ids[0]!), { timeout: 30_000 })
      .toMatchObject({ refundedCents: 500, refundDueCents: 0, paymentStatus: 'completed' });
    // A partial refund: the entry still counts, less its refund, in the totals and the payer's history.
    expect(await ledgerOf(ids[0]!)).toMatchObject({
      status: 'completed',
      amountCents: 1500,
      refundedCents: 500,
      lines: [{ fundName: 'Event registrations', amountCents: 1500 }],
    });
    expect(await feesTotal()).toBe(before - 500);
    const full = await grace.client.post(`/api/registrations/${ids[1]}/cancel`);
    expect(full.body.status).toBe('cancelled');
    await expect
      .poll(() => registration(ids[1]!), { timeout: 30_000 })
      .toMatchObject({ refundedCents: 1500, paymentStatus: 'refunded' });
    expect(await ledgerOf(ids[1]!)).toMatchObject({ status: 'refunded', amountCents: 1500, refundedCents: 1500 });
    expect(await feesTotal()).toBe(before - 500 - 1500);
    expect((await grace.client.post(`/api/registrations/${ids[1]}/cancel`)).status).toBe(409);
    expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.times[0].seatsTaken).toBe(0);
    await eventsSettled(app.db);
    const log = await grace.client.get('/api/events?types=registration.cancelled');
    expect(log.body.events.map((x: { data: { refundCents: number } }) => x.data.refundCents)).toEqual([500, 1500]);
    const mail = await registrationMail(app.db, ids[0]!, 2);
    expect(mail.find((m) => m.registrationNotice === 'cancelled')!.text).toContain(
      'A refund of $5.00 goes back to your card',
    );
  });

  it('offers a freed seat to the next person waiting; an unclaimed offer passes on', async () => {
    const e = await createEvent(grace.client, {
      title: 'Supper club',
      times: [{ startsAt: inHours(72), capacity: 1 }],
    });
    const a = await register(visitor, e, {}, ['Hu First']);
    const b = await register(visitor, e, {}, ['Iz Second']);
    const c = await register(visitor, e, {}, ['Jo Third']);
    expect([b.body.outcome, c.body.outcome]).toEqual(['waitlisted', 'waitlisted']);
    await grace.client.post(`/api/registrations/${a.body.registrationId}/cancel`);
    const offered = await registration(b.body.registrationId);
    expect(offered.status).toBe('offered');
    const hours = (new Date(offered.offerExpiresAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    const mail = await registrationMail(app.db, b.body.registrationId, 2);
    const offer = mail.find((m) => m.registrationNotice === 'offered')!;
    expect(offer.text).toMatch(/Claim it within 24 hours: http:\/\/\S+\/events\/offers\/[\w-]+/);
    const token = /offers\/([\w-]+)/.exec(offer.text!)![1]!;

    const due = await calendarDue(app, new Date(Date.now() + 25 * 3_600_000));
    expect(due.offersExpired).toBeGreaterThanOrEqual(1);
    expect((await registration(b.body.registrationId)).status).toBe('expired');
    expect((await registration(c.body.registrationId)).status).toBe('offered');
    const stale = await visitor.post(`/api/public/calendar/offers/${token}/claim`);
    expect(stale.status).toBe(404);
    const cToken = await app.db
      .selectFrom('calendarRegistrations')
      .select('offerToken')
      .where('id', '=', c.body.registrationId)
      .executeTakeFirstOrThrow();
    const claimed = await visitor.post(`/api/public/calendar/offers/${cToken.offerToken}/claim`);
    expect(claimed.body).toMatchObject({ outcome: 'confirmed', registrationId: c.body.registrationId });
    expect((await visitor.post(`/api/public/calendar/offers/${cToken.offerToken}/claim`)).status).toBe(404);
  });

  it('lets exactly one of two people racing for the last seat have it', async () => {
    for (const price of [0, 1500]) {
      const e = await paidEvent(`Last seat ${price}`, 1, { ticketTypes: [{ name: 'Adult', priceCents: price }] });
      const answers = await Promise.all(
        ['Ka Race', 'Lo Race', 'Mo Race', 'No Race'].map((n) => register(new HttpClient(app.url), e, {}, [n])),
      );
      const outcomes = answers.map((r) => r.body.outcome).sort();
      expect(outcomes).toEqual([price ? 'payment' : 'confirmed', 'waitlisted', 'waitlisted', 'waitlisted']);
      expect((await grace.client.get(`/api/calendar/events/${e.id}`)).body.times[0].seatsTaken).toBe(1);
    }
  });

  it('cancels the registrations of a cancelled event and refunds what they paid in full', async () => {
    const e = await paidEvent('Called off', 1, { refundPolicy: 'none' });
    const paid = await register(visitor, e, {}, ['Pia Paid']);
    await demoPay(visitor, paid.body.payment);
    const waiting = await register(visitor, e, {}, ['Quin Waits']);
    const res = await grace.client.patch(`/api/calendar/events/${e.id}`, { status: 'cancelled' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.counts).toMatchObject({ cancelled: 2, confirmed: 0, waitlisted: 0 });
    expect(res.body.times[0].seatsTaken).toBe(0);
    await expect
      .poll(() => registration(paid.body.registrationId), { timeout: 30_000 })
      .toMatchObject({ status: 'cancelled', refundedCents: 1500, paymentStatus: 'refunded' });
    expect(await registration(waiting.body.registrationId)).toMatchObject({ status: 'cancelled', refundedCents: 0 });
    const mail = await registrationMail(app.db, paid.body.registrationId, 2);
    expect(mail.find((m) => m.registrationNotice === 'cancelled')!.text).toContain('A refund of $15.00');
  });
});
