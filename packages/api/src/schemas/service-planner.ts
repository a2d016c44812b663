import { z } from 'zod';
import {
  boundedArray,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
  urlSchema,
  isCleanText,
} from './common.js';
import { isValidKey } from './music.js';

// Zod and pure functions only: the planner's forms and its live item times use this same code.

export const PLAN_STATUSES = ['draft', 'published', 'completed'] as const;
export const PLAN_STATUS_LABELS: Record<(typeof PLAN_STATUSES)[number], string> = {
  draft: 'Draft',
  published: 'Published',
  completed: 'Completed',
};
export const ASSIGNMENT_STATUSES = ['scheduled', 'confirmed', 'declined'] as const;
export const ASSIGNMENT_STATUS_LABELS: Record<(typeof ASSIGNMENT_STATUSES)[number], string> = {
  scheduled: 'Scheduled',
  confirmed: 'Confirmed',
  declined: 'Declined',
};

/** The item types every church starts with (seeded on its first use of the planner). */
export const DEFAULT_ITEM_TYPES = [
  { name: 'Welcome', color: 'teal', icon: 'hand' },
  { name: 'Song', color: 'indigo', icon: 'music' },
  { name: 'Prayer', color: 'grape', icon: 'pray' },
  { name: 'Scripture', color: 'orange', icon: 'book' },
  { name: 'Sermon', color: 'blue', icon: 'microphone' },
  { name: 'Offering', color: 'green', icon: 'gift' },
  { name: 'Announcement', color: 'cyan', icon: 'speakerphone' },
  { name: 'Benediction', color: 'violet', icon: 'sun' },
] as const;
export const ITEM_TYPE_COLORS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'orange',
] as const;
export const ITEM_TYPE_ICONS = [
  'circle',
  'hand',
  'music',
  'pray',
  'book',
  'microphone',
  'gift',
  'speakerphone',
  'sun',
  'video',
  'users',
  'heart',
] as const;

// ---- Times ----

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:MM' to minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** Minutes after midnight to 'HH:MM' (past midnight wraps round). */
export function hhmmOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export interface ItemTimes {
  /** Each item's start, 'HH:MM' (null when the plan has no start time). */
  starts: (string | null)[];
  /** Sum of the durations, in minutes. */
  totalMinutes: number;
  /** When the last item ends ('HH:MM'), or null without a start time. */
  endsAt: string | null;
  /** Planned length from start to end time, or null when either is missing. */
  plannedMinutes: number | null;
  /** Minutes beyond the planned end (0 when it fits). */
  overBy: number;
}

/** Start times of the items in order from the plan's start, and the total against the planned end. */
export function computeItemTimes(
  plan: { startTime: string | null; endTime: string | null },
  items: { duration: number }[],
): ItemTimes {
  const start = plan.startTime && HHMM.test(plan.startTime) ? minutesOf(plan.startTime) : null;
  let t = 0;
  const starts = items.map((item) => {
    const at = start === null ? null : hhmmOf(start + t);
    t += item.duration;
    return at;
  });
  const planned = start !== null && plan.endTime && HHMM.test(plan.endTime) ? minutesOf(plan.endTime) - start : null;
  return {
    starts,
    totalMinutes: t,
    endsAt: start === null ? null : hhmmOf(start + t),
    plannedMinutes: planned,
    overBy: planned === null ? 0 : Math.max(0, t - planned),
  };
}

// ---- Field schemas ----

