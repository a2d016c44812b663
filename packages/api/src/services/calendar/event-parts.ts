import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict } from '../../errors.js';
import type {
  discountCodeInput,
  eventTimeInput,
  questionInput,
  ticketTypeInput,
} from '../../schemas/calendar-events.js';

// An event's parts (times, ticket types, discount codes, questions) written as sets: an item with
// an id is that item changed, one without is new, and one left out is removed. A capacity is never
// set below the seats already taken, and a time or ticket type with seats taken is never removed.

type TimeIn = z.output<typeof eventTimeInput>;
type TicketIn = z.output<typeof ticketTypeInput>;
type CodeIn = z.output<typeof discountCodeInput>;
type QuestionIn = z.output<typeof questionInput>;

interface Owner {
  tenantId: number;
  eventId: number;
}

/** The ids of `table`'s rows of the event; an id given that is not one of them is a 404-free 400. */
async function existingIds(trx: Db, table: string, eventId: number): Promise<Set<number>> {
  const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where event_id = ${eventId}`.execute(
    trx,
  );
  return new Set(rows.map((r) => r.id));
}

function unknownId(label: string, field: string, id: number) {
  return badRequest(`${label} ${id} is not one of this event's`, field);
}

export async function syncTimes(trx: Db, o: Owner, times: readonly TimeIn[]): Promise<void> {
  const have = await existingIds(trx, 'calendar_event_times', o.eventId);
  const kept = new Set<number>();
  for (const [i, t] of times.entries()) {
    if (t.endsAt && t.endsAt <= t.startsAt) throw badRequest('A time must end after it starts', `times.${i}.endsAt`);
    if (t.id === undefined) {
      await trx
        .insertInto('calendarEventTimes')
        .values({
          userId: o.tenantId,
          eventId: o.eventId,
          startsAt: t.startsAt,
          endsAt: t.endsAt ?? null,
          capacity: t.capacity ?? null,
        })
        .execute();
      continue;
    }
    if (!have.has(t.id)) throw unknownId('Time', `times.${i}.id`, t.id);
    kept.add(t.id);
    const capacity = t.capacity ?? null;
    const row = await trx
      .updateTable('calendarEventTimes')
      .set({ startsAt: t.startsAt, endsAt: t.endsAt ?? null, capacity })
      .where('id', '=', t.id)
      .where(sql<boolean>`(${capacity}::int is null or seats_taken <= ${capacity}::int)`)
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const taken = await trx
        .selectFrom('calendarEventTimes')
        .select('seatsTaken')
        .where('id', '=', t.id)
        .executeTakeFirstOrThrow();
      throw badRequest(`Capacity cannot be below the ${taken.seatsTaken} seats already taken`, `times.${i}.capacity`);
    }
  }
  const gone = [...have].filter((id) => !kept.has(id));
  if (gone.length > 0) {
    const busy = await trx
      .selectFrom('calendarRegistrations')
      .select('timeId')
      .where('timeId', 'in', gone)
      .limit(1)
      .executeTakeFirst();
    if (busy) throw conflict('A time with registrations cannot be removed: cancel its registrations first', 'times');
    await trx.deleteFrom('calendarEventTimes').where('id', 'in', gone).execute();
  }
}

export async function syncTicketTypes(trx: Db, o: Owner, types: readonly TicketIn[]): Promise<void> {
  const have = await existingIds(trx, 'calendar_ticket_types', o.eventId);
  const kept = new Set<number>();
  for (const [i, t] of types.entries()) {
    const values = {
      name: t.name,
      priceCents: t.priceCents,
      capacity: t.capacity ?? null,
      maxPerRegistration: t.maxPerRegistration ?? null,
      position: i,
    };
    if (t.id === undefined) {
      await trx
        .insertInto('calendarTicketTypes')
        .values({ userId: o.tenantId, eventId: o.eventId, ...values })
        .execute();
      continue;
    }
    if (!have.has(t.id)) throw unknownId('Ticket type', `ticketTypes.${i}.id`, t.id);
    kept.add(t.id);
    // The counters of every time, locked: the new capacity is checked against what each has taken.
    const { rows } = await sql<{ taken: number }>`
      select coalesce(max(taken), 0)::int as taken from (
        select taken from calendar_ticket_counts where ticket_type_id = ${t.id} for update) c`.execute(trx);
    const taken = rows[0]?.taken ?? 0;
    if (values.capacity !== null && taken > values.capacity) {
      throw badRequest(
        `${t.name}: capacity cannot be below the ${taken} seats already taken`,
        `ticketTypes.${i}.capacity`,
      );
    }
    await trx.updateTable('calendarTicketTypes').set(values).where('id', '=', t.id).execute();
    await trx
      .updateTable('calendarTicketCounts')
      .set({ capacity: values.capacity })
      .where('ticketTypeId', '=', t.id)
      .execute();
  }
  const gone = [...have].filter((id) => !kept.has(id));
  if (gone.length > 0) {
    const busy = await trx
      .selectFrom('calendarAttendees')
      .select('id')
      .where('ticketTypeId', 'in', gone)
      .limit(1)
      .executeTakeFirst();
    if (busy) throw conflict('A ticket type with registrations cannot be removed', 'ticketTypes');
    await trx.deleteFrom('calendarTicketTypes').where('id', 'in', gone).execute();
  }
}

