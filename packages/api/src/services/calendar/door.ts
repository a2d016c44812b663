import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { checkInResultSchema, ticketSchema } from '../../schemas/calendar-registrations.js';
import { churchLocaleOf } from '../settings/church-settings.js';
import { recordEvents } from '../events/record.js';
import { EVENT_NOT_FOUND } from './events.js';
import { registrantPerson } from './people.js';
import { REGISTRATION_NOT_FOUND, registrationsOut } from './registrations.js';

// At the door: a scanned ticket looked up (it must be for this event), and attendees checked in
// once each; a second check-in answers when the first one was, in the church's time zone.

/** 'HH:MM' in the church's time zone. */
export function clockTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(
    at,
  );
}

/** The token of what a QR code says: a ticket's address (…/tickets/{token}) or the token alone. */
export function ticketToken(scanned: string): string {
  const s = scanned.trim();
  const m = /\/tickets\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(s);
  return m ? m[1]! : s;
}

/** A ticket's address, as its QR code says it. */
export const ticketUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/tickets/${token}`;

export async function lookupTicket(
  db: Db,
  tenantId: number,
  input: { id: number; ticket: string },
): Promise<z.input<typeof ticketSchema>> {
  const event = await db
    .selectFrom('calendarEvents')
    .select(['id'])
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!event) throw notFound(EVENT_NOT_FOUND);
  const token = ticketToken(input.ticket);
  const row = await db
    .selectFrom('calendarAttendees as a')
    .innerJoin('calendarRegistrations as r', 'r.id', 'a.registrationId')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .select(['a.id', 'r.id as registrationId', 'r.eventId', 'e.title', 't.startsAt'])
    .where('a.ticketToken', '=', token)
    .where('a.userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Ticket not found');
  if (row.eventId !== event.id) {
    const { timeZone } = await churchLocaleOf(db, tenantId);
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone }).format(row.startsAt);
    throw conflict(`This ticket is for ${row.title} (${day})`, 'ticket');
  }
  const [reg] = await registrationsOut(db, [row.registrationId]);
  return {
    registrationId: reg!.id,
    status: reg!.status,
    attendee: reg!.attendees.find((a) => a.id === row.id)!,
    registrant: reg!.name,
  };
}

export async function checkIn(
  db: Db,
  tenantId: number,
  input: { id: number; attendeeIds?: number[] },
  o: { now?: Date; staffId: number | null },
): Promise<z.input<typeof checkInResultSchema>> {
  const now = o.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const reg = await trx
      .selectFrom('calendarRegistrations as r')
      .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
      .selectAll('r')
      .select(['e.title'])
      .where('r.id', '=', input.id)
      .where('r.userId', '=', tenantId)
      .forUpdate('r')
      .executeTakeFirst();
    if (!reg) throw notFound(REGISTRATION_NOT_FOUND);
    if (reg.status !== 'confirmed') {
      throw conflict(`This registration is ${reg.status.replace('_', ' ')}, not confirmed: it cannot be checked in`);
    }
    const attendees = await trx
      .selectFrom('calendarAttendees')
      .select(['id', 'name', 'checkedInAt'])
      .where('registrationId', '=', reg.id)
      .orderBy('id')
      .execute();
    const wanted = input.attendeeIds ?? attendees.map((a) => a.id);
    for (const [i, id] of wanted.entries()) {
      if (!attendees.some((a) => a.id === id)) {
        throw badRequest(`Attendee ${id} is not on this registration`, `attendeeIds.${i}`);
      }
    }
    const arriving = attendees.filter((a) => wanted.includes(a.id) && a.checkedInAt === null);
    if (arriving.length === 0) {
      const first = attendees
        .filter((a) => wanted.includes(a.id))
        .map((a) => a.checkedInAt!)
        .sort((a, b) => a.getTime() - b.getTime())[0]!;
      const { timeZone } = await churchLocaleOf(trx, tenantId);
      throw conflict(`Already checked in at ${clockTime(first, timeZone)}`);
    }
    await trx
      .updateTable('calendarAttendees')
      .set({ checkedInAt: now, checkedInBy: o.staffId })
      .where(
        'id',
        'in',
        arriving.map((a) => a.id),
      )
      .execute();
    await recordEvents(trx, tenantId, [
      {
        type: 'registration.checked_in',
        contactId: reg.contactId,
        payload: {
          person: registrantPerson(reg),
          calendarEvent: { id: reg.eventId, name: reg.title },
          registrationId: reg.id,
          attendees: arriving.map((a) => a.name),
        },
      },
    ]);
    return { registrationId: reg.id, checkedIn: arriving.map((a) => ({ id: a.id, name: a.name, checkedInAt: now })) };
  });
}
