import type { JourneyStep } from '../../../../schemas/journeys.js';
import type { StepContext, StepResult } from '../step-context.js';

/** An add-tag step: the tag is written with the group's at the end of the transaction. */
export function runTagStep(x: StepContext, step: Extract<JourneyStep, { kind: 'add_tag' }>): StepResult {
  const { person } = x;
  const contactId = person.contactId;
  if (!contactId) return { outcome: 'skipped', detail: 'Not a contact (a test)', next: step.next };
  // Written with the group's at the end; a later step of this visit already sees it.
  if (!person.tags.includes(step.tag)) person.tags = [...person.tags, step.tag];
  x.out.tagAdds.push({ person: { ...person, contactId }, tag: step.tag });
  return { outcome: 'done', detail: `Tagged ${step.tag}`, next: step.next };
}
