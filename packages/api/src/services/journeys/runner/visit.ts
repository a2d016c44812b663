import type { Db } from '@lampstand/db';
import { personOf } from '../../events/record.js';
import { type JourneyStep } from '../../../schemas/journeys.js';
import { describeStep } from '../../../shared/journeys.js';
import { waitMinutes } from '../../../shared/journey-steps.js';
import { stepById, type JourneyDefinition } from '../definitions.js';
import { nextWeekdayAt, quietHoursEnd } from '../time.js';
import { goalReached } from './conditions.js';
import { beforeEventEnd } from './before-event.js';
import { runStep } from './run-step.js';
import { sentAsWelcome } from './welcome.js';
import type { StepResult } from './step-context.js';
import type { Church, Enrollment, GroupOut, Person, RunnerOptions } from './types.js';

/** The most steps one visit runs (a journey has at most 50; a wait stops it long before). */
const MAX_STEPS_PER_VISIT = 60;
/** A test's wait: its amount in seconds (2 days → 2 s), at most this. */
const TEST_WAIT_MAX_SECONDS = 30;
/** Over the daily limit: try the step again this much later. */
const OVER_LIMIT_RETRY_MS = 60 * 60 * 1000;

/** One enrolment's visit: its steps until a wait or the end; true when it queued a message. */
export async function visit(
  trx: Db,
  v: {
    e: Enrollment;
    d: JourneyDefinition;
    church: Church;
    journey: { id: number; name: string };
    opts: RunnerOptions;
    out: GroupOut;
  },
): Promise<boolean> {
  const { e, d, church, journey, opts, out } = v;
  const now = opts.now;
  const ref = { id: journey.id, name: journey.name };
  const person = personFor(e, church, out.people);
  const events = out.events;
  const about = person ? personOf({ ...person, phone: person.phoneE164 }) : undefined;
  const contactId = e.contactId;
  let delivered = false;
  let ended: { status: 'completed' | 'converted' | 'exited'; reason?: string } | null = null;
  let nextRunAt: Date | null = e.nextRunAt;
  let waitUntil = e.waitUntil;
  let lastEmail = e.lastEmailDeliveryId;
  let current = e.currentStepId;

  if (!person) ended = { status: 'exited', reason: 'Contact deleted' };
  else if (d.goal && contactId && (await goalReached(trx, e, d.goal, contactId))) ended = { status: 'converted' };

  for (let i = 0; !ended && i < MAX_STEPS_PER_VISIT; i++) {
    const at = stepById(d, current);
    if (!at) {
      ended = { status: 'completed' };
      break;
    }
    const step = at.step;
    let r: StepResult | 'later';
    if (step.kind === 'wait') {
      // A wait before an event that is already closer than that ends at once.
      waitUntil ??=
        step.wait.mode === 'before_event'
          ? await beforeEventEnd(trx, e, step.wait, now)
          : waitEnd(step, now, church.timeZone, e.test);
      if (waitUntil.getTime() <= now.getTime()) {
        r = { outcome: 'done', detail: 'The wait is over', next: step.next };
        waitUntil = null;
      } else {
        nextRunAt = waitUntil;
        r = 'later';
      }
    } else if (step.kind === 'sms' && !e.test && quietHoursEnd(now, church.timeZone)) {
      // Quiet hours: the text waits for 8:00 in the church's time zone.
      nextRunAt = quietHoursEnd(now, church.timeZone);
      r = 'later';
    } else {
      const welcome = sentAsWelcome(d, step);
      r = await runStep(trx, { e, step, welcome, person: person!, church, now, journeyName: journey.name, opts, out });
      if (r !== 'later' && r.deliveryId && step.kind === 'email' && r.outcome === 'done') lastEmail = r.deliveryId;
      if (r !== 'later' && r.deliveryId) delivered = true;
      if (r === 'later') nextRunAt = new Date(now.getTime() + OVER_LIMIT_RETRY_MS);
    }
    if (r === 'later') break;
    out.runs.push({
      userId: e.userId,
      enrollmentId: e.id,
      stepId: step.id,
      kind: step.kind,
      outcome: r.outcome,
      detail: r.detail,
      deliveryId: r.deliveryId ?? null,
      createdAt: now,
    });
    // A task step's own event ('Task *Call Maria* assigned to Pastor John') tells it: one line, not two.
    if (contactId && !(step.kind === 'task' && r.outcome === 'done'))
      events.push({
        type: 'journey.step_done',
        contactId,
        payload: {
          person: about,
          journey: ref,
          enrollmentId: e.id,
          step: { id: step.id, kind: step.kind, name: stepName(step) },
          outcome: r.outcome,
          detail: r.detail,
        },
      });
    if (r.end) ended = r.end;
    else current = r.next;
  }

  if (ended) {
    out.updates.push({
      id: e.id,
      status: ended.status,
      endedAt: now,
      exitReason: ended.reason ?? null,
      nextRunAt: null,
      waitUntil: null,
      currentStepId: ended.status === 'completed' ? null : current,
      lastEmailDeliveryId: lastEmail,
    });
    if (contactId) {
      const base = { person: about, journey: ref, enrollmentId: e.id };
      if (ended.status === 'completed') events.push({ type: 'journey.completed', contactId, payload: base });
      else if (ended.status === 'converted')
        events.push({ type: 'journey.converted', contactId, payload: { ...base, goal: goalWords(d.goal) } });
      else events.push({ type: 'journey.exited', contactId, payload: { ...base, reason: ended.reason ?? '' } });
    }
  } else {
    out.updates.push({
      id: e.id,
      status: 'active',
      endedAt: null,
      exitReason: null,
      nextRunAt,
      waitUntil,
      currentStepId: current,
      lastEmailDeliveryId: lastEmail,
    });
  }
  return delivered;
}

/** When a wait that starts `now` ends (a test's waits last seconds). */
function waitEnd(step: Extract<JourneyStep, { kind: 'wait' }>, now: Date, timeZone: string, test: boolean): Date {
  const w = step.wait;
  if (test) {
    const seconds = w.mode === 'duration' ? Math.min(w.amount, TEST_WAIT_MAX_SECONDS) : 5;
    return new Date(now.getTime() + seconds * 1000);
  }
  if (w.mode === 'duration') return new Date(now.getTime() + waitMinutes(w) * 60_000);
  if (w.mode === 'before_event') return now;
  return nextWeekdayAt(now, timeZone, w.weekday, w.time);
}

function personFor(e: Enrollment, church: Church, people: Map<number, Person>): Person | null {
  if (e.contactId === null) {
    if (!e.test) return null;
    return {
      contactId: null,
      firstName: church.churchName,
      lastName: '',
      email: e.testEmail ?? church.accountEmail,
      phoneE164: null,
      emailConsent: 'subscribed',
      smsConsent: 'subscribed',
      tags: [],
    };
  }
  return people.get(e.contactId) ?? null;
}

/** The name a step has in the Activity ('Welcome', 'Call Maria', 'wait 2 days'). */
function stepName(step: JourneyStep): string {
  switch (step.kind) {
    case 'email':
    case 'sms':
      return step.name;
    case 'task':
      return step.title;
    case 'notify':
      return step.subject;
    default:
      return describeStep(step).replace(/\*/g, '');
  }
}

function goalWords(goal: JourneyDefinition['goal']): string {
  if (!goal) return '';
  if (goal.kind === 'gave') return 'gave';
  if (goal.kind === 'tag_added') return `tagged ${goal.tag}`;
  if (goal.kind === 'renewed_giving') return 'set up their recurring gift again';
  return 'joined the list';
}
