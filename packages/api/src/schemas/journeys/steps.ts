import { z } from 'zod';
import { idSchema, requiredTextSchema, textSchema } from '../common.js';
import { listId } from './triggers.js';
import { stepTargets, waitMinutes } from '../../shared/journey-steps.js';

// A journey's steps, and the check of the whole list (bounds, branches, no cycle, no unknown id).

/**
 * A first check-in's welcome: sent as an operational message to the address the parent gave at the
 * check-in station, who gave no consent to campaigns there (docs/contact-rule.md). Only in a journey
 * started by a family's first check-in (refused on activation elsewhere, and never honoured there).
 */
const operationalSchema = z.boolean().default(false);

export const MAX_JOURNEY_STEPS = 50;
export const MAX_WAIT_DAYS = 365;

export const WAIT_UNITS = ['minutes', 'hours', 'days', 'weeks'] as const;
export const waitSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('duration'),
    amount: z.coerce
      .number({ error: 'Wait must be a number' })
      .int('Wait must be a whole number')
      .min(1, 'Wait must be at least 1'),
    unit: z.enum(WAIT_UNITS),
  }),
  /** Until the next `weekday` (0 = Sunday) at `time` ('09:30') in the church's time zone. */
  z.object({
    mode: z.literal('until'),
    weekday: z.number().int().min(0).max(6),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM'),
  }),
  /**
   * Until `amount` `unit` before the start of the event the person registered for (journeys an
   * event trigger starts: a reminder a day or an hour before). Without an event, or when that
   * moment has passed, the journey goes on at once.
   */
  z.object({
    mode: z.literal('before_event'),
    amount: z.coerce
      .number({ error: 'Wait must be a number' })
      .int('Wait must be a whole number')
      .min(1, 'Wait must be at least 1'),
    unit: z.enum(WAIT_UNITS),
  }),
]);
export type JourneyWait = z.infer<typeof waitSchema>;

export const branchConditionSchema = z.discriminatedUnion('kind', [
  /** The last email this person was sent on their way through the journey before the branch. */
  z.object({ kind: z.literal('opened_previous_email') }),
  z.object({ kind: z.literal('clicked_previous_email') }),
  z.object({ kind: z.literal('has_tag'), tag: requiredTextSchema('Tag', 100) }),
  z.object({ kind: z.literal('on_list'), listId }),
  z.object({
    kind: z.literal('gave_within'),
    days: z.coerce.number().int().min(1, 'Days must be at least 1').max(3650, 'Days must be at most 3650'),
  }),
  /** Texted the church since entering the journey (a reply in Conversations). */
  z.object({ kind: z.literal('replied_by_text') }),
]);
export type BranchCondition = z.infer<typeof branchConditionSchema>;

const stepId = z
  .string({ error: 'Step id is required' })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'Step id must be 1–40 letters, digits, - or _');
const nextId = stepId.nullable().default(null);

/** A staff member given a task or told something: a service-staff contact with an email, or null
 * for the church's own account (its login's email). */
const assigneeSchema = idSchema('Staff member').nullable().default(null);