/** A counter for every (time, ticket type) of the event, with the ticket type's capacity. */
export async function ensureCounters(trx: Db, eventId: number): Promise<void> {
  await sql`
    insert into calendar_ticket_counts (time_id, ticket_type_id, user_id, capacity)
    select t.id, k.id, t.user_id, k.capacity
    from calendar_event_times t join calendar_ticket_types k on k.event_id = t.event_id
    where t.event_id = ${eventId}
    on conflict (time_id, ticket_type_id) do nothing`.execute(trx);
}

export async function syncDiscountCodes(trx: Db, o: Owner, codes: readonly CodeIn[]): Promise<void> {
  const have = await existingIds(trx, 'calendar_discount_codes', o.eventId);
  const seen = new Set<string>();
  const kept = new Set<number>();
  for (const [i, c] of codes.entries()) {
    const percentOff = c.percentOff ?? null;
    const amountOffCents = c.amountOffCents ?? null;
    if ((percentOff === null) === (amountOffCents === null)) {
      throw badRequest('A discount code takes either a percentage or an amount off', `discountCodes.${i}.percentOff`);
    }
    if (seen.has(c.code.toLowerCase())) throw badRequest(`Code ${c.code} is listed twice`, `discountCodes.${i}.code`);
    seen.add(c.code.toLowerCase());
    const values = {
      code: c.code,
      percentOff,
      amountOffCents,
      maxUses: c.maxUses ?? null,
      expiresAt: c.expiresAt ?? null,
    };
    if (c.id === undefined) {
      await trx
        .insertInto('calendarDiscountCodes')
        .values({ userId: o.tenantId, eventId: o.eventId, ...values })
        .execute();
      continue;
    }
    if (!have.has(c.id)) throw unknownId('Discount code', `discountCodes.${i}.id`, c.id);
    kept.add(c.id);
    const row = await trx
      .updateTable('calendarDiscountCodes')
      .set(values)
      .where('id', '=', c.id)
      .where(sql<boolean>`(${values.maxUses}::int is null or uses <= ${values.maxUses}::int)`)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw badRequest(`Code ${c.code} was already used more times than that`, `discountCodes.${i}.maxUses`);
  }
  const gone = [...have].filter((id) => !kept.has(id));
  if (gone.length > 0) await trx.deleteFrom('calendarDiscountCodes').where('id', 'in', gone).execute();
}

export async function syncQuestions(trx: Db, o: Owner, questions: readonly QuestionIn[]): Promise<void> {
  const have = await existingIds(trx, 'calendar_questions', o.eventId);
  const kept = new Set<number>();
  for (const [i, q] of questions.entries()) {
    const choosing = q.kind === 'choice' || q.kind === 'multiple_choice';
    if (choosing && q.choices.length < 2)
      throw badRequest('A choice question needs at least two choices', `questions.${i}.choices`);
    const values = {
      scope: q.scope,
      kind: q.kind,
      label: q.label,
      choices: choosing ? q.choices : [],
      required: q.required,
      position: i,
    };
    if (q.id === undefined) {
      await trx
        .insertInto('calendarQuestions')
        .values({ userId: o.tenantId, eventId: o.eventId, ...values })
        .execute();
      continue;
    }
    if (!have.has(q.id)) throw unknownId('Question', `questions.${i}.id`, q.id);
    kept.add(q.id);
    await trx.updateTable('calendarQuestions').set(values).where('id', '=', q.id).execute();
  }
  // A question removed takes its answers with it.
  const gone = [...have].filter((id) => !kept.has(id));
  if (gone.length > 0) await trx.deleteFrom('calendarQuestions').where('id', 'in', gone).execute();
}
