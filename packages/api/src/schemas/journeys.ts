/**
 * Journeys: a trigger read from the event log, an entry rule, a goal, and steps that
 * run over days for each person who enters. The editor and the API share these schemas.
 *
 * Steps are a flat list of nodes, each with a stable `id` (made by the editor) and the id of the
 * step that follows (`next`; a branch has `yes` and `no`). The first step of the list is where a
 * person starts; a `null` next ends the journey (completed). Paths may meet again (both sides of a
 * branch pointing at the same step), but never loop: a cycle is refused with the step's number.
 *
 * Saving checks the shape (every field's bounds, waits of at most 365 days, a condition on every
 * branch, at most 50 steps, no cycle, no unknown step id): a 400 naming the step. Activation checks
 * what a journey needs to run (an email's subject and content, the list still existing, a task's
 * assignee able to receive mail): a 400 listing each reason as 'Step 3: …' or 'Trigger: …'.
 */

export {
  CONTACT_SOURCES,
  CONTACT_SOURCE_LABELS,
  journeyTriggerSchema,
  type JourneyTrigger,
  entryRuleSchema,
  type EntryRule,
  journeyGoalSchema,
  type JourneyGoal,
} from './journeys/triggers.js';
export * from './journeys/steps.js';
export * from './journeys/journey.js';
export * from './journeys/tasks.js';
export * from './journeys/starters.js';
