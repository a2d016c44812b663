import { sql, type Db } from '@lampstand/db';

// The seat counters of a registration's time and ticket types. Every move is one conditional
// UPDATE per counter (`taken + n <= capacity` in its WHERE, re-checked by PostgreSQL on the locked
// row), so two registrations racing for the last seat cannot both win; the counters' check
// constraints are the last guard. Never read-then-write.

/** How many seats of each ticket type a registration takes. */
export type SeatsByType = Map<number, number>;

export type SeatsTaken = { ok: true } | { ok: false; full: 'time' } | { ok: false; full: 'type'; ticketTypeId: number };

/** Counts attendees per ticket type. */
export function seatsByType(attendees: readonly { ticketTypeId: number }[]): SeatsByType {
  const m: SeatsByType = new Map();
  for (const a of attendees) m.set(a.ticketTypeId, (m.get(a.ticketTypeId) ?? 0) + 1);
  return m;
}

const total = (byType: SeatsByType) => [...byType.values()].reduce((s, n) => s + n, 0);

/**
 * Takes the seats in the caller's transaction: the time's counter first, then each ticket type's in
 * id order (every registration locks in the same order, so none waits on another in a cycle). When
 * one is full, the counters already moved are moved back in the same transaction and the answer
 * says which was full.
 */
export async function takeSeats(trx: Db, timeId: number, byType: SeatsByType): Promise<SeatsTaken> {
  const n = total(byType);
  const time = await sql`
    update calendar_event_times set seats_taken = seats_taken + ${n}
    where id = ${timeId} and (capacity is null or seats_taken + ${n} <= capacity)
    returning id`.execute(trx);
  if (time.rows.length === 0) return { ok: false, full: 'time' };
  const done: [number, number][] = [];
  for (const [ticketTypeId, k] of [...byType.entries()].sort((a, b) => a[0] - b[0])) {
    const row = await sql`
      update calendar_ticket_counts set taken = taken + ${k}
      where time_id = ${timeId} and ticket_type_id = ${ticketTypeId} and (capacity is null or taken + ${k} <= capacity)
      returning time_id`.execute(trx);
    if (row.rows.length === 0) {
      await giveBack(trx, timeId, new Map(done));
      await sql`update calendar_event_times set seats_taken = seats_taken - ${n} where id = ${timeId}`.execute(trx);
      return { ok: false, full: 'type', ticketTypeId };
    }
    done.push([ticketTypeId, k]);
  }
  return { ok: true };
}

async function giveBack(trx: Db, timeId: number, byType: SeatsByType): Promise<void> {
  for (const [ticketTypeId, k] of [...byType.entries()].sort((a, b) => a[0] - b[0])) {
    await sql`
      update calendar_ticket_counts set taken = taken - ${k}
      where time_id = ${timeId} and ticket_type_id = ${ticketTypeId}`.execute(trx);
  }
}

/** Gives a registration's seats back (the caller holds its row and clears `seats_held`). */
export async function releaseSeats(trx: Db, timeId: number, byType: SeatsByType): Promise<void> {
  await sql`update calendar_event_times set seats_taken = seats_taken - ${total(byType)} where id = ${timeId}`.execute(
    trx,
  );
  await giveBack(trx, timeId, byType);
}

/** A registration's seats by ticket type, from its attendees. */
export async function registrationSeats(trx: Db, registrationId: number): Promise<SeatsByType> {
  const rows = await trx
    .selectFrom('calendarAttendees')
    .select(['ticketTypeId'])
    .where('registrationId', '=', registrationId)
    .execute();
  return seatsByType(rows);
}

/**
 * One use of a discount code, counted like a seat: refused when its uses are spent or it expired.
 * The code's row, or the reason it cannot be used.
 */
export async function useDiscountCode(
  trx: Db,
  eventId: number,
  code: string,
  now: Date,
): Promise<
  | { ok: true; id: number; percentOff: number | null; amountOffCents: number | null }
  | { ok: false; reason: 'unknown' | 'expired' | 'used_up' }
> {
  const row = await trx
    .updateTable('calendarDiscountCodes')
    .set({ uses: sql`uses + 1` })
    .where('eventId', '=', eventId)
    .where(sql<boolean>`lower(code) = lower(${code})`)
    .where(sql<boolean>`(expires_at is null or expires_at > ${now})`)
    .where(sql<boolean>`(max_uses is null or uses < max_uses)`)
    .returning(['id', 'percentOff', 'amountOffCents'])
    .executeTakeFirst();
  if (row) return { ok: true, ...row };
  const known = await trx
    .selectFrom('calendarDiscountCodes')
    .select(['expiresAt'])
    .where('eventId', '=', eventId)
    .where(sql<boolean>`lower(code) = lower(${code})`)
    .executeTakeFirst();
  if (!known) return { ok: false, reason: 'unknown' };
  return { ok: false, reason: known.expiresAt && known.expiresAt <= now ? 'expired' : 'used_up' };
}

/** A use given back (a registration that ended without being paid). */
export async function returnDiscountCode(trx: Db, codeId: number | null): Promise<void> {
  if (codeId === null) return;
  await sql`update calendar_discount_codes set uses = uses - 1 where id = ${codeId} and uses > 0`.execute(trx);
}

/** The discount on a subtotal: a percentage (rounded to the cent) or an amount, never more than the subtotal. */
export function discountOf(subtotalCents: number, code: { percentOff: number | null; amountOffCents: number | null }) {
  if (code.percentOff !== null) return Math.round((subtotalCents * code.percentOff) / 100);
  return Math.min(subtotalCents, code.amountOffCents ?? 0);
}
