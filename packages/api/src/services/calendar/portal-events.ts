import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type { AnswerValue } from '../../schemas/calendar-registrations.js';
import type { PortalSession } from '../portal/sessions.js';
import { eventQuestions, type Question } from './answers.js';
import { REGISTRATION_NOT_FOUND } from './registrations.js';

// 'My events' in the members' portal: the registrations of the session's people (by their
// contacts), one of them with its attendees and answers (another's is 404), and the events a
// member may register for (public and members-only, published, still to come).

export interface PortalRegistration {
  id: number;
  title: string;
  slug: string;
  startsAt: Date;
  status: string;
  seats: number;
  totalCents: number;
  refundPolicy: 'full' | 'none';
  attendees: { id: number; name: string; ticketToken: string }[];
}

export async function portalRegistrations(db: Db, s: PortalSession): Promise<PortalRegistration[]> {
  if (s.contactIds.length === 0) return [];
  const regs = await db
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .select(['r.id', 'e.title', 'e.slug', 't.startsAt', 'r.status', 'r.seats', 'r.totalCents', 'e.refundPolicy'])
    .where('r.userId', '=', s.userId)
    .where('r.contactId', 'in', s.contactIds)
    .where('r.status', 'not in', ['expired'])
    .orderBy('t.startsAt', 'desc')
    .limit(100)
    .execute();
  if (regs.length === 0) return [];
  const attendees = await db
    .selectFrom('calendarAttendees')
    .select(['id', 'name', 'ticketToken', 'registrationId'])
    .where(
      'registrationId',
      'in',
      regs.map((r) => r.id),
    )
    .orderBy('id')
    .execute();
  return regs.map((r) => ({ ...r, attendees: attendees.filter((a) => a.registrationId === r.id) }));
}

export interface PortalRegistrationDetail extends PortalRegistration {
  eventId: number;
  questions: Question[];
  /** Answers by `{questionId}` (the registration's) or `{attendeeId}.{questionId}`. */
  answers: Record<string, AnswerValue>;
}

/** One of the session's registrations with its questions and answers; another's is 404. */
export async function portalRegistration(db: Db, s: PortalSession, id: number): Promise<PortalRegistrationDetail> {
  const mine = (await portalRegistrations(db, s)).find((r) => r.id === id);
  if (!mine) throw notFound(REGISTRATION_NOT_FOUND);
  const reg = await db
    .selectFrom('calendarRegistrations')
    .select('eventId')
    .where('id', '=', id)
    .where('userId', '=', s.userId)
    .executeTakeFirstOrThrow();
  const [questions, rows] = await Promise.all([
    eventQuestions(db, reg.eventId),
    db
      .selectFrom('calendarAnswers')
      .select(['questionId', 'attendeeId', 'value'])
      .where('registrationId', '=', id)
      .execute(),
  ]);
  const answers: Record<string, AnswerValue> = {};
  for (const a of rows)
    answers[a.attendeeId === null ? `${a.questionId}` : `${a.attendeeId}.${a.questionId}`] = a.value;
  return { ...mine, eventId: reg.eventId, questions, answers };
}

export interface MemberEvent {
  slug: string;
  title: string;
  startsAt: Date;
  visibility: 'public' | 'members' | 'link';
}

/** Events a member may register for in the portal: published public and members-only, to come. */
export async function memberEvents(db: Db, tenantId: number, now: Date): Promise<MemberEvent[]> {
  const rows = await db
    .selectFrom('calendarEvents as e')
    .innerJoin('calendarEventTimes as t', 't.eventId', 'e.id')
    .select(['e.slug', 'e.title', 'e.visibility'])
    .select((eb) => eb.fn.min('t.startsAt').as('startsAt'))
    .where('e.userId', '=', tenantId)
    .where('e.status', '=', 'published')
    .where('e.visibility', 'in', ['public', 'members'])
    .where('t.startsAt', '>', now)
    .groupBy('e.id')
    .orderBy('startsAt')
    .limit(100)
    .execute();
  return rows.map((r) => ({ ...r, startsAt: new Date(r.startsAt) }));
}
