import { z } from 'zod';
import { idSchema, isCleanText, isoTimestamp, requiredTextSchema, textSchema } from './common.js';

/**
 * Journeys (issue 29): a trigger read from the event log, an entry rule, a goal, and steps that
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

export const MAX_JOURNEY_STEPS = 50;
export const MAX_WAIT_DAYS = 365;

export const journeyStatusSchema = z.enum(['draft', 'active', 'paused', 'archived']);
export type JourneyStatus = z.infer<typeof journeyStatusSchema>;

const listId = idSchema('List ID');

/** The sources a contact can be created from (those of the `contact.created` event's `via`). */
export const CONTACT_SOURCES = ['staff', 'import', 'api', 'portal', 'signup', 'donation'] as const;
export const CONTACT_SOURCE_LABELS: Record<(typeof CONTACT_SOURCES)[number], string> = {
  staff: 'the contact form',
  import: 'an import',
  api: 'the API',
  portal: 'the members’ portal',
  signup: 'a sign-up',
  donation: 'a gift',
};

/**
 * What starts a journey for a person. Dates: the only date on a contact today is the birthday
 * (the product has no custom date fields yet); it fires yearly at 9:00 in the church's time zone.
 * `keyword` is ready for two-way texting (issue 32): it fires on an `sms.received` event whose
 * keyword matches.
 */
export const journeyTriggerSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('list_added'), listId: listId.nullable().default(null) }),
    /** A confirmed sign-up on one landing page, or on any (`pageId` null). */
    z.object({ kind: z.literal('signup_confirmed'), pageId: idSchema('Page ID').nullable().default(null) }),
    z.object({
      kind: z.literal('donation_succeeded'),
      /** Only a person's first gift ever. */
      firstGiftOnly: z.boolean().default(false),
      /** A Show Up project; null for any. */
      projectId: idSchema('Project ID').nullable().default(null),
      /** A giving fund (issue 30); null for any. */
      fundId: idSchema('Fund ID').nullable().default(null),
    }),
    z.object({ kind: z.literal('contact_created'), source: z.enum(CONTACT_SOURCES).nullable().default(null) }),
    z.object({ kind: z.literal('date'), field: z.enum(['birthday']).default('birthday') }),
    z.object({
      kind: z.literal('keyword'),
      keyword: z
        .string()
        .trim()
        .max(60, 'Keyword must be at most 60 characters')
        .refine(isCleanText, 'Keyword contains characters that are not allowed')
        .nullable()
        .default(null),
    }),
    /** Only by 'Enrol people' (chosen contacts or a list). */
    z.object({ kind: z.literal('manual') }),
  ],
  { error: 'Please choose a trigger' },
);
export type JourneyTrigger = z.infer<typeof journeyTriggerSchema>;

/** Who may enter, and how often. */
export const entryRuleSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('once') }),
    z.object({
      kind: z.literal('again_after'),
      days: z.coerce
        .number({ error: 'Days must be a number' })
        .int('Days must be a whole number')
        .min(1, 'Days must be at least 1')
        .max(3650, 'Days must be at most 3650'),
    }),
    z.object({ kind: z.literal('every_time') }),
  ],
  { error: 'Please choose who may enter again' },
);
export type EntryRule = z.infer<typeof entryRuleSchema>;

/** Reaching it takes the person out of the journey, counted as converted. */
export const journeyGoalSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('joined_list'), listId }),
    z.object({ kind: z.literal('gave') }),
    z.object({ kind: z.literal('tag_added'), tag: requiredTextSchema('Tag', 100) }),
  ])
  .nullable();
export type JourneyGoal = z.infer<typeof journeyGoalSchema>;

export const WAIT_UNITS = ['minutes', 'hours', 'days', 'weeks'] as const;
const UNIT_MINUTES: Record<(typeof WAIT_UNITS)[number], number> = {
  minutes: 1,
  hours: 60,
  days: 60 * 24,
  weeks: 60 * 24 * 7,
};

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
]);
export type JourneyWait = z.infer<typeof waitSchema>;

