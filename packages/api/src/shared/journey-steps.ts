import type { JourneyStep, JourneyWait, WAIT_UNITS } from '../schemas/journeys/steps.js';

// A journey's steps as a graph and a clock: where a step leads, how long a wait lasts.

const UNIT_MINUTES: Record<(typeof WAIT_UNITS)[number], number> = {
  minutes: 1,
  hours: 60,
  days: 60 * 24,
  weeks: 60 * 24 * 7,
};

/** Minutes a duration wait lasts (for the 365-day check and the runner). */
export const waitMinutes = (w: Extract<JourneyWait, { mode: 'duration' | 'before_event' }>) =>
  w.amount * UNIT_MINUTES[w.unit];

/** The steps a step leads to (none for exit). */
export function stepTargets(step: JourneyStep): (string | null)[] {
  if (step.kind === 'exit') return [];
  if (step.kind === 'branch') return [step.yes, step.no];
  return [step.next];
}