export const journeyStepSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ id: stepId, kind: z.literal('wait'), wait: waitSchema, next: nextId }),
    z.object({
      id: stepId,
      kind: z.literal('email'),
      /** How the step is named in the editor and the Activity ('Welcome'). */
      name: requiredTextSchema('Email name', 120),
      subject: textSchema('Subject', 300).trim().default(''),
      /** HTML from the rich editor; empty until written (refused on activation, not on save). */
      content: textSchema('Email content', 500_000).default(''),
      /** The template it was started from, if any (its content was copied in). */
      templateId: idSchema('Template ID').nullable().default(null),
      operational: operationalSchema,
      next: nextId,
    }),
    z.object({
      id: stepId,
      kind: z.literal('sms'),
      name: requiredTextSchema('Text name', 120),
      body: textSchema('Message', 1600).trim().default(''),
      operational: operationalSchema,
      next: nextId,
    }),
    z.object({ id: stepId, kind: z.literal('add_to_list'), listId, next: nextId }),
    z.object({ id: stepId, kind: z.literal('remove_from_list'), listId, next: nextId }),
    z.object({ id: stepId, kind: z.literal('add_tag'), tag: requiredTextSchema('Tag', 100), next: nextId }),
    z.object({
      id: stepId,
      kind: z.literal('task'),
      title: requiredTextSchema('Task title', 200),
      notes: textSchema('Notes', 5000).default(''),
      dueInDays: z.coerce.number().int().min(0, 'Due in must be 0 days or more').max(365).default(1),
      assigneeContactId: assigneeSchema,
      /**
       * For a journey started by a group trigger: the task goes to the group's leader (its first
       * current leader with an email), else to the assignee.
       */
      toGroupLeader: z.boolean().default(false),
      next: nextId,
    }),
    z.object({
      id: stepId,
      kind: z.literal('notify'),
      /** Service-staff contacts to email; empty means the church's own account. */
      contactIds: z.array(idSchema('Staff member')).max(20).default([]),
      subject: requiredTextSchema('Subject', 300),
      message: textSchema('Message', 5000).default(''),
      next: nextId,
    }),
    z.object({
      id: stepId,
      kind: z.literal('branch'),
      condition: branchConditionSchema.nullable(),
      yes: nextId,
      no: nextId,
    }),
    z.object({ id: stepId, kind: z.literal('exit') }),
  ],
  { error: 'Unknown step kind' },
);
export type JourneyStep = z.infer<typeof journeyStepSchema>;
export type JourneyStepKind = JourneyStep['kind'];

const stepLabel = (i: number) => `Step ${i + 1}`;

/**
 * The shape rules every saved journey keeps (400 naming the step): at most 50 steps, unique ids,
 * targets that exist, a condition on every branch, waits of at most 365 days, no cycle.
 */
export function checkSteps(steps: JourneyStep[], ctx: z.RefinementCtx): void {
  if (steps.length > MAX_JOURNEY_STEPS) {
    // Named by the first step over the limit ('Step 51: …').
    ctx.addIssue({
      code: 'custom',
      path: ['steps', MAX_JOURNEY_STEPS],
      message: `${stepLabel(MAX_JOURNEY_STEPS)}: a journey can have at most ${MAX_JOURNEY_STEPS} steps`,
    });
    return;
  }
  const index = new Map<string, number>();
  steps.forEach((s, i) => {
    if (index.has(s.id))
      ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `${stepLabel(i)}: its id is used twice` });
    else index.set(s.id, i);
  });
  steps.forEach((s, i) => {
    for (const t of stepTargets(s)) {
      if (t !== null && !index.has(t))
        ctx.addIssue({
          code: 'custom',
          path: ['steps', i],
          message: `${stepLabel(i)}: leads to a step that does not exist`,
        });
    }
    if (s.kind === 'branch' && !s.condition)
      ctx.addIssue({
        code: 'custom',
        path: ['steps', i, 'condition'],
        message: `${stepLabel(i)}: the branch has no condition`,
      });
    if (s.kind === 'wait' && s.wait.mode === 'duration' && waitMinutes(s.wait) > MAX_WAIT_DAYS * 24 * 60)
      ctx.addIssue({
        code: 'custom',
        path: ['steps', i, 'wait'],
        message: `${stepLabel(i)}: a wait can be at most ${MAX_WAIT_DAYS} days`,
      });
  });
  // A cycle: depth-first from every step, white/grey/black.
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): number | null => {
    state.set(id, 1);
    const i = index.get(id)!;
    for (const t of stepTargets(steps[i]!)) {
      if (t === null || !index.has(t)) continue;
      if (state.get(t) === 1) return index.get(t)!;
      if (!state.has(t)) {
        const found = visit(t);
        if (found !== null) return found;
      }
    }
    state.set(id, 2);
    return null;
  };
  for (const s of steps) {
    if (state.has(s.id)) continue;
    const at = visit(s.id);
    if (at !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['steps', at],
        message: `${stepLabel(at)}: the steps lead back to it (a loop)`,
      });
      return;
    }
  }
}
