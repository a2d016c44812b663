import type { Db } from '@lampstand/db';
import type { EventActor, NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { registrantPerson } from './people.js';

// `registration.confirmed`: a registration now holds its seats for good. Written by each way a
// registration is confirmed (free at once, a payment, a waitlist offer claimed, staff approving
// one, staff adding one), in the transaction that confirmed it; journeys 'Registered for an event'
// start on it, so nobody enters while held for payment, waiting for approval or on the waitlist.

/** The event of a registration just confirmed (read in the caller's transaction). */
export async function confirmedEvent(trx: Db, registrationId: number): Promise<NewEvent> {
  const r = await trx
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .select(['r.id', 'r.contactId', 'r.name', 'r.email', 'r.phone', 'r.seats', 'r.totalCents', 'r.eventId', 'e.title'])
    .where('r.id', '=', registrationId)
    .executeTakeFirstOrThrow();
  return {
    type: 'registration.confirmed',
    contactId: r.contactId,
    payload: {
      person: registrantPerson(r),
      calendarEvent: { id: r.eventId, name: r.title },
      registrationId: r.id,
      attendees: r.seats,
      amountCents: r.totalCents,
      currency: 'usd',
    },
  };
}

/**
 * Records `registration.confirmed`, last in the caller's transaction (it takes the church's event
 * lock); by `actor`, else whoever is acting.
 */
export async function recordConfirmed(trx: Db, reg: { id: number; userId: number }, actor?: EventActor): Promise<void> {
  await recordEvents(trx, reg.userId, [await confirmedEvent(trx, reg.id)], actor ? { actor } : {});
}