/** Minutes a duration wait lasts (for the 365-day check and the runner). */
export const waitMinutes = (w: Extract<JourneyWait, { mode: 'duration' }>) => w.amount * UNIT_MINUTES[w.unit];

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
  /** Texted the church since entering the journey (issue 32's conversations). */
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
      next: nextId,
    }),
    z.object({
      id: stepId,
      kind: z.literal('sms'),
      name: requiredTextSchema('Text name', 120),
      body: textSchema('Message', 1600).trim().default(''),
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

/** The steps a step leads to (none for exit). */
export function stepTargets(step: JourneyStep): (string | null)[] {
  if (step.kind === 'exit') return [];
  if (step.kind === 'branch') return [step.yes, step.no];
  return [step.next];
}

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
  /** With email steps, when any: addresses among the reach that are suppressed and will be skipped (issue 32 §6). */
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
});
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

// Follow-up tasks (a journey's task step; later also keywords). The church has one login: a task
// is for one of its service-staff contacts (emailed when assigned) or for the account itself.

export const taskStatusSchema = z.enum(['open', 'done']);
export const taskOutputSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  notes: z.string(),
  status: taskStatusSchema,
  dueOn: z.string().describe('YYYY-MM-DD in the church’s time zone'),
  /** null: the church's own account. */
  assignee: z.object({ contactId: z.number().int().nullable(), name: z.string() }),
  /** The person to follow up. */
  contact: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  journey: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: isoTimestamp,
  doneAt: isoTimestamp.nullable(),
});
export const listTasksSchema = z.object({
  status: taskStatusSchema.optional(),
  /** A staff contact's id, or 'me' for the account's own tasks. */
  assignee: z.union([z.literal('me'), idSchema('Staff member')]).optional(),
  cursor: idSchema('Cursor').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** PATCH a task: mark done (or open again) and/or reassign. */
export const updateTaskSchema = z.object({
  id: idSchema('Task ID'),
  status: taskStatusSchema.optional(),
  assigneeContactId: idSchema('Staff member').nullable().optional(),
});

// The four ready journeys a church starts from (§10). Content is plain and editable; anything a
// church must choose (a list, a page) is left open and activation asks for it.

export interface JourneyStarter {
  key: string;
  name: string;
  description: string;
  fields: JourneyFieldsInput;
}

export const JOURNEY_STARTERS: JourneyStarter[] = [
  {
    key: 'first-time-guest',
    name: 'Welcome a first-time guest',
    description: 'A welcome that day, a text from a pastor two days later, an invitation a week later, and a call.',
    fields: {
      name: 'Welcome a first-time guest',
      trigger: { kind: 'signup_confirmed', pageId: null },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'welcome',
          kind: 'email',
          name: 'Welcome',
          subject: 'Welcome to {{churchName}}',
          content:
            '<p>Hello {{firstName}},</p><p>Thank you for visiting {{churchName}}. We are so glad you came, and we would love to see you again this Sunday.</p>',
          next: 'call',
        },
        {
          id: 'call',
          kind: 'task',
          title: 'Call {{firstName}} {{lastName}}',
          notes: 'A first-time guest: say hello and ask how we can help.',
          dueInDays: 2,
          next: 'wait-2d',
        },
        { id: 'wait-2d', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'days' }, next: 'hello-text' },
        {
          id: 'hello-text',
          kind: 'sms',
          name: "Pastor's hello",
          body: 'Hi {{firstName}}, it was great to have you at {{churchName}}. Anything we can pray for? Just reply.',
          next: 'wait-5d',
        },
        { id: 'wait-5d', kind: 'wait', wait: { mode: 'duration', amount: 5, unit: 'days' }, next: 'lunch' },
        {
          id: 'lunch',
          kind: 'email',
          name: "Newcomers' lunch",
          subject: 'Join us for lunch',
          content:
            '<p>Hello {{firstName}},</p><p>Once a month we share lunch after the service with people who are new to {{churchName}}. We would love you to come as our guest.</p>',
          next: null,
        },
      ],
    },
  },
  {
    key: 'first-time-giver',
    name: 'Thank a first-time giver',
    description: 'A thank-you the day of a first gift, and a note to the pastor.',
    fields: {
      name: 'Thank a first-time giver',
      trigger: { kind: 'donation_succeeded', firstGiftOnly: true },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'thanks',
          kind: 'email',
          name: 'Thank you',
          subject: 'Thank you for your gift',
          content:
            '<p>Dear {{firstName}},</p><p>Thank you for your first gift to {{churchName}}. Your generosity makes our ministry possible.</p>',
          next: 'tell-pastor',
        },
        {
          id: 'tell-pastor',
          kind: 'notify',
          subject: 'A first-time giver',
          message: '{{firstName}} {{lastName}} gave for the first time.',
          next: null,
        },
      ],
    },
  },
  {
    key: 'birthday',
    name: 'Birthday greeting',
    description: 'A greeting by email at 9:00 on each birthday.',
    fields: {
      name: 'Birthday greeting',
      trigger: { kind: 'date', field: 'birthday' },
      entryRule: { kind: 'every_time' },
      steps: [
        {
          id: 'greeting',
          kind: 'email',
          name: 'Happy birthday',
          subject: 'Happy birthday, {{firstName}}!',
          content:
            '<p>Happy birthday, {{firstName}}!</p><p>Everyone at {{churchName}} wishes you a wonderful year.</p>',
          next: null,
        },
      ],
    },
  },
  {
    key: 'new-volunteer',
    name: 'Welcome a new volunteer',
    description: 'A welcome when someone joins a serving list, and a check-in two weeks later.',
    fields: {
      name: 'Welcome a new volunteer',
      trigger: { kind: 'list_added', listId: null },
      entryRule: { kind: 'once' },
      steps: [
        {
          id: 'welcome',
          kind: 'email',
          name: 'Welcome to the team',
          subject: 'Welcome to the team',
          content:
            '<p>Hello {{firstName}},</p><p>Thank you for serving at {{churchName}}! We will be in touch with your first dates soon.</p>',
          next: 'wait-2w',
        },
        { id: 'wait-2w', kind: 'wait', wait: { mode: 'duration', amount: 2, unit: 'weeks' }, next: 'check-in' },
        {
          id: 'check-in',
          kind: 'task',
          title: 'Check in with {{firstName}} {{lastName}}',
          notes: 'Two weeks of serving: how is it going?',
          dueInDays: 3,
          next: null,
        },
      ],
    },
  },
];

