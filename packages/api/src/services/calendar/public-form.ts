import QRCode from 'qrcode';
import { ZodError } from 'zod';
import { AppError } from '../../errors.js';
import { MAX_ATTENDEES } from '../../schemas/calendar-events.js';
import { registerSchema, type RegisterInput } from '../../schemas/calendar-registrations.js';
import type { Question } from './answers.js';
import { ticketUrl } from './door.js';

// The public pages' registration form (plain HTML fields named by the register route's error
// paths) read into the register route's input, and its errors put back by their fields. In the
// portal the form's first rows are the member's household, each coming only when its box is
// ticked (`attendees.N.coming`); the rows after them are other people, typed in.

type Body = Record<string, string | string[]>;
const one = (v: string | string[] | undefined) => ((Array.isArray(v) ? v[0] : v) ?? '').trim();

/** An answer from its field: by the question's kind; an empty field is no answer. */
function answerOf(q: Question, raw: string | string[] | undefined): unknown {
  if (q.kind === 'multiple_choice') return raw === undefined ? [] : ([] as string[]).concat(raw);
  const v = one(raw);
  if (q.kind === 'yes_no') return v === 'yes' ? true : v === 'no' ? false : '';
  if (q.kind === 'number') return v === '' ? '' : Number.isFinite(Number(v)) ? Number(v) : v;
  return v;
}

export function formAnswers(questions: Question[], scope: Question['scope'], body: Body, prefix: string) {
  // An empty field is no answer (a required question then 'needs an answer').
  return questions
    .filter((q) => q.scope === scope)
    .map((q) => ({ questionId: q.id, value: answerOf(q, body[`${prefix}.${q.id}`]) }))
    .filter((a) => a.value !== '' && !(Array.isArray(a.value) && a.value.length === 0));
}

/**
 * How many attendee rows the posted form has, after its 'Add'/'Remove' button: at least one, and
 * at least the `household` rows (a member's household, always shown).
 */
export function formAttendees(body: Body, household = 0): number {
  const least = Math.max(1, household);
  const n = Math.min(Math.max(MAX_ATTENDEES, least), Math.max(least, Number(one(body.count)) || 1));
  const change = one(body.change);
  return change === 'add' ? Math.min(MAX_ATTENDEES, n + 1) : change === 'remove' ? Math.max(least, n - 1) : n;
}

/** The rows of the form that are attendees: a household row only when ticked, every other row. */
export function attendeeRows(body: Body, household = 0): number[] {
  return Array.from({ length: formAttendees({ count: body.count ?? '' }, household) }, (_, i) => i).filter(
    (i) => i >= household || one(body[`attendees.${i}.coming`]) !== '',
  );
}

/** The form as the register route's input (checked by its schema: a ZodError names the field). */
export function registrationFromForm(
  eventId: number,
  questions: Question[],
  body: Body,
  idempotencyKey?: string,
  household = 0,
): RegisterInput {
  const rows = attendeeRows(body, household);
  const email = (v: string) => (v === '' ? null : v);
  return registerSchema.parse({
    id: eventId,
    timeId: one(body.timeId) === '' ? undefined : Number(one(body.timeId)),
    registrant: {
      name: one(body['registrant.name']),
      email: one(body['registrant.email']),
      phone: one(body['registrant.phone']) || null,
    },
    attendees: rows.map((i) => ({
      name: one(body[`attendees.${i}.name`]),
      email: email(one(body[`attendees.${i}.email`])),
      ticketTypeId: Number(one(body[`attendees.${i}.ticketTypeId`])),
      answers: formAnswers(questions, 'attendee', body, `attendees.${i}.answers`),
    })),
    answers: formAnswers(questions, 'registration', body, 'answers'),
    discountCode: one(body.discountCode) || undefined,
    idempotencyKey,
  });
}

/**
 * The errors of a failed registration by the form's fields, or null when the error is not the
 * form's (it is thrown on). `rows` (from `attendeeRows`) names the form row of each attendee the
 * input had, when rows were left out (a household member not ticked).
 */
export function formErrors(err: unknown, rows?: number[]): Record<string, string> | null {
  const field = (key: string) =>
    rows ? key.replace(/^attendees\.(\d+)(?=\.|$)/, (_, k: string) => `attendees.${rows[Number(k)] ?? k}`) : key;
  if (err instanceof ZodError) {
    const out: Record<string, string> = {};
    for (const i of err.issues) {
      const key = field(i.path.map(String).join('.'));
      out[key || '_'] ??= i.message;
    }
    return out;
  }
  if (err instanceof AppError && ['BAD_REQUEST', 'CONFLICT', 'TOO_MANY_REQUESTS', 'FORBIDDEN'].includes(err.code)) {
    return { [err.field ? field(err.field) : '_']: err.message };
  }
  return null;
}

/** The QR code of a ticket's address, as a PNG data address for the ticket page. */
export const ticketQrDataUrl = (publicUrl: string, token: string) =>
  QRCode.toDataURL(ticketUrl(publicUrl, token), { errorCorrectionLevel: 'M', margin: 2, width: 280 });
