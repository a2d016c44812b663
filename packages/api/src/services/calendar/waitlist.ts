import type { Db } from '@lampstand/db';
import { conflict, notFound } from '../../errors.js';
import { HOLD_MINUTES, OFFER_HOURS, type RegistrationStatus } from '../../schemas/calendar-events.js';
import type { RegisterResult } from '../../schemas/calendar-registrations.js';
import { PUBLIC_ACTOR } from '../events/record.js';
import { recordConfirmed } from './confirmed.js';
import { newToken, nowOf, queueRegistrationNotice, wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { openRegistrationGift, registrationPayment } from './ledger.js';
import { registrationSeats, releaseSeats, returnDiscountCode, takeSeats } from './seats.js';

// The waitlist: when seats come free, the first people waiting whose tickets fit are offered them
// (the seats held for the offer, a link valid OFFER_HOURS); an offer claimed is confirmed (free) or
// held for payment; an offer not claimed in time passes to the next person (background.ts).

/** A registration as these moves need it. */
export interface RegRow {
  id: number;
  userId: number;
  eventId: number;
  timeId: number;
  status: string;
  seatsHeld: boolean;
  name: string;
  email: string;
  contactId: number | null;
  totalCents: number;
  discountCodeId: number | null;
  giftId: number | null;
}

/**
 * Ends registrations' claims on their seats, in the caller's transaction (their rows locked): the
 * discount codes' uses given back first when nothing was paid, then the seats. Codes before seats
 * is the order registering takes them in, so the two never wait on each other in a cycle.
 */
export async function endRegistrations(
  trx: Db,
  regs: readonly RegRow[],
  status: Extract<RegistrationStatus, 'cancelled' | 'expired' | 'declined'>,
  o: { now: Date; paid: boolean },
): Promise<void> {
  if (!o.paid) {
    const codes = regs.map((r) => r.discountCodeId).filter((c): c is number => c !== null);
    for (const code of codes.sort((a, b) => a - b)) await returnDiscountCode(trx, code);
  }
  for (const reg of regs) {
    if (reg.seatsHeld) await releaseSeats(trx, reg.timeId, await registrationSeats(trx, reg.id));
    await trx
      .updateTable('calendarRegistrations')
      .set({
        status,
        seatsHeld: false,
        offerToken: null,
        ...(status === 'cancelled' || status === 'declined' ? { cancelledAt: o.now } : {}),
        updatedAt: o.now,
      })
      .where('id', '=', reg.id)
      .execute();
  }
}

/**
 * Offers free seats of a time to the people waiting, first come first served: each one whose
 * tickets fit gets the seats held and an offer; one whose ticket type is full is passed over for now.
 * Stops when the time is full. Returns how many were offered.
 */
export async function offerNext(trx: Db, timeId: number, now: Date): Promise<number> {
  const event = await trx
    .selectFrom('calendarEventTimes as t')
    .innerJoin('calendarEvents as e', 'e.id', 't.eventId')
    .select(['e.status'])
    .where('t.id', '=', timeId)
    .executeTakeFirst();
  if (!event || event.status !== 'published') return 0;
  const waiting = await trx
    .selectFrom('calendarRegistrations')
    .select(['id', 'userId', 'email', 'name', 'contactId'])
    .where('timeId', '=', timeId)
    .where('status', '=', 'waitlisted')
    .orderBy('waitlistedAt')
    .orderBy('id')
    .limit(50)
    .forUpdate()
    .skipLocked()
    .execute();
  let offered = 0;
  for (const w of waiting) {
    const taken = await takeSeats(trx, timeId, await registrationSeats(trx, w.id));
    if (!taken.ok && taken.full === 'time') break;
    if (!taken.ok) continue;
    await trx
      .updateTable('calendarRegistrations')
      .set({
        status: 'offered',
        seatsHeld: true,
        offerToken: newToken(),
        offerExpiresAt: new Date(now.getTime() + OFFER_HOURS * 3_600_000),
        updatedAt: now,
      })
      .where('id', '=', w.id)
      .execute();
    await queueRegistrationNotice(trx, w, 'offered');
    offered++;
  }
  return offered;
}

/** The offer link: POST /api/public/calendar/offers/{token}/claim. */
export async function claimOffer(deps: CalendarDeps, input: { token: string }): Promise<RegisterResult> {
  const now = nowOf(deps);
  const out = await deps.db.transaction().execute(async (trx) => {
    const reg = await trx
      .selectFrom('calendarRegistrations as r')
      .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
      .selectAll('r')
      .select(['e.title'])
      .where('r.offerToken', '=', input.token)
      .forUpdate('r')
      .executeTakeFirst();
    if (!reg) throw notFound('This offer is not known');
    if (reg.status !== 'offered') throw conflict('This offer was already used');
    if (reg.offerExpiresAt! <= now) throw conflict('This offer has expired and passed to the next person waiting');
    if (reg.totalCents === 0) {
      await trx
        .updateTable('calendarRegistrations')
        .set({ status: 'confirmed', confirmedAt: now, offerToken: null, updatedAt: now })
        .where('id', '=', reg.id)
        .execute();
      await queueRegistrationNotice(trx, reg, 'confirmed');
      await recordConfirmed(trx, reg, PUBLIC_ACTOR);
      return { reg, holdExpiresAt: null, giftId: null };
    }
    const holdExpiresAt = new Date(now.getTime() + HOLD_MINUTES * 60_000);
    await trx
      .updateTable('calendarRegistrations')
      .set({ status: 'held', holdExpiresAt, offerToken: null, updatedAt: now })
      .where('id', '=', reg.id)
      .execute();
    const giftId = reg.giftId ?? (await openRegistrationGift(trx, deps, reg, reg.title));
    return { reg, holdExpiresAt, giftId };
  });
  const { reg } = out;
  if (!out.holdExpiresAt) {
    await wakeRegistrationMessages(deps, reg.userId);
    return {
      outcome: 'confirmed',
      registrationId: reg.id,
      totalCents: 0,
      discountCents: reg.discountCents,
      payment: null,
      message: 'You are registered. A confirmation with your tickets is on its way by email.',
    };
  }
  const payment = await registrationPayment(
    deps,
    { id: reg.id, userId: reg.userId, giftId: out.giftId, holdExpiresAt: out.holdExpiresAt },
    reg.title,
  );
  return {
    outcome: 'payment',
    registrationId: reg.id,
    totalCents: reg.totalCents,
    discountCents: reg.discountCents,
    payment,
    message: `Your seats are held for ${HOLD_MINUTES} minutes while you pay.`,
  };
}

/** Seats that came free for a time: offered on, in the same transaction. */
export async function seatsFreed(trx: Db, timeIds: Iterable<number>, now: Date): Promise<number> {
  let n = 0;
  for (const t of new Set(timeIds)) n += await offerNext(trx, t, now);
  return n;
}
