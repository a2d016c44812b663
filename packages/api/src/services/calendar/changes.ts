import type { Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { RegistrationOut, UpdateRegistrationInput } from '../../schemas/calendar-registrations.js';
import { formatCents } from '../../shared/giving.js';
import { recordEvents } from '../events/record.js';
import { checkAnswers, eventQuestions } from './answers.js';
import { recordConfirmed } from './confirmed.js';
import { nowOf, queueRegistrationNotice, wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { registrantPerson } from './people.js';
import { settleRefunds } from './refunds.js';
import { getRegistration, REGISTRATION_NOT_FOUND } from './registrations.js';
import { endRegistrations, seatsFreed } from './waitlist.js';

// Staff changing a registration: its registrant's details and answers, approving or declining it,
// cancelling it with a refund through the payment processor (full or partial).

/** The church's registration, locked for the transaction, with its event's title and refund policy. */
async function lockedRegistration(trx: Db, tenantId: number, id: number) {
  const reg = await trx
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .selectAll('r')
    .select(['e.title', 'e.refundPolicy'])
    .where('r.id', '=', id)
    .where('r.userId', '=', tenantId)
    .forUpdate('r')
    .executeTakeFirst();
  if (!reg) throw notFound(REGISTRATION_NOT_FOUND);
  return reg;
}

export async function updateRegistration(
  deps: CalendarDeps,
  tenantId: number,
  input: UpdateRegistrationInput,
): Promise<RegistrationOut> {
  const now = nowOf(deps);
  await deps.db.transaction().execute(async (trx) => {
    const reg = await lockedRegistration(trx, tenantId, input.id);
    const details = { name: input.name, email: input.email, phone: input.phone };
    const set = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length > 0) {
      await trx
        .updateTable('calendarRegistrations')
        .set({ ...set, updatedAt: now })
        .where('id', '=', reg.id)
        .execute();
    }
    const attendees = await trx
      .selectFrom('calendarAttendees')
      .select('id')
      .where('registrationId', '=', reg.id)
      .execute();
    const mine = new Set(attendees.map((a) => a.id));
    for (const [i, a] of (input.attendees ?? []).entries()) {
      if (!mine.has(a.id)) throw badRequest(`Attendee ${a.id} is not on this registration`, `attendees.${i}.id`);
      await trx.updateTable('calendarAttendees').set({ name: a.name }).where('id', '=', a.id).execute();
    }
    if (input.answers && input.answers.length > 0) {
      // Each answer checked against its question (a change need not repeat the other answers).
      const questions = (await eventQuestions(trx, reg.eventId)).map((q) => ({ ...q, required: false }));
      for (const [i, a] of input.answers.entries()) {
        const attendeeId = a.attendeeId ?? null;
        if (attendeeId !== null && !mine.has(attendeeId)) {
          throw badRequest(`Attendee ${attendeeId} is not on this registration`, `answers.${i}.attendeeId`);
        }
        const [checked] = checkAnswers(
          questions.filter((q) => q.id === a.questionId),
          attendeeId === null ? 'registration' : 'attendee',
          [a],
          `answers.${i}`,
        );
        let del = trx
          .deleteFrom('calendarAnswers')
          .where('registrationId', '=', reg.id)
          .where('questionId', '=', a.questionId);
        del = attendeeId === null ? del.where('attendeeId', 'is', null) : del.where('attendeeId', '=', attendeeId);
        await del.execute();
        if (checked) {
          await trx
            .insertInto('calendarAnswers')
            .values({
              userId: tenantId,
              registrationId: reg.id,
              attendeeId,
              questionId: a.questionId,
              value: JSON.stringify(checked.value),
            })
            .execute();
        }
      }
    }
    if (input.status) {
      if (reg.status !== 'pending_approval') {
        throw conflict('Only a registration waiting for approval can be approved or declined', 'status');
      }
      const who = { ...reg, ...set };
      if (input.status === 'confirmed') {
        await trx
          .updateTable('calendarRegistrations')
          .set({ status: 'confirmed', confirmedAt: now, updatedAt: now })
          .where('id', '=', reg.id)
          .execute();
        await queueRegistrationNotice(trx, who, 'confirmed');
        await recordConfirmed(trx, reg);
      } else {
        await endRegistrations(trx, [reg], 'declined', { now, paid: false });
        await queueRegistrationNotice(trx, who, 'declined');
        await seatsFreed(trx, [reg.timeId], now);
      }
    }
  });
  if (input.status) await wakeRegistrationMessages(deps, tenantId);
  return getRegistration(deps.db, tenantId, { id: input.id });
}

/**
 * Cancels a registration: its seats given back (and offered to the waitlist), the refund owed
 * (`refundCents`, else all that was paid when the event's policy is a full refund) sent to the
 * payment processor right after the commit (and retried by the background work if it fails).
 */
export async function cancelRegistration(
  deps: CalendarDeps,
  tenantId: number,
  input: { id: number; refundCents?: number },
): Promise<RegistrationOut> {
  const now = nowOf(deps);
  await deps.db.transaction().execute(async (trx) => {
    const reg = await lockedRegistration(trx, tenantId, input.id);
    if (reg.status === 'cancelled' || reg.status === 'expired' || reg.status === 'declined') {
      throw conflict(`This registration is already ${reg.status === 'expired' ? 'expired' : reg.status}`);
    }
    const gift = reg.giftId
      ? await trx.selectFrom('gifts').select(['status', 'amountCents']).where('id', '=', reg.giftId).executeTakeFirst()
      : undefined;
    const paid = gift?.status === 'completed';
    const paidCents = paid ? gift.amountCents - reg.refundedCents : 0;
    const refund = input.refundCents ?? (reg.refundPolicy === 'full' ? paidCents : 0);
    if (refund > paidCents) {
      throw badRequest(
        paidCents === 0
          ? 'Nothing was paid for this registration, so nothing can be refunded'
          : `The refund cannot be more than the ${formatCents(paidCents)} paid`,
        'refundCents',
      );
    }
    await endRegistrations(trx, [reg], 'cancelled', { now, paid });
    if (refund > 0) {
      await trx
        .updateTable('calendarRegistrations')
        .set({ refundDueCents: refund, refundRetryAt: null })
        .where('id', '=', reg.id)
        .execute();
    }
    if (gift && !paid && gift.status === 'pending') {
      // A payment still to come would find the registration cancelled and be refunded (paid.ts).
      await trx
        .updateTable('gifts')
        .set({ status: 'failed', failureReason: 'The registration was cancelled before it was paid', updatedAt: now })
        .where('id', '=', reg.giftId!)
        .execute();
    }
    await queueRegistrationNotice(trx, reg, 'cancelled');
    await seatsFreed(trx, [reg.timeId], now);
    await recordEvents(trx, tenantId, [
      {
        type: 'registration.cancelled',
        contactId: reg.contactId,
        payload: {
          person: registrantPerson(reg),
          calendarEvent: { id: reg.eventId, name: reg.title },
          registrationId: reg.id,
          refundCents: refund,
          currency: 'usd',
        },
      },
    ]);
  });
  await settleRefunds(deps, { now, only: input.id });
  await wakeRegistrationMessages(deps, tenantId);
  return getRegistration(deps.db, tenantId, { id: input.id });
}
