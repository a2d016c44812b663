import { journeyFieldsSchema, type JourneyFields, type JourneyStep } from '../../schemas/journeys.js';

/** A journey's definition (what a version keeps) and reading it: pure functions, no queries. */

/** What a version keeps: everything but the name and description. */
export type JourneyDefinition = Pick<JourneyFields, 'trigger' | 'entryRule' | 'goal' | 'steps'>;

/** A stored definition, read back through the shared schema (defaults filled for older shapes). */
export function parseDefinition(name: string, raw: unknown): JourneyDefinition {
  const parsed = journeyFieldsSchema.parse({ ...(raw as object), name });
  return { trigger: parsed.trigger, entryRule: parsed.entryRule, goal: parsed.goal, steps: parsed.steps };
}

/** The definition part of a journey's fields. */
export const definitionOf = (f: JourneyFields): JourneyDefinition => ({
  trigger: f.trigger,
  entryRule: f.entryRule,
  goal: f.goal,
  steps: f.steps,
});

/** The step `id` of a definition, with its number (1-based) as the editor shows it. */
export function stepById(d: JourneyDefinition, id: string | null): { step: JourneyStep; n: number } | null {
  if (!id) return null;
  const i = d.steps.findIndex((s) => s.id === id);
  return i < 0 ? null : { step: d.steps[i]!, n: i + 1 };
}
