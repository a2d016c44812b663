import type { Db } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import type { AnswerValue } from '../../schemas/calendar-registrations.js';

// An event's questions and the answers a registration gives them: each answer checked against its
// question's kind and choices, each required question answered, with the message naming the field.

export interface Question {
  id: number;
  scope: 'registration' | 'attendee';
  kind: 'short_text' | 'long_text' | 'choice' | 'multiple_choice' | 'yes_no' | 'date' | 'number';
  label: string;
  choices: string[];
  required: boolean;
}

export async function eventQuestions(db: Db, eventId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom('calendarQuestions')
    .select(['id', 'scope', 'kind', 'label', 'choices', 'required'])
    .where('eventId', '=', eventId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows;
}

const empty = (v: AnswerValue) => v === '' || (Array.isArray(v) && v.length === 0);

/** One answer, checked against its question; the value to store (text trimmed). */
function checkedValue(q: Question, value: AnswerValue, field: string): AnswerValue {
  const wrong = (what: string) => badRequest(`"${q.label}": ${what}`, field);
  switch (q.kind) {
    case 'short_text':
    case 'long_text': {
      if (typeof value !== 'string') throw wrong('the answer must be text');
      const max = q.kind === 'short_text' ? 500 : 5000;
      if (value.length > max) throw wrong(`the answer must be at most ${max} characters`);
      return value.trim();
    }
    case 'choice':
      if (typeof value !== 'string' || !q.choices.includes(value)) {
        throw wrong(`choose one of ${q.choices.join(', ')}`);
      }
      return value;
    case 'multiple_choice':
      if (!Array.isArray(value) || value.some((v) => !q.choices.includes(v))) {
        throw wrong(`choose from ${q.choices.join(', ')}`);
      }
      return [...new Set(value)];
    case 'yes_no':
      if (typeof value !== 'boolean') throw wrong('the answer must be yes or no (true or false)');
      return value;
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
        throw wrong('the answer must be a date (YYYY-MM-DD)');
      }
      return value;
    case 'number':
      if (typeof value !== 'number') throw wrong('the answer must be a number');
      return value;
  }
}

/**
 * The answers of one scope (the registration's, or one attendee's), checked: each names a question
 * of the event asked of that scope, fits its kind, and every required one is there.
 */
export function checkAnswers(
  questions: readonly Question[],
  scope: Question['scope'],
  answers: readonly { questionId: number; value: AnswerValue }[],
  fieldPrefix: string,
): { questionId: number; value: AnswerValue }[] {
  const asked = new Map(questions.filter((q) => q.scope === scope).map((q) => [q.id, q]));
  const out = new Map<number, AnswerValue>();
  for (const a of answers) {
    const q = asked.get(a.questionId);
    const field = `${fieldPrefix}.${a.questionId}`;
    if (!q) throw badRequest(`Question ${a.questionId} is not asked of this ${scope}`, field);
    if (empty(a.value) && !q.required) continue;
    out.set(q.id, checkedValue(q, a.value, field));
  }
  for (const q of asked.values()) {
    const v = out.get(q.id);
    if (q.required && (v === undefined || empty(v))) {
      throw badRequest(`"${q.label}" needs an answer`, `${fieldPrefix}.${q.id}`);
    }
  }
  return [...out].map(([questionId, value]) => ({ questionId, value }));
}
