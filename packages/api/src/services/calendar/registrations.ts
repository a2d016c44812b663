import { sql, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type {
  ListRegistrationsInput,
  RegistrationOut,
  registrationPageSchema,
} from '../../schemas/calendar-registrations.js';
import type { z } from 'zod';
import { EVENT_NOT_FOUND } from './events.js';

// The staff's registrant list: search, filters (status, time, ticket type, an answer, check-in),
// each registration with its attendees, answers and what the ledger holds of its payment.

export const REGISTRATION_NOT_FOUND = 'Registration not found';

const ENDED = ['cancelled', 'expired', 'declined'] as const;

/** Registrations as the API shows them, in the order of `ids`. */
export async function registrationsOut(db: Db, ids: readonly number[]): Promise<RegistrationOut[]> {
  if (ids.length === 0) return [];
  const [regs, attendees, answers] = await Promise.all([
    db
      .selectFrom('calendarRegistrations as r')
      .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
      .leftJoin('gifts as g', 'g.id', 'r.giftId')
      .selectAll('r')
      .select(['t.startsAt', 'g.status as paymentStatus'])
      .where('r.id', 'in', ids)
      .execute(),
    db
      .selectFrom('calendarAttendees as a')
      .innerJoin('calendarTicketTypes as k', 'k.id', 'a.ticketTypeId')
      .select([
        'a.id',
        'a.registrationId',
        'a.name',
        'a.email',
        'a.ticketTypeId',
        'k.name as ticketTypeName',
        'a.priceCents',
        'a.checkedInAt',
      ])
      .where('a.registrationId', 'in', ids)
      .orderBy('a.id')
      .execute(),
    db
      .selectFrom('calendarAnswers as x')
      .innerJoin('calendarQuestions as q', 'q.id', 'x.questionId')
      .select(['x.registrationId', 'x.questionId', 'x.attendeeId', 'q.label', 'x.value'])
      .where('x.registrationId', 'in', ids)
      .orderBy('q.position')
      .orderBy('x.id')
      .execute(),
  ]);
  const byId = new Map(regs.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r) => r !== undefined)
    .map((r) => ({
      id: r.id,
      eventId: r.eventId,
      timeId: r.timeId,
      startsAt: r.startsAt,
      status: r.status,
      contactId: r.contactId,
      name: r.name,
      email: r.email,
      phone: r.phone,
      seats: r.seats,
      subtotalCents: r.subtotalCents,
      discountCents: r.discountCents,
      totalCents: r.totalCents,
      paymentStatus: r.paymentStatus,
      refundedCents: r.refundedCents,
      refundDueCents: r.refundDueCents,
      holdExpiresAt: r.holdExpiresAt,
      offerExpiresAt: r.offerExpiresAt,
      createdAt: r.createdAt,
      confirmedAt: r.confirmedAt,
      cancelledAt: r.cancelledAt,
      attendees: attendees.filter((a) => a.registrationId === r.id).map(({ registrationId: _, ...a }) => a),
      answers: answers.filter((a) => a.registrationId === r.id).map(({ registrationId: _, ...a }) => a),
    }));
}

export async function getRegistration(db: Db, tenantId: number, input: { id: number }): Promise<RegistrationOut> {
  const row = await db
    .selectFrom('calendarRegistrations')
    .select('id')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound(REGISTRATION_NOT_FOUND);
  return (await registrationsOut(db, [row.id]))[0]!;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;

/** The event's registrations (`r`) in a status ('active': not ended) and at a time; 404 for another church's event. */
async function registrationsOf(
  db: Db,
  tenantId: number,
  input: Pick<ListRegistrationsInput, 'id' | 'status' | 'timeId'>,
) {
  const event = await db
    .selectFrom('calendarEvents')
    .select('id')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!event) throw notFound(EVENT_NOT_FOUND);
  let q = db
    .selectFrom('calendarRegistrations as r')
    .where('r.eventId', '=', event.id)
    .where('r.userId', '=', tenantId);
  if (input.status === 'active') q = q.where('r.status', 'not in', ENDED);
  else if (input.status !== 'all') q = q.where('r.status', '=', input.status);
  if (input.timeId) q = q.where('r.timeId', '=', input.timeId);
  return q;
}

/** Who a staff message goes to: the registrations' addresses and their contacts' mobile numbers. */
export async function registrantAddresses(
  db: Db,
  tenantId: number,
  input: Pick<ListRegistrationsInput, 'id' | 'status' | 'timeId'>,
) {
  return (await registrationsOf(db, tenantId, input))
    .leftJoin('contacts as c', (j) => j.onRef('c.id', '=', 'r.contactId').on('c.userId', '=', tenantId))
    .select(['r.id', 'r.name', 'r.email', 'r.contactId', 'c.phoneE164'])
    .orderBy('r.id')
    .execute();
}

export async function listRegistrations(
  db: Db,
  tenantId: number,
  input: ListRegistrationsInput,
): Promise<z.input<typeof registrationPageSchema>> {
  let q = await registrationsOf(db, tenantId, input);
  if (input.search) {
    const s = like(input.search);
    q = q.where(
      sql<boolean>`(r.name ilike ${s} or r.email ilike ${s} or exists (
        select 1 from calendar_attendees a where a.registration_id = r.id and a.name ilike ${s}))`,
    );
  }
  if (input.ticketTypeId) {
    q = q.where(
      sql<boolean>`exists (select 1 from calendar_attendees a where a.registration_id = r.id and a.ticket_type_id = ${input.ticketTypeId})`,
    );
  }
  if (input.questionId) {
    const answer = input.answer ? sql`and x.value::text ilike ${like(input.answer)}` : sql``;
    q = q.where(
      sql<boolean>`exists (select 1 from calendar_answers x where x.registration_id = r.id and x.question_id = ${input.questionId} ${answer})`,
    );
  }
  if (input.checkedIn !== 'all') {
    const arrived = sql<boolean>`exists (select 1 from calendar_attendees a where a.registration_id = r.id and a.checked_in_at is not null)`;
    q = q.where(input.checkedIn === 'yes' ? arrived : sql<boolean>`not ${arrived}`);
  }
  const [total, page] = await Promise.all([
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    q
      .select('r.id')
      .orderBy('r.id')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
  ]);
  return {
    registrations: await registrationsOut(
      db,
      page.map((r) => r.id),
    ),
    total: total.n,
    page: input.page,
    pageSize: input.pageSize,
  };
}