// The journey in words (cards, the editor's summary, the activation dialog). The server fills
// `triggerText` and `summary` with the same functions the editor uses while a journey is edited.

/** Names of the things a journey refers to; undefined when unknown (deleted, another church's). */
export interface JourneyNames {
  list?(id: number): string | undefined;
  page?(id: number): string | undefined;
  project?(id: number): string | undefined;
  fund?(id: number): string | undefined;
}

const named = (name: string | undefined) => (name ? `*${name}*` : 'a deleted one');

export function describeTrigger(trigger: JourneyTrigger, names: JourneyNames = {}): string {
  switch (trigger.kind) {
    case 'list_added':
      return trigger.listId
        ? `When someone is added to ${named(names.list?.(trigger.listId))}`
        : 'When someone is added to a list (not chosen yet)';
    case 'signup_confirmed':
      return trigger.pageId
        ? `When someone signs up on ${named(names.page?.(trigger.pageId))}`
        : 'When someone signs up on any landing page';
    case 'donation_succeeded': {
      const what = trigger.firstGiftOnly ? 'gives for the first time' : 'gives';
      const to = trigger.projectId
        ? ` to ${named(names.project?.(trigger.projectId))}`
        : trigger.fundId
          ? ` to ${named(names.fund?.(trigger.fundId))}`
          : '';
      return `When someone ${what}${to}`;
    }
    case 'contact_created':
      return trigger.source
        ? `When a contact is created from ${CONTACT_SOURCE_LABELS[trigger.source]}`
        : 'When a contact is created';
    case 'date':
      return 'On each birthday at 9:00';
    case 'keyword':
      return trigger.keyword ? `When someone texts ${trigger.keyword.toUpperCase()}` : 'When someone texts a keyword';
    case 'manual':
      return 'When you enrol people';
  }
}

