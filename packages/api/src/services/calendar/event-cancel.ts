import type { Db } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { queueRegistrationNotice, wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { registrantPerson } from './people.js';
import { settleRefunds } from './refunds.js';
import { endRegistrations } from './waitlist.js';

// An event the church cancels: every registration still open is cancelled with it, what was paid
// refunded in full whatever the refund policy (the church called it off), each person told, and
// `registration.cancelled` recorded for each, last in the transaction that cancelled the event.

const OPEN = ['held', 'pending_approval', 'confirmed', 'waitlisted', 'offered'] as const;

export async function cancelEventRegistrations(
  trx: Db,
  tenantId: number,
  event: { id: number; title: string },
  now: Date,
): Promise<number> {
  const regs = await trx
    .selectFrom('calendarRegistrations as r')
    .leftJoin('gifts as g', 'g.id', 'r.giftId')
    .selectAll('r')
    .select(['g.status as paymentStatus', 'g.amountCents as paidCents'])
    .where('r.eventId', '=', event.id)
    .where('r.userId', '=', tenantId)
    .where('r.status', 'in', OPEN)
    .orderBy('r.id')
    .forUpdate('r')
    .execute();
  const events: NewEvent[] = [];
  for (const reg of regs) {
    const paid = reg.paymentStatus === 'completed';
    const refund = paid ? reg.paidCents! - reg.refundedCents : 0;
    await endRegistrations(trx, [reg], 'cancelled', { now, paid });
    if (refund > 0) {
      await trx
        .updateTable('calendarRegistrations')
        .set({ refundDueCents: refund, refundRetryAt: null })
        .where('id', '=', reg.id)
        .execute();
    }
    if (reg.giftId && reg.paymentStatus === 'pending') {
      await trx
        .updateTable('gifts')
        .set({ status: 'failed', failureReason: 'The event was cancelled before it was paid', updatedAt: now })
        .where('id', '=', reg.giftId)
        .execute();
    }
    await queueRegistrationNotice(trx, reg, 'cancelled');
    events.push({
      type: 'registration.cancelled',
      contactId: reg.contactId,
      payload: {
        person: registrantPerson(reg),
        calendarEvent: { id: event.id, name: event.title },
        registrationId: reg.id,
        refundCents: refund,
        currency: 'usd',
      },
    });
  }
  await recordEvents(trx, tenantId, events);
  return regs.length;
}

/** After the commit that cancelled an event: its refunds sent, its messages asked for. */
export async function afterEventCancelled(deps: CalendarDeps, tenantId: number): Promise<void> {
  await settleRefunds(deps, { now: deps.now?.() ?? new Date() });
  await wakeRegistrationMessages(deps, tenantId);
}
