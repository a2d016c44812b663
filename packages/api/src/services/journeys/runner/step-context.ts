import type { JourneyStep } from '../../../schemas/journeys.js';
import { fillMergeTags } from '../../email-campaigns/render.js';
import type { Church, Enrollment, GroupOut, Person, RunnerOptions } from './types.js';

/** What a step did: its outcome and detail (its run and Activity line), and the step that follows. */
export interface StepResult {
  outcome: 'done' | 'skipped' | 'yes' | 'no' | 'failed';
  detail: string;
  next: string | null;
  deliveryId?: number;
  /** The journey ends here. */
  end?: { status: 'exited'; reason: string };
}

/** What a step runs with: its enrolment, person and church, and the group's writes. */
export interface StepContext {
  e: Enrollment;
  step: JourneyStep;
  /** A message step sent as the welcome to a first-time family (`sentAsWelcome`). */
  welcome: boolean;
  person: Person;
  church: Church;
  now: Date;
  journeyName: string;
  opts: RunnerOptions;
  out: GroupOut;
}

/** A step's text with the person's and the church's merge tags filled (plain text). */
export function fillStepTags(x: StepContext, s: string): string {
  return fillMergeTags(
    s,
    { firstName: x.person.firstName, lastName: x.person.lastName, churchName: x.church.churchName },
    { html: false },
  );
}

/**
 * One delivery of the journey's step to `address` (kind 'journey'), inserted with the group's at
 * the end of its transaction; its id. One per (enrolment, step, address), as the table's unique key.
 */
export async function queueDelivery(
  x: StepContext,
  o: { channel: 'email' | 'sms'; address: string; contactId: number | null; firstName: string; lastName: string },
): Promise<number> {
  const key = `${x.e.id}:${x.step.id}:${o.address.toLowerCase()}`;
  const queued = x.out.deliveries.get(key);
  if (queued) return queued.id;
  const id = await x.out.deliveryIds.take();
  x.out.deliveries.set(key, {
    id,
    userId: x.e.userId,
    journeyId: x.e.journeyId,
    enrollmentId: x.e.id,
    stepId: x.step.id,
    givenAtCheckin: x.welcome,
    ...o,
  });
  return id;
}