const dateSchema = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a valid date`)
    .refine(
      (v) =>
        !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      `${label} must be a valid date`,
    );

const timeSchema = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z
      .string({ error: `${label} must be a time as HH:MM` })
      .regex(HHMM, `${label} must be a time as HH:MM`)
      .nullable(),
  );

export const keySchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z
    .string({ error: 'Key must be a valid key, e.g. G, Bb or F#m' })
    .refine(isValidKey, 'Key must be a valid key, e.g. G, Bb or F#m')
    .nullable(),
);

// ---- Plans ----

const planFields = {
  title: requiredTextSchema('Title', 200),
  date: dateSchema('Date'),
  startTime: timeSchema('Start time').optional(),
  endTime: timeSchema('End time').optional(),
  location: optionalTextSchema('Location', 300).optional(),
  description: optionalTextSchema('Description', 5000).optional(),
  theme: optionalTextSchema('Theme', 300).optional(),
  notes: optionalTextSchema('Notes', 5000).optional(),
  status: z.enum(PLAN_STATUSES, { error: 'Status must be draft, published or completed' }).optional(),
  /** Each time the service is held ('09:00', '11:00'), at most 6; none: one service. */
  serviceTimes: z
    .array(
      z.string({ error: 'Service times must be times as HH:MM' }).regex(HHMM, 'Service times must be times as HH:MM'),
    )
    .max(6, 'A plan can have at most 6 service times')
    .transform((times) => [...new Set(times)].sort())
    .optional(),
};

function endAfterStart(v: { startTime?: string | null; endTime?: string | null }, ctx: z.RefinementCtx) {
  if (v.startTime && v.endTime && minutesOf(v.endTime) <= minutesOf(v.startTime)) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'End time must be after the start time' });
  }
}

export const createPlanSchema = z.object(planFields).superRefine(endAfterStart);
export const updatePlanSchema = z
  .object({
    id: idSchema('Plan ID'),
    ...planFields,
    title: planFields.title.optional(),
    date: planFields.date.optional(),
  })
  .superRefine(endAfterStart);
export const planIdSchema = z.object({ id: idSchema('Plan ID') });
export const duplicatePlanSchema = z.object({
  id: idSchema('Plan ID'),
  date: dateSchema('Date'),
  title: requiredTextSchema('Title', 200).optional(),
});
export const listPlansSchema = z
  .object({ when: z.enum(['upcoming', 'past', 'all'], { error: 'When must be upcoming, past or all' }).default('all') })
  .default({ when: 'all' });

export const planSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** The times the service is held, in order; empty for one service. */
  serviceTimes: z.array(z.string()),
  /** Positions the plan needs (from its template; a position twice needs two people). */
  positionsNeeded: z.array(z.number().int()),
  location: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(PLAN_STATUSES),
  theme: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  itemCount: z.number().int(),
  team: z.object({ confirmed: z.number().int(), total: z.number().int() }),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

// ---- Item types ----

export const itemTypeFieldsSchema = z.object({
  name: requiredTextSchema('Name', 60),
  color: z.enum(ITEM_TYPE_COLORS, { error: 'Colour must be one of the listed colours' }).default('gray'),
  icon: z.enum(ITEM_TYPE_ICONS, { error: 'Icon must be one of the listed icons' }).default('circle'),
  description: optionalTextSchema('Description', 500).optional(),
});
/** PATCH: no defaults here (zod applies a default inside .partial(), which would reset unsent colours). */
export const updateItemTypeSchema = z.object({
  id: idSchema('Item type ID'),
  name: itemTypeFieldsSchema.shape.name.optional(),
  color: itemTypeFieldsSchema.shape.color.unwrap().optional(),
  icon: itemTypeFieldsSchema.shape.icon.unwrap().optional(),
  description: itemTypeFieldsSchema.shape.description,
});
export const itemTypeIdSchema = z.object({ id: idSchema('Item type ID') });
export const itemTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  icon: z.string(),
  description: z.string().nullable(),
  isDefault: z.boolean(),
});
export type ItemType = z.infer<typeof itemTypeSchema>;

// ---- Items ----

const itemSongSchema = z
  .object({
    songId: idSchema('Song ID'),
    keySignature: keySchema.optional(),
    arrangement: optionalTextSchema('Arrangement', 300).optional(),
    notes: optionalTextSchema('Song notes', 2000).optional(),
  })
  .nullable();

const itemFields = {
  title: requiredTextSchema('Title', 200),
  serviceItemTypeId: idSchema('Item type ID').nullable().optional(),
  description: optionalTextSchema('Description', 2000).optional(),
  duration: z.coerce
    .number({ error: 'Duration must be between 0 and 600 minutes' })
    .int('Duration must be whole minutes')
    .min(0, 'Duration must be between 0 and 600 minutes')
    .max(600, 'Duration must be between 0 and 600 minutes')
    .default(0),
  notes: optionalTextSchema('Notes', 2000).optional(),
  isRehearsalNeeded: z.boolean({ error: 'Rehearsal needed must be true or false' }).default(false),
  song: itemSongSchema.optional(),
};

export const createItemSchema = z.object({ planId: idSchema('Plan ID'), ...itemFields });
export const updateItemSchema = z.object({
  id: idSchema('Item ID'),
  title: itemFields.title.optional(),
  serviceItemTypeId: itemFields.serviceItemTypeId,
  description: itemFields.description,
  duration: itemFields.duration.unwrap().optional(),
  notes: itemFields.notes,
  isRehearsalNeeded: z.boolean({ error: 'Rehearsal needed must be true or false' }).optional(),
  song: itemFields.song,
});
export const itemIdSchema = z.object({ id: idSchema('Item ID') });
export const reorderItemsSchema = z.object({
  planId: idSchema('Plan ID'),
  itemIds: boundedArray(idSchema('Item ID'), 'Items', 500).refine(
    (ids) => new Set(ids).size === ids.length,
    'Each item must appear once',
  ),
});

export const planSongSchema = z.object({
  songId: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  /** The key chosen for this plan (null = the song's own key). */
  keySignature: z.string().nullable(),
  songKey: z.string().nullable(),
  arrangement: z.string().nullable(),
  notes: z.string().nullable(),
  chords: z.string().nullable(),
  lyrics: z.string().nullable(),
});

export const itemSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  serviceItemTypeId: z.number().int().nullable(),
  type: itemTypeSchema.nullable(),
  title: z.string(),
  description: z.string().nullable(),
  duration: z.number().int(),
  notes: z.string().nullable(),
  position: z.number().int(),
  /** Computed from the plan's start and the durations before it ('HH:MM'). */
  startTime: z.string().nullable(),
  isRehearsalNeeded: z.boolean(),
  song: planSongSchema.nullable(),
});
export type PlanItem = z.infer<typeof itemSchema>;

// ---- Team ----

export const positionFieldsSchema = z.object({
  name: requiredTextSchema('Name', 100),
  category: optionalTextSchema('Category', 100).optional(),
  description: optionalTextSchema('Description', 500).optional(),
});
export const updatePositionSchema = positionFieldsSchema.partial().extend({ id: idSchema('Position ID') });
export const positionIdSchema = z.object({ id: idSchema('Position ID') });
export const positionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.string().nullable(),
  description: z.string().nullable(),
});
export type Position = z.infer<typeof positionSchema>;

const emailSchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? v.trim() : v),
  z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address').nullable(),
);

export const memberFieldsSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: emailSchema.optional(),
  phone: optionalTextSchema('Phone', 40).optional(),
  notes: optionalTextSchema('Notes', 2000).optional(),
  isActive: z.boolean({ error: 'Active must be true or false' }).default(true),
  contactId: idSchema('Contact ID').nullable().optional(),
  positionIds: boundedArray(idSchema('Position ID'), 'Positions', 100).default([]),
  /** Most times a month the scheduler may choose them; null for no limit. */
  maxPerMonth: z
    .preprocess(
      (v) => (v === '' ? null : v),
      z.coerce
        .number({ error: 'Most times a month must be between 1 and 31' })
        .int('Most times a month must be between 1 and 31')
        .min(1, 'Most times a month must be between 1 and 31')
        .max(31, 'Most times a month must be between 1 and 31')
        .nullable(),
    )
    .optional(),
  /** Serve on the same plans as their household (family links between the members' contacts). */
  scheduleWithHousehold: z.boolean({ error: 'Schedule with my household must be true or false' }).optional(),
});
/** A member linked to a contact may leave the name empty: the contact's name fills it in. */
export const createMemberSchema = memberFieldsSchema
  .extend({
    name: z.preprocess((v) => (v === undefined ? '' : v), textSchema('Name', 200)),
  })
  .superRefine((v, ctx) => {
    if (!v.name.trim() && !v.contactId) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name is required' });
  });
export const updateMemberSchema = z.object({
  id: idSchema('Member ID'),
  name: memberFieldsSchema.shape.name.optional(),
  email: memberFieldsSchema.shape.email,
  phone: memberFieldsSchema.shape.phone,
  notes: memberFieldsSchema.shape.notes,
  isActive: z.boolean({ error: 'Active must be true or false' }).optional(),
  contactId: memberFieldsSchema.shape.contactId,
  positionIds: boundedArray(idSchema('Position ID'), 'Positions', 100).optional(),
  maxPerMonth: memberFieldsSchema.shape.maxPerMonth,
  scheduleWithHousehold: memberFieldsSchema.shape.scheduleWithHousehold,
});
export const memberIdSchema = z.object({ id: idSchema('Member ID') });
export const listMembersSchema = z
  .object({
    search: textSchema('Search', 200).optional(),
    activeOnly: z
      .preprocess(
        (v) => (v === 'true' ? true : v === 'false' ? false : v),
        z.boolean({ error: 'activeOnly must be true or false' }),
      )
      .optional(),
  })
  .default({});

/** How a blockout recurs inside its range (every 2nd Sunday; every other week); null for every day. */
export const blockoutRecurrenceSchema = z
  .discriminatedUnion(
    'every',
    [
      z.object({
        every: z.literal('month'),
        nth: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(-1)], {
          error: 'Which week must be 1 to 5, or -1 for the last',
        }),
        weekday: z.number().int().min(0, 'Weekday must be 0 (Sunday) to 6').max(6, 'Weekday must be 0 (Sunday) to 6'),
      }),
      z.object({
        every: z.literal('weeks'),
        interval: z.number().int().min(1, 'Every must be 1 to 8 weeks').max(8, 'Every must be 1 to 8 weeks'),
        weekday: z.number().int().min(0, 'Weekday must be 0 (Sunday) to 6').max(6, 'Weekday must be 0 (Sunday) to 6'),
      }),
    ],
    { error: 'Recurrence must be every month or every few weeks' },
  )
  .nullable();

export const blockoutFieldsSchema = z
  .object({
    memberId: idSchema('Member ID'),
    startsOn: dateSchema('Start date'),
    endsOn: dateSchema('End date'),
    reason: optionalTextSchema('Reason', 300).optional(),
    recurrence: blockoutRecurrenceSchema.default(null),
  })
  .superRefine((v, ctx) => {
    if (v.endsOn < v.startsOn)
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'End date must be on or after the start date' });
  });
export const blockoutIdSchema = z.object({ id: idSchema('Blockout ID') });
export const blockoutSchema = z.object({
  id: z.number().int(),
  startsOn: z.string(),
  endsOn: z.string(),
  reason: z.string().nullable(),
  recurrence: blockoutRecurrenceSchema,
});
/** A blockout with its member, for the church-wide list. */
export const churchBlockoutSchema = blockoutSchema.extend({
  member: z.object({ id: z.number().int(), name: z.string() }),
});
export const listBlockoutsSchema = z
  .object({ from: dateSchema('From').optional(), to: dateSchema('To').optional() })
  .default({});

export const memberSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  isActive: z.boolean(),
  positions: z.array(positionSchema),
  blockouts: z.array(blockoutSchema),
  maxPerMonth: z.number().int().nullable(),
  scheduleWithHousehold: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type TeamMember = z.infer<typeof memberSchema>;

// ---- Assignments ----

/** One of the plan's service times ('09:00'), or null for all of them (issue 31 §3). */
const assignmentTimeSchema = z
  .preprocess(
    (v) => (v === '' ? null : v),
    z
      .string({ error: 'Service time must be a time as HH:MM' })
      .regex(HHMM, 'Service time must be a time as HH:MM')
      .nullable(),
  )
  .optional();

export const createAssignmentSchema = z.object({
  planId: idSchema('Plan ID'),
  memberId: idSchema('Member ID'),
  positionId: idSchema('Position ID').nullable().optional(),
  itemId: idSchema('Item ID').nullable().optional(),
  notes: optionalTextSchema('Notes', 1000).optional(),
  serviceTime: assignmentTimeSchema,
  /** Schedule even when the person is blocked out that day or already in this plan. */
  force: z.boolean().default(false),
});
export const updateAssignmentSchema = z.object({
  id: idSchema('Assignment ID'),
  positionId: idSchema('Position ID').nullable().optional(),
  itemId: idSchema('Item ID').nullable().optional(),
  status: z.enum(ASSIGNMENT_STATUSES, { error: 'Status must be scheduled, confirmed or declined' }).optional(),
  notes: optionalTextSchema('Notes', 1000).optional(),
  serviceTime: assignmentTimeSchema,
});
export const assignmentIdSchema = z.object({ id: idSchema('Assignment ID') });
export const assignmentSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  memberId: z.number().int(),
  memberName: z.string(),
  memberEmail: z.string().nullable(),
  positionId: z.number().int().nullable(),
  positionName: z.string().nullable(),
  itemId: z.number().int().nullable(),
  /** The service time this is for ('09:00'); null: all of the plan's times. */
  serviceTime: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  notes: z.string().nullable(),
  requestedAt: isoTimestamp.nullable(),
  respondedAt: isoTimestamp.nullable(),
  /** The last request could not be sent (after its retries): the reason. Null once asked again. */
  requestError: z.string().nullable(),
  /** Why this may be a problem: blocked out that day, or more than once in this plan. */
  warnings: z.array(z.string()),
});
export type Assignment = z.infer<typeof assignmentSchema>;

export const sendRequestsResultSchema = z.object({
  sent: z.number().int(),
  skippedNoEmail: z.array(z.string()),
  message: z.string(),
});

/** What the person sees on the confirmation page (no login: the token is the key). */
export const requestTokenSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not valid'),
});
export const respondSchema = requestTokenSchema.extend({
  response: z.enum(['accept', 'decline'], { error: 'Response must be accept or decline' }),
});
export const requestDetailsSchema = z.object({
  churchName: z.string(),
  memberName: z.string(),
  planTitle: z.string(),
  date: z.string(),
  /** The plan's start. */
  startTime: z.string().nullable(),
  /** The assignment's own service time ('HH:MM'), null when it is for all of the plan's times. */
  serviceTime: z.string().nullable(),
  location: z.string().nullable(),
  positionName: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
});

// ---- Plan detail ----

export const announcementSchema = z.object({
  kind: z.string(),
  targetId: z.number().int(),
  name: z.string(),
  /** Where the draft opens in the app. */
  path: z.string(),
  createdAt: isoTimestamp,
});

export const planDetailSchema = planSummarySchema.extend({
  items: z.array(itemSchema),
  assignments: z.array(assignmentSchema),
  announcements: z.array(announcementSchema),
  times: z.object({
    totalMinutes: z.number().int(),
    endsAt: z.string().nullable(),
    plannedMinutes: z.number().int().nullable(),
    overBy: z.number().int(),
  }),
});
export type PlanDetail = z.infer<typeof planDetailSchema>;

// ---- Songs ----

const songFields = {
  title: requiredTextSchema('Title', 200),
  artist: optionalTextSchema('Artist', 200).optional(),
  lyrics: optionalTextSchema('Lyrics', 20000).optional(),
  chords: optionalTextSchema('Chords', 20000).optional(),
  keySignature: keySchema.optional(),
  tempo: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : v),
      z.coerce
        .number({ error: 'Tempo must be between 20 and 300' })
        .int('Tempo must be a whole number')
        .min(20, 'Tempo must be between 20 and 300')
        .max(300, 'Tempo must be between 20 and 300')
        .nullable(),
    )
    .optional(),
  timeSignature: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : v),
      z
        .string()
        .regex(/^(1[0-6]|[1-9])\/(1|2|4|8|16)$/, 'Time signature must look like 4/4 or 6/8')
        .nullable(),
    )
    .optional(),
  ccliNumber: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : typeof v === 'number' ? String(v) : v),
      z
        .string()
        .regex(/^\d{1,10}$/, 'CCLI number must be digits only')
        .nullable(),
    )
    .optional(),
  notes: optionalTextSchema('Notes', 5000).optional(),
  tags: boundedArray(requiredTextSchema('Tag', 40), 'Tags', 30).default([]),
  audioUrl: z
    .preprocess((v) => (v === '' || v === undefined ? null : v), urlSchema('Audio URL must be a valid URL').nullable())
    .optional(),
};
export const createSongSchema = z.object(songFields);
export const updateSongSchema = z.object({
  id: idSchema('Song ID'),
  ...songFields,
  title: songFields.title.optional(),
  tags: boundedArray(requiredTextSchema('Tag', 40), 'Tags', 30).optional(),
});
export const songIdSchema = z.object({ id: idSchema('Song ID') });
export const listSongsSchema = z
  .object({ search: textSchema('Search', 200).optional(), tag: textSchema('Tag', 40).optional() })
  .default({});
export const songSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  lyrics: z.string().nullable(),
  chords: z.string().nullable(),
  keySignature: z.string().nullable(),
  tempo: z.number().int().nullable(),
  timeSignature: z.string().nullable(),
  ccliNumber: z.string().nullable(),
  notes: z.string().nullable(),
  tags: z.array(z.string()),
  audioUrl: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /** The date of the latest plan (up to today) that used it. */
  lastUsed: z.string().nullable(),
  /** Plans in the last 90 days that used it. */
  usesLast90Days: z.number().int(),
});
export type Song = z.infer<typeof songSchema>;

// ---- Announce ----

export const announceSchema = z.object({
  planId: idSchema('Plan ID'),
  /** The contact list the drafts go to; none = drafts without recipients, chosen later. */
  listId: idSchema('List ID').nullable().optional(),
  /** The social post draft is dated this many days before the service (at its start time). */
  socialDaysBefore: z
    .number({ error: 'Days before must be a number' })
    .int('Days before must be a whole number')
    .min(0, 'Days before must be between 0 and 60')
    .max(60, 'Days before must be between 0 and 60')
    .default(3),
});
export const ANNOUNCE_COPY_SOURCES = ['ai', 'template'] as const;
export const announceResultSchema = z.object({
  drafts: z.array(announcementSchema),
  /** Who wrote the drafts' words: the AI model, or the plain templates (no AI set up, or it failed). */
  copy: z.enum(ANNOUNCE_COPY_SOURCES),
});

/** The AI model's answer for Announce: the words of every draft, checked before use. */
export const aiAnnounceAnswerSchema = z.object({
  emailSubject: z.string().trim().min(1).max(200),
  emailParagraphs: z.array(z.string().trim().min(1).max(2000)).min(1).max(6),
  sms: z.string().trim().min(1).max(320),
  social: z.string().trim().min(1).max(280),
  headline: z.string().trim().min(1).max(200),
  subheading: z.string().trim().min(1).max(500),
  mainContent: z.string().trim().min(1).max(5000),
  keyPoints: z.array(z.string().trim().min(1).max(300)).max(6),
});
export type AiAnnounceAnswer = z.infer<typeof aiAnnounceAnswerSchema>;

export const okIdSchema = z.object({ id: z.number().int() });

// ---- Song files and reports (issue 31 §10, §11) ----

/** A ChordPro file's largest size. */
export const MAX_CHORDPRO_BYTES = 1024 * 1024;
const chordProFileSchema = z
  .object({
    name: requiredTextSchema('File name', 200),
    content: z.string({ error: 'File content must be text' }),
  })
  .superRefine((f, ctx) => {
    if (new TextEncoder().encode(f.content).length > MAX_CHORDPRO_BYTES)
      ctx.addIssue({ code: 'custom', path: ['content'], message: `${f.name} is larger than 1 MB` });
    else if (!isCleanText(f.content) || f.content.includes('\uFFFD'))
      ctx.addIssue({ code: 'custom', path: ['content'], message: `${f.name} is not a text file` });
  });
export const importSongsSchema = z.object({
  files: z
    .array(chordProFileSchema)
    .min(1, 'Choose at least one ChordPro file')
    .max(20, 'At most 20 files can be imported at once'),
});
export const importSongsResultSchema = z.object({
  songs: z.array(z.object({ id: z.number().int(), title: z.string() })),
});

/** A file sent as it is (REST answers with its bytes and type; tRPC with this object). */
export const songFileSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  text: z.string().optional(),
  base64: z.string().optional(),
});

export const songUsageInputSchema = z
  .object({
    from: dateSchema('From'),
    to: dateSchema('To'),
    /** 'csv' answers with the CSV file (REST: also `Accept: text/csv`). */
    format: z.enum(['json', 'csv'], { error: 'Format must be json or csv' }).default('json'),
  })
  .superRefine((v, ctx) => {
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
  });
export const songUsageRowSchema = z.object({
  songId: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  ccliNumber: z.string().nullable(),
  uses: z.number().int().describe('Services that used the song: a plan held at two times counts twice'),
  plans: z.number().int(),
  firstUsed: z.string(),
  lastUsed: z.string(),
});
export const songUsageOutputSchema = z.union([
  z.object({ from: z.string(), to: z.string(), songs: z.array(songUsageRowSchema) }),
  z.object({ fileName: z.string(), csv: z.string() }),
]);

// ---- Auto-scheduling (issue 31 §4) ----

export const MAX_PROPOSAL_PLANS = 52;
export const scheduleProposalInputSchema = z.object({
  planIds: z
    .array(idSchema('Plan ID'))
    .min(1, 'Choose at least one plan')
    .max(MAX_PROPOSAL_PLANS, `A proposal can cover at most ${MAX_PROPOSAL_PLANS} plans`)
    .transform((ids) => [...new Set(ids)]),
  /** The positions to fill on each plan; a position listed twice needs two people. */
  positionIds: z
    .array(idSchema('Position ID'))
    .min(1, 'Choose at least one position')
    .max(50, 'A proposal can fill at most 50 positions a plan'),
});
const slotShape = {
  planId: z.number().int(),
  planTitle: z.string(),
  date: z.string(),
  positionId: z.number().int(),
  positionName: z.string(),
};
export const scheduleProposalSchema = z.object({
  assignments: z.array(z.object({ ...slotShape, memberId: z.number().int(), memberName: z.string() })),
  unfilled: z.array(z.object({ ...slotShape, reason: z.string() })),
  /**
   * Who is blocked out on a chosen plan's date, of the active members qualified for a chosen
   * position: the matrix shows them away, and picking one warns ('Maria is away 12–19 May').
   */
  away: z.array(
    z.object({
      memberId: z.number().int(),
      memberName: z.string(),
      date: z.string(),
      reason: z.string().nullable(),
      warning: z.string(),
    }),
  ),
});
export type ScheduleProposal = z.infer<typeof scheduleProposalSchema>;
export const scheduleCommitInputSchema = z.object({
  assignments: z
    .array(
      z.object({
        planId: idSchema('Plan ID'),
        positionId: idSchema('Position ID'),
        memberId: idSchema('Member ID'),
      }),
    )
    .min(1, 'There is nobody to schedule')
    .max(5000, 'At most 5000 assignments at once'),
  /** Email the requests at once (through the delivery engine). */
  sendRequests: z.boolean().default(true),
});
export const scheduleCommitResultSchema = z.object({
  created: z.number().int(),
  plans: z.number().int(),
  /** Requests queued, and to how many people. */
  requests: z.number().int(),
  people: z.number().int(),
  skippedNoEmail: z.array(z.string()),
  /** Who was scheduled on a day they are blocked out, in words ('Maria is away 10–19 May'). */
  away: z.array(z.string()),
});

// ---- Plan templates (issue 31 §9) ----

export const createTemplateSchema = z.object({
  planId: idSchema('Plan ID'),
  name: requiredTextSchema('Template name', 200),
});
export const templateIdSchema = z.object({ id: idSchema('Template ID') });
export const planTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  location: z.string().nullable(),
  serviceTimes: z.array(z.string()),
  items: z.array(z.object({ title: z.string(), duration: z.number().int(), songId: z.number().int().nullable() })),
  /** Positions a plan from it needs (a position twice needs two people). */
  positionsNeeded: z.array(z.number().int()),
  createdAt: isoTimestamp,
});
export const MAX_TEMPLATE_WEEKS = 52;
export const plansFromTemplateSchema = z.object({
  id: idSchema('Template ID'),
  date: dateSchema('Date'),
  /** One plan on `date`, or one every week for this many weeks. */
  weeks: z.coerce
    .number({ error: `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}` })
    .int(`Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .min(1, `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .max(MAX_TEMPLATE_WEEKS, `Weeks must be between 1 and ${MAX_TEMPLATE_WEEKS}`)
    .default(1),
});
export const plansFromTemplateResultSchema = z.object({
  plans: z.array(z.object({ id: z.number().int(), date: z.string(), title: z.string() })),
});

// ---- The scheduling matrix (issue 31 §5) ----

/** The longest range the matrix shows. */
export const MAX_MATRIX_WEEKS = 52;
/** How an assignment's status reads in the matrix and the portal. */
export const MATRIX_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type MatrixStatus = (typeof MATRIX_STATUSES)[number];
export const MATRIX_STATUS_LABELS: Record<MatrixStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  declined: 'Declined',
};
export const matrixStatusOf = (status: (typeof ASSIGNMENT_STATUSES)[number]): MatrixStatus =>
  status === 'confirmed' ? 'accepted' : status === 'declined' ? 'declined' : 'pending';

export const matrixInputSchema = z
  .object({
    from: dateSchema('From'),
    to: dateSchema('To'),
    /** Only this team's positions and members (a team is a position category). */
    teamId: z.coerce
      .number({ error: 'Team ID must be a positive whole number' })
      .int('Team ID must be a positive whole number')
      .positive('Team ID must be a positive whole number')
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
    else if (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`) >= MAX_MATRIX_WEEKS * 7 * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `The matrix can show at most ${MAX_MATRIX_WEEKS} weeks`,
      });
  });
