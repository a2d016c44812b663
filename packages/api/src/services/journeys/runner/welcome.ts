import type { JourneyStep } from '../../../schemas/journeys.js';
import type { JourneyDefinition } from '../journey-definition.js';

/** A journey started by a family's first check-in: its operational steps welcome that family. */
export function isCheckinWelcome(d: Pick<JourneyDefinition, 'trigger'>): boolean {
  return d.trigger.kind === 'checked_in' && d.trigger.firstTimeOnly && d.trigger.weeksInARow === null;
}

/**
 * A message step sent as the welcome to a first-time family: an operational message to the address
 * the parent gave at check-in (marked operational, in a journey started by a first check-in).
 */
export function sentAsWelcome(d: Pick<JourneyDefinition, 'trigger'>, step: JourneyStep): boolean {
  return (step.kind === 'email' || step.kind === 'sms') && step.operational && isCheckinWelcome(d);
}
