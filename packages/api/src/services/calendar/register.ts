import crypto from 'node:crypto';
import type { Db, Row } from '@lampstand/db';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { HOLD_MINUTES, MAX_REGISTRATION_CENTS, type RegistrationStatus } from '../../schemas/calendar-events.js';
import type { RegisterInput, RegisterResult, StaffRegisterInput } from '../../schemas/calendar-registrations.js';
import { formatCents } from '../../shared/giving.js';
import { PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import type { EventActor } from '../../schemas/events.js';
import { checkAnswers, eventQuestions } from './answers.js';
import { newToken, nowOf, queueRegistrationNotice, wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { EVENT_NOT_FOUND } from './events.js';
import { assertCanTakePayments, openRegistrationGift, registrationPayment } from './ledger.js';
import { registrantContact, registrantPerson } from './people.js';
import { confirmedEvent } from './confirmed.js';
import { discountOf, seatsByType, takeSeats, useDiscountCode } from './seats.js';

// Registering for an event: the public form (several attendees, answers, ticket types, a discount
// code) and staff adding one (a walk-in). Seats are taken in the database (seats.ts) in the same
// transaction that writes the registration; a paid registration holds its seats for HOLD_MINUTES
// while its ledger entry waits for the payment, and nobody waitlisted is ever asked to pay.

type EventRow = Row<'calendarEvents'>;
type Form = Pick<StaffRegisterInput, 'timeId' | 'registrant' | 'attendees' | 'answers'>;

interface Priced {
  event: EventRow;
  timeId: number;
  lines: { ticketTypeId: number; name: string; priceCents: number }[];
  subtotalCents: number;
  answers: { questionId: number; attendee: number | null; value: unknown }[];
}

/** The form checked against the event: its time, ticket types, limits per registration and answers. */
async function checkForm(db: Db, event: EventRow, form: Form, now: Date, staff: boolean): Promise<Priced> {
  const times = await db
    .selectFrom('calendarEventTimes')
    .select(['id', 'startsAt'])
    .where('eventId', '=', event.id)
    .orderBy('startsAt')
    .execute();
  const time =
    form.timeId === undefined ? (times.length === 1 ? times[0] : undefined) : times.find((t) => t.id === form.timeId);
  if (!time) {
    throw badRequest(
      form.timeId === undefined ? 'Choose a time' : `Time ${form.timeId} is not one of this event's`,
      'timeId',
    );
  }
  if (!staff && time.startsAt <= now) throw conflict('This time has already started', 'timeId');
  const types = new Map(
    (
      await db
        .selectFrom('calendarTicketTypes')
        .select(['id', 'name', 'priceCents', 'maxPerRegistration'])
        .where('eventId', '=', event.id)
        .execute()
    ).map((t) => [t.id, t]),
  );
  const questions = await eventQuestions(db, event.id);
  const answers: Priced['answers'] = checkAnswers(questions, 'registration', form.answers, 'answers').map((a) => ({
    ...a,
    attendee: null,
  }));
  const lines: Priced['lines'] = [];
  for (const [i, a] of form.attendees.entries()) {
    const t = types.get(a.ticketTypeId);
    if (!t) throw badRequest(`Ticket type ${a.ticketTypeId} is not one of this event's`, `attendees.${i}.ticketTypeId`);
    lines.push({ ticketTypeId: t.id, name: t.name, priceCents: staff ? 0 : t.priceCents });
    for (const x of checkAnswers(questions, 'attendee', a.answers, `attendees.${i}.answers`)) {
      answers.push({ ...x, attendee: i });
    }
  }
  for (const [id, n] of seatsByType(form.attendees)) {
    const t = types.get(id)!;
    if (t.maxPerRegistration !== null && n > t.maxPerRegistration) {
      throw badRequest(`At most ${t.maxPerRegistration} ${t.name} tickets per registration`, 'attendees');
    }
  }
  const subtotalCents = lines.reduce((s, l) => s + l.priceCents, 0);
  if (subtotalCents > MAX_REGISTRATION_CENTS)
    throw badRequest('This registration costs more than one card payment can be', 'attendees');
  return { event, timeId: time.id, lines, subtotalCents, answers };
}

/** Why the public cannot register now, or null. */
export function closedReason(e: EventRow, now: Date): string | null {
  if (e.status === 'cancelled') return 'This event was cancelled';
  if (e.registrationOpensAt && now < e.registrationOpensAt) return 'Registration has not opened yet';
  if (e.registrationClosesAt && now >= e.registrationClosesAt) return 'Registration has closed';
  return null;
}

interface Written {
  id: number;
  userId: number;
  status: RegistrationStatus;
  totalCents: number;
  discountCents: number;
  giftId: number | null;
  holdExpiresAt: Date | null;
}

/**
 * In one transaction: the discount code's use, the seats (or the waitlist), the contact, the
 * registration with its attendees and answers, its ledger entry when it is to be paid, its message,
 * and `registration.created` last (with `registration.confirmed` when it is confirmed at once).
 */
async function writeRegistration(
  deps: CalendarDeps,
  p: Priced,
  form: Form & { discountCode?: string | null; idempotencyKey: string },
  o: { staff: boolean; actor?: EventActor; now: Date },
): Promise<Written> {
  const { event } = p;
  return deps.db.transaction().execute(async (trx) => {
    let discount: { id: number; cents: number } | null = null;
    if (form.discountCode) {
      const used = await useDiscountCode(trx, event.id, form.discountCode, o.now);
      if (!used.ok) {
        const why = { unknown: 'is not known', expired: 'has expired', used_up: 'has been used up' }[used.reason];
        throw badRequest(`Discount code ${form.discountCode} ${why}`, 'discountCode');
      }
      discount = { id: used.id, cents: discountOf(p.subtotalCents, used) };
    }
    const totalCents = p.subtotalCents - (discount?.cents ?? 0);
    const { contact, created } = await registrantContact(trx, event.userId, {
      name: form.registrant.name,
      email: form.registrant.email,
      phone: form.registrant.phone ?? null,
    });
    // Written first as waiting, its seats taken last: the seat counters stay locked only from
    // there to the commit.
    const reg = await trx
      .insertInto('calendarRegistrations')
      .values({
        userId: event.userId,
        eventId: event.id,
        timeId: p.timeId,
        status: 'waitlisted',
        contactId: contact.id,
        name: form.registrant.name,
        email: form.registrant.email,
        phone: form.registrant.phone ?? null,
        seats: p.lines.length,
        subtotalCents: p.subtotalCents,
        discountCodeId: discount?.id ?? null,
        discountCents: discount?.cents ?? 0,
        totalCents,
        waitlistedAt: o.now,
        idempotencyKey: form.idempotencyKey,
        createdAt: o.now,
        updatedAt: o.now,
      })
      .returning(['id', 'userId'])
      .executeTakeFirstOrThrow();
    const attendees = await trx
      .insertInto('calendarAttendees')
      .values(
        form.attendees.map((a, i) => ({
          userId: event.userId,
          registrationId: reg.id,
          ticketTypeId: a.ticketTypeId,
          name: a.name,
          email: a.email ?? null,
          priceCents: p.lines[i]!.priceCents,
          ticketToken: newToken(),
        })),
      )
      .returning('id')
      .execute();
    if (p.answers.length > 0) {
      await trx
        .insertInto('calendarAnswers')
        .values(
          p.answers.map((a) => ({
            userId: event.userId,
            registrationId: reg.id,
            attendeeId: a.attendee === null ? null : attendees[a.attendee]!.id,
            questionId: a.questionId,
            value: JSON.stringify(a.value),
          })),
        )
        .execute();
    }
    const byType = seatsByType(p.lines);
    const taken = await takeSeats(trx, p.timeId, byType);
    let status: RegistrationStatus;
    if (taken.ok) {
      status = o.staff
        ? 'confirmed'
        : event.requiresApproval
          ? 'pending_approval'
          : totalCents > 0
            ? 'held'
            : 'confirmed';
    } else if (taken.full === 'type') {
      const name = p.lines.find((l) => l.ticketTypeId === taken.ticketTypeId)!.name;
      const i = p.lines.findIndex((l) => l.ticketTypeId === taken.ticketTypeId);
      throw conflict(`${name} tickets are sold out for this time`, `attendees.${i}.ticketTypeId`);
    } else if (event.waitlist && !o.staff) {
      status = 'waitlisted';
    } else {
      throw conflict('This time is full', 'timeId');
    }
    const holdExpiresAt = status === 'held' ? new Date(o.now.getTime() + HOLD_MINUTES * 60_000) : null;
    if (status !== 'waitlisted') {
      await trx
        .updateTable('calendarRegistrations')
        .set({
          status,
          seatsHeld: true,
          holdExpiresAt,
          waitlistedAt: null,
          confirmedAt: status === 'confirmed' ? o.now : null,
        })
        .where('id', '=', reg.id)
        .execute();
    }
    const row = {
      id: reg.id,
      userId: event.userId,
      name: form.registrant.name,
      email: form.registrant.email,
      contactId: contact.id,
    };
    const giftId =
      status === 'held' ? await openRegistrationGift(trx, deps, { ...row, totalCents }, event.title) : null;
    if (status !== 'held') await queueRegistrationNotice(trx, row, status);
    await recordEvents(
      trx,
      event.userId,
      [
        ...(created ? [created] : []),
        {
          type: 'registration.created',
          contactId: contact.id,
          payload: {
            person: registrantPerson({ ...form.registrant, phone: form.registrant.phone ?? null }),
            calendarEvent: { id: event.id, name: event.title },
            registrationId: reg.id,
            status: status,
            attendees: p.lines.length,
            amountCents: totalCents,
            currency: 'usd',
          },
        },
        ...(status === 'confirmed' ? [await confirmedEvent(trx, reg.id)] : []),
      ],
      o.actor ? { actor: o.actor } : {},
    );
    return {
      id: reg.id,
      userId: event.userId,
      status,
      totalCents,
      discountCents: discount?.cents ?? 0,
      giftId,
      holdExpiresAt,
    };
  });
}

const MESSAGES: Record<RegisterResult['outcome'], string> = {
  confirmed: 'You are registered. A confirmation with your tickets is on its way by email.',
  waitlisted:
    'This time is full: you are on the waitlist. We will email you if a seat comes free. Nothing is charged now.',
  pending_approval: 'Thank you: your registration waits for the church to approve it. We will email you.',
  payment: `Your seats are held for ${HOLD_MINUTES} minutes while you pay.`,
};

/** What the form answers for a registration as it is now (a retried request answers the same). */
async function resultOf(deps: CalendarDeps, w: Written, title: string): Promise<RegisterResult> {
  if (w.status === 'cancelled' || w.status === 'expired' || w.status === 'declined') {
    const why = { cancelled: 'was cancelled', expired: 'ran out before it was paid', declined: 'was not approved' };
    throw conflict(`This registration ${why[w.status]}: please register again`);
  }
  // Someone offered a seat from the waitlist answers with the offer's email, as a waiting person.
  const outcome: RegisterResult['outcome'] =
    w.status === 'held' ? 'payment' : w.status === 'offered' ? 'waitlisted' : w.status;
  const payment =
    w.status === 'held' && w.giftId && w.holdExpiresAt
      ? await registrationPayment(
          deps,
          { id: w.id, userId: w.userId, giftId: w.giftId, holdExpiresAt: w.holdExpiresAt },
          title,
        )
      : null;
  const message = w.status === 'offered' ? 'A seat is offered to you: the link is in your email.' : MESSAGES[outcome];
  return {
    outcome,
    registrationId: w.id,
    totalCents: w.totalCents,
    discountCents: w.discountCents,
    payment,
    message: payment ? `${message} Total: ${formatCents(w.totalCents)}.` : message,
  };
}

/**
 * The public form: POST /api/public/calendar/events/{id}/register, and the public pages' form.
 * `tenantId` (the church of the page) makes another church's event 404; `member` (a signed-in
 * member in the portal) may register for a members-only event.
 */
export async function registerForEvent(
  deps: CalendarDeps,
  input: RegisterInput,
  o: { tenantId?: number; member?: boolean } = {},
): Promise<RegisterResult> {
  const now = nowOf(deps);
  const event = await deps.db.selectFrom('calendarEvents').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!event || event.status === 'draft' || (o.tenantId !== undefined && event.userId !== o.tenantId))
    throw notFound(EVENT_NOT_FOUND);
  if (event.visibility === 'members' && !o.member)
    throw forbidden("Members register for this event through the members' portal");
  const closed = closedReason(event, now);
  if (closed) throw conflict(closed);
  const key = `${event.id}:${input.idempotencyKey ?? crypto.randomUUID()}`;
  const again = await deps.db
    .selectFrom('calendarRegistrations')
    .select(['id', 'userId', 'status', 'totalCents', 'discountCents', 'giftId', 'holdExpiresAt'])
    .where('idempotencyKey', '=', key)
    .executeTakeFirst();
  if (again) return resultOf(deps, again, event.title);
  const priced = await checkForm(deps.db, event, input, now, false);
  if (priced.subtotalCents > 0) await assertCanTakePayments(deps, event.userId);
  const w = await writeRegistration(
    deps,
    priced,
    { ...input, idempotencyKey: key },
    { staff: false, actor: PUBLIC_ACTOR, now },
  );
  if (w.status !== 'held') await wakeRegistrationMessages(deps, w.userId);
  return resultOf(deps, w, event.title);
}

/** Staff add a registration (a walk-in, a phone call): confirmed at once, nothing to pay. */
export async function addRegistration(
  deps: CalendarDeps,
  tenantId: number,
  input: StaffRegisterInput,
): Promise<{ id: number }> {
  const now = nowOf(deps);
  const event = await deps.db
    .selectFrom('calendarEvents')
    .selectAll()
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!event) throw notFound(EVENT_NOT_FOUND);
  if (event.status === 'cancelled') throw conflict('This event was cancelled');
  const priced = await checkForm(deps.db, event, input, now, true);
  const w = await writeRegistration(
    deps,
    priced,
    { ...input, idempotencyKey: `${event.id}:${crypto.randomUUID()}` },
    { staff: true, now },
  );
  await wakeRegistrationMessages(deps, tenantId);
  return { id: w.id };
}