export const teamSchema = z.object({ id: z.number().int(), name: z.string() });
export const matrixEntrySchema = z.object({
  assignmentId: z.number().int(),
  planId: z.number().int(),
  planTitle: z.string(),
  positionId: z.number().int().nullable(),
  positionName: z.string().nullable(),
  /** The service time ('09:00'), or null for all of the plan's times. */
  serviceTime: z.string().nullable(),
  status: z.enum(MATRIX_STATUSES),
});
export type MatrixEntry = z.infer<typeof matrixEntrySchema>;
export const matrixSchema = z.object({
  from: z.string(),
  to: z.string(),
  team: teamSchema.nullable(),
  /** Every team of the church, for the filter. */
  teams: z.array(teamSchema),
  /** The columns: each date with a plan in the range, with its plans. */
  dates: z.array(
    z.object({
      date: z.string(),
      plans: z.array(z.object({ id: z.number().int(), title: z.string(), serviceTimes: z.array(z.string()) })),
    }),
  ),
  /** The rows: members (of the team), each cell one date of `dates` in the same order. */
  people: z.array(
    z.object({
      memberId: z.number().int(),
      name: z.string(),
      isActive: z.boolean(),
      cells: z.array(
        z.object({
          date: z.string(),
          /** Blocked out that day. */
          away: z.boolean(),
          /** The blockout's reason, when it has one. */
          awayReason: z.string().nullable(),
          entries: z.array(matrixEntrySchema),
        }),
      ),
    }),
  ),
});
export type ScheduleMatrix = z.infer<typeof matrixSchema>;
// ---- Reminders and substitutes (issue 31 §6–7) ----

/** The planner's settings: reminder days before a plan, and how long a substitute offer stays open. */
export const plannerSettingsSchema = z.object({
  reminderDays: z.array(z.number().int()),
  substituteHours: z.number().int(),
});
export const updatePlannerSettingsSchema = z.object({
  reminderDays: z
    .array(
      z
        .number({ error: 'Reminder days must be numbers' })
        .int('Reminder days must be whole days')
        .min(1, 'A reminder is at least 1 day before')
        .max(7, 'A reminder is at most 7 days before'),
      { error: 'Reminder days must be a list' },
    )
    .max(4, 'At most 4 reminders')
    // Each day once, the earliest reminder first.
    .transform((days) => [...new Set(days)].sort((a, b) => b - a))
    .optional(),
  substituteHours: z
    .number({ error: 'Hours to find a substitute must be a number' })
    .int('Hours to find a substitute must be whole hours')
    .min(1, 'Hours to find a substitute must be at least 1')
    .max(336, 'Hours to find a substitute must be at most 336 (2 weeks)')
    .optional(),
});