const plural = (n: number, unit: string) => `${n} ${unit.replace(/s$/, '')}${n === 1 ? '' : 's'}`;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function describeWait(wait: JourneyWait): string {
  return wait.mode === 'duration'
    ? `wait ${plural(wait.amount, wait.unit)}`
    : `wait until ${WEEKDAYS[wait.weekday]} ${wait.time}`;
}

export function describeCondition(c: BranchCondition, names: JourneyNames = {}): string {
  switch (c.kind) {
    case 'opened_previous_email':
      return 'opened the previous email';
    case 'clicked_previous_email':
      return 'clicked in the previous email';
    case 'has_tag':
      return `has the tag ${c.tag}`;
    case 'on_list':
      return `is on ${named(names.list?.(c.listId))}`;
    case 'gave_within':
      return `gave in the last ${plural(c.days, 'days')}`;
    case 'replied_by_text':
      return 'replied by text';
  }
}

export function describeStep(step: JourneyStep, names: JourneyNames = {}): string {
  switch (step.kind) {
    case 'wait':
      return describeWait(step.wait);
    case 'email':
      return `send *${step.name}*`;
    case 'sms':
      return `text *${step.name}*`;
    case 'add_to_list':
      return `add to ${named(names.list?.(step.listId))}`;
    case 'remove_from_list':
      return `remove from ${named(names.list?.(step.listId))}`;
    case 'add_tag':
      return `tag ${step.tag}`;
    case 'task':
      return `ask staff to *${step.title}*`;
    case 'notify':
      return `tell staff *${step.subject}*`;
    case 'branch':
      return step.condition ? `if they ${describeCondition(step.condition, names)}` : 'branch (no condition yet)';
    case 'exit':
      return 'leave the journey';
  }
}

/**
 * One sentence for the whole journey: the trigger, then the steps along the path; a branch says its
 * yes side, then its no side, then what follows where the two meet again: 'When someone signs up
 * on *Easter at Grace*: send *Welcome*, if they opened the previous email: tag engaged; if not: go
 * on, then text *Pastor's hello*.'
 */
export function describeJourney(
  j: { trigger: JourneyTrigger; steps: JourneyStep[] },
  names: JourneyNames = {},
): string {
  const byId = new Map(j.steps.map((s) => [s.id, s]));
  const reach = (id: string | null) => {
    const out = new Set<string>();
    const stack = id ? [id] : [];
    while (stack.length) {
      const at = stack.pop()!;
      if (out.has(at) || !byId.has(at)) continue;
      out.add(at);
      for (const t of stepTargets(byId.get(at)!)) if (t) stack.push(t);
    }
    return out;
  };
  /** Where a branch's two sides meet again: the first step both reach. */
  const meeting = (b: Extract<JourneyStep, { kind: 'branch' }>) => {
    const no = reach(b.no);
    const common = [...reach(b.yes)].filter((id) => no.has(id));
    return common.find((c) => common.every((o) => o === c || !reach(o).has(c))) ?? null;
  };
  const seen = new Set<string>();
  const path = (id: string | null, stop: string | null): string[] => {
    const out: string[] = [];
    let at = id;
    while (at && at !== stop && byId.has(at) && !seen.has(at)) {
      seen.add(at);
      const s = byId.get(at)!;
      if (s.kind === 'branch') {
        const meet = meeting(s);
        const yes = path(s.yes, meet);
        const no = path(s.no, meet);
        out.push(`${describeStep(s, names)}: ${yes.join(', ') || 'go on'}; if not: ${no.join(', ') || 'go on'}`);
        const rest = meet === null ? [] : path(meet, stop);
        if (rest.length) out.push(`then ${rest[0]}`, ...rest.slice(1));
        return out;
      }
      out.push(describeStep(s, names));
      at = s.kind === 'exit' ? null : s.next;
    }
    return out;
  };
  const steps = path(j.steps[0]?.id ?? null, null);
  return `${describeTrigger(j.trigger, names)}: ${steps.length ? steps.join(', ') : 'nothing yet'}.`;
}

// Outputs the server adds for the API (issue 29, backend).

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
export const taskPageSchema = z.object({ tasks: z.array(taskOutputSchema), next: z.number().int().nullable() });
export const journeyStarterOutputSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  fields: journeyFieldsSchema,
});
