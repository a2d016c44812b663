import { z } from 'zod';
import { idSchema, isoTimestamp, requiredTextSchema, textSchema } from '../common.js';
import { checkSteps, journeyStepSchema } from './steps.js';
import { entryRuleSchema, journeyGoalSchema, journeyTriggerSchema, listId } from './triggers.js';

// A journey as saved and as the API answers it, with its enrolments and their runs.

export const journeyStatusSchema = z.enum(['draft', 'active', 'paused', 'archived']);
export type JourneyStatus = z.infer<typeof journeyStatusSchema>;

export const journeyNameSchema = requiredTextSchema('Journey name', 200);

export const journeyFieldsSchema = z
  .object({
    name: journeyNameSchema,
    description: textSchema('Description', 2000).default(''),
    trigger: journeyTriggerSchema,
    entryRule: entryRuleSchema.default({ kind: 'once' }),
    goal: journeyGoalSchema.default(null),
    steps: z.array(journeyStepSchema).default([]),
  })
  .superRefine((v, ctx) => checkSteps(v.steps, ctx));
export type JourneyFieldsInput = z.input<typeof journeyFieldsSchema>;
export type JourneyFields = z.output<typeof journeyFieldsSchema>;

export const journeyIdSchema = z.object({ id: idSchema('Journey ID') });
export const createJourneySchema = journeyFieldsSchema;
/** PUT replaces the definition; on an active journey it makes a new version for new entries. */
export const updateJourneySchema = z.intersection(journeyFieldsSchema, journeyIdSchema);

/** 'Enrol people': chosen contacts, or everyone on a list, now. */
export const enrollJourneySchema = z
  .object({
    id: idSchema('Journey ID'),
    contactIds: z.array(idSchema('Contact ID')).min(1, 'Choose at least one contact').max(1000).optional(),
    listId: listId.optional(),
  })
  .refine((v) => (v.contactIds ? 1 : 0) + (v.listId ? 1 : 0) === 1, {
    message: 'Choose contacts or a list',
    path: ['contactIds'],
  });

/** 'Test this journey': one contact (or the signed-in account's own address), waits in seconds. */
export const testJourneySchema = z.object({
  id: idSchema('Journey ID'),
  contactId: idSchema('Contact ID').nullable().default(null),
});

export const journeyCountsSchema = z.object({
  active: z.number().int(),
  completed: z.number().int(),
  converted: z.number().int(),
  exited: z.number().int(),
});

export const journeyOutputSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: journeyStatusSchema,
  trigger: journeyTriggerSchema,
  entryRule: entryRuleSchema,
  goal: journeyGoalSchema,
  steps: z.array(journeyStepSchema),
  /** The version new entries get; people already in finish on theirs. */
  version: z.number().int(),
  /** The trigger in words ('When someone signs up on Easter at Grace'). */
  triggerText: z.string(),
  /** The whole journey in one sentence. */
  summary: z.string(),
  counts: journeyCountsSchema,
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  activatedAt: isoTimestamp.nullable(),
});
export type JourneyOutput = z.output<typeof journeyOutputSchema>;

/** On activation: who the trigger could reach (shown in the confirmation) and what cannot run. */
export const activationCheckSchema = z.object({
  /** People the trigger could reach now (a list's members, everyone with a birthday, …); null when unknowable (any new sign-up). */
  reach: z.number().int().nullable(),
  /** With email steps, when any: addresses among the reach that are suppressed and will be skipped. */
  suppressed: z.number().int().optional(),
  problems: z.array(z.string()),
});

export const stepStatsSchema = z.object({
  stepId: z.string(),
  /** People whose next step is this one. */
  waiting: z.number().int(),
  /** People who passed it. */
  done: z.number().int(),
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
});
export const journeyStatsSchema = z.object({ counts: journeyCountsSchema, steps: z.array(stepStatsSchema) });

export const enrollmentStatusSchema = z.enum(['active', 'completed', 'converted', 'exited']);
export const enrollmentOutputSchema = z.object({
  id: z.number().int(),
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  status: enrollmentStatusSchema,
  version: z.number().int(),
  currentStepId: z.string().nullable(),
  nextRunAt: isoTimestamp.nullable(),
  enteredAt: isoTimestamp,
  endedAt: isoTimestamp.nullable(),
  /** Why it ended when exited ('Contact deleted', 'Unsubscribed from email'…). */
  exitReason: z.string().nullable(),
  test: z.boolean(),
  /**
   * Why an active person is not moving yet, and until when: texts' quiet hours, a wait step, or the
   * church's daily sending limit. Null when the step is due now.
   */
  waiting: z
    .object({ reason: z.enum(['quiet_hours', 'wait', 'daily_limit']), until: isoTimestamp })
    .nullable()
    .default(null),
});
export type EnrollmentOutput = z.output<typeof enrollmentOutputSchema>;
export const listEnrollmentsSchema = z.object({
  id: idSchema('Journey ID'),
  status: enrollmentStatusSchema.optional(),
  cursor: idSchema('Cursor').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One step as it happened for one enrolment (the test run's live view). */
export const enrollmentStepRunSchema = z.object({
  stepId: z.string(),
  kind: z.string(),
  outcome: z.enum(['done', 'skipped', 'yes', 'no', 'failed']),
  detail: z.string(),
  at: isoTimestamp,
});

// Outputs the server adds for the API.

/** What 'Enrol people' did: who entered, and who the entry rule kept out (already in, or before). */
export const enrollResultSchema = z.object({ enrolled: z.number().int(), skipped: z.number().int() });
/** 'Test this journey' started: the enrolment whose steps `enrollmentRuns` shows. */
export const testResultSchema = z.object({ enrollmentId: z.number().int() });
export const enrollmentRunsInputSchema = z.object({ enrollmentId: idSchema('Enrolment ID') });
/** One enrolment as it goes (the test's live view). */
export const enrollmentRunsOutputSchema = z.object({
  status: enrollmentStatusSchema,
  nextRunAt: isoTimestamp.nullable(),
  currentStepId: z.string().nullable(),
  runs: z.array(enrollmentStepRunSchema),
});
export const enrollmentPageSchema = z.object({
  enrollments: z.array(enrollmentOutputSchema),
  next: z.number().int().nullable(),
});
export const journeyStarterOutputSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  fields: journeyFieldsSchema,
});
