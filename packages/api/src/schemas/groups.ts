import { z } from 'zod';
import {
  boundedArraySchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
  urlSchema,
} from './common.js';

// Groups: small groups, classes, teams, or a church's own types; their members, meetings and
// attendance. Zod only: the staff screens and the portal read the same messages.

export const GROUP_FREQUENCIES = ['weekly', 'every_other_week', 'monthly', 'by_arrangement'] as const;
export const JOIN_MODES = ['open', 'request', 'closed'] as const;
export const AREA_PRECISIONS = ['suburb', 'none'] as const;
export const GROUP_ROLES = ['leader', 'member'] as const;
export const ATTENDANCE_TRENDS = ['up', 'down', 'steady'] as const;
/** The types offered first; a church may type its own. */
export const GROUP_TYPES = ['Small group', 'Class', 'Team'] as const;
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** 'HH:MM' (24-hour); '' is none. */
export const groupTimeSchema = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z
      .string({ error: `${label} must be a time as HH:MM` })
      .regex(HHMM, `${label} must be a time as HH:MM`)
      .nullable(),
  );

/** 'YYYY-MM-DD', a real day. */
export const groupDateSchema = (label: string) =>
  z
    .string({ error: `${label} must be a date as YYYY-MM-DD` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
    }, `${label} must be a date as YYYY-MM-DD`);

const weekdaySchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ error: 'Day must be a weekday from 0 (Sunday) to 6 (Saturday)' })
    .int('Day must be a weekday from 0 (Sunday) to 6 (Saturday)')
    .min(0, 'Day must be a weekday from 0 (Sunday) to 6 (Saturday)')
    .max(6, 'Day must be a weekday from 0 (Sunday) to 6 (Saturday)')
    .nullable(),
);

const coordinate = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce
      .number({ error: `${label} must be a number` })
      .min(-max, `${label} must be between -${max} and ${max}`)
      .max(max, `${label} must be between -${max} and ${max}`)
      .nullable(),
  );

const capacitySchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ error: 'Capacity must be a whole number of at least 1' })
    .int('Capacity must be a whole number of at least 1')
    .min(1, 'Capacity must be a whole number of at least 1')
    .max(100_000, 'Capacity must be at most 100000')
    .nullable(),
);

const tagsSchema = boundedArraySchema(requiredTextSchema('Tag', 40), 'Tags', 20).transform((tags) => [
  ...new Set(tags),
]);

export const groupFieldsSchema = z.object({
  name: requiredTextSchema('Name', 120),
  type: requiredTextSchema('Type', 60).default('Small group'),
  description: optionalTextSchema('Description', 4000).optional(),
  imageUrl: z
    .preprocess((v) => (v === '' ? null : v), urlSchema('Image must be an http(s) address').nullable())
    .optional(),
  frequency: z
    .enum(GROUP_FREQUENCIES, { error: 'How often must be weekly, every_other_week, monthly or by_arrangement' })
    .default('weekly'),
  weekday: weekdaySchema.optional(),
  time: groupTimeSchema('Time').optional(),
  /** Monthly: the week of the month (1–4, or 5 for the last). */
  weekOfMonth: z.preprocess(
    (v) => (v === '' ? null : v),
    z.coerce
      .number({ error: 'Week of the month must be 1 to 4, or 5 for the last' })
      .int('Week of the month must be 1 to 4, or 5 for the last')
      .min(1, 'Week of the month must be 1 to 4, or 5 for the last')
      .max(5, 'Week of the month must be 1 to 4, or 5 for the last')
      .nullable()
      .optional(),
  ),
  /** Every other week: a day it meets (the fortnight counts from it). */
  startsOn: z.preprocess((v) => (v === '' ? null : v), groupDateSchema('Starts on').nullable().optional()),
  address: optionalTextSchema('Address', 500).optional(),
  /** What the public sees of where it meets (a suburb), when the precision is 'suburb'. */
  area: optionalTextSchema('Area', 120).optional(),
  areaPrecision: z.enum(AREA_PRECISIONS, { error: 'Area shown must be suburb or none' }).default('suburb'),
  latitude: coordinate('Latitude', 90).optional(),
  longitude: coordinate('Longitude', 180).optional(),
  tags: tagsSchema.default([]),
  capacity: capacitySchema.optional(),
  joinMode: z.enum(JOIN_MODES, { error: 'How people join must be open, request or closed' }).default('request'),
  archived: z.boolean({ error: 'Archived must be true or false' }).default(false),
});

type ScheduleFields = {
  frequency?: (typeof GROUP_FREQUENCIES)[number];
  weekday?: number | null;
  startsOn?: string | null;
  weekOfMonth?: number | null;
};
/** A schedule that names its day: weekly, every other week and monthly need a weekday. */
export function checkSchedule(v: ScheduleFields, ctx: z.RefinementCtx): void {
  if (v.frequency && v.frequency !== 'by_arrangement' && (v.weekday === null || v.weekday === undefined))
    ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'Day is required unless it meets by arrangement' });
}

export const createGroupSchema = groupFieldsSchema
  .extend({
    /** Contacts who lead it (added as members with the role leader). */
    leaderContactIds: boundedArraySchema(idSchema('Leader contact ID'), 'Leaders', 20).default([]),
  })
  .superRefine(checkSchedule);

const g = groupFieldsSchema.shape;
export const updateGroupSchema = z
  .object({
    id: idSchema('Group ID'),
    name: g.name.optional(),
    type: requiredTextSchema('Type', 60).optional(),
    description: g.description,
    imageUrl: g.imageUrl,
    frequency: g.frequency.removeDefault().optional(),
    weekday: g.weekday,
    time: g.time,
    weekOfMonth: g.weekOfMonth,
    startsOn: g.startsOn,
    address: g.address,
    area: g.area,
    areaPrecision: g.areaPrecision.removeDefault().optional(),
    latitude: g.latitude,
    longitude: g.longitude,
    tags: tagsSchema.optional(),
    capacity: g.capacity,
    joinMode: g.joinMode.removeDefault().optional(),
    archived: z.boolean({ error: 'Archived must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    // Only a frequency sent in this PATCH is checked here; the merged row is checked by the service.
    if (v.frequency && v.weekday === null) checkSchedule(v, ctx);
  });
export type UpdateGroupInput = z.infer<typeof updateGroupSchema>;

export const groupIdSchema = z.object({ id: idSchema('Group ID') });

export const listGroupsSchema = z
  .object({
    search: textSchema('Search', 200).optional(),
    type: textSchema('Type', 60).optional(),
    weekday: weekdaySchema.optional(),
    leaderContactId: idSchema('Leader contact ID').optional(),
    trend: z.enum(ATTENDANCE_TRENDS, { error: 'Trend must be up, down or steady' }).optional(),
    archived: z
      .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
      .default(false)
      .describe('Archived groups instead of active ones'),
    limit: z.coerce.number().int().min(1, 'Limit must be 1 to 1000').max(1000, 'Limit must be 1 to 1000').default(200),
    offset: z.coerce.number().int().min(0, 'Offset must be 0 or more').max(1_000_000).default(0),
    /** 'csv' answers with the CSV file (REST: also `Accept: text/csv`). */
    format: z.enum(['json', 'csv'], { error: 'Format must be json or csv' }).default('json'),
  })
  .default({ archived: false, limit: 200, offset: 0, format: 'json' });

const personRef = z.object({ contactId: z.number().int(), name: z.string() });

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  frequency: z.enum(GROUP_FREQUENCIES),
  weekday: z.number().int().nullable(),
  time: z.string().nullable().describe('HH:MM'),
  weekOfMonth: z.number().int().nullable(),
  startsOn: z.string().nullable(),
  address: z.string().nullable(),
  area: z.string().nullable(),
  areaPrecision: z.enum(AREA_PRECISIONS),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  tags: z.array(z.string()),
  capacity: z.number().int().nullable(),
  joinMode: z.enum(JOIN_MODES),
  archived: z.boolean(),
  memberCount: z.number().int(),
  leaders: z.array(personRef),
  /** Share of members present over the last 8 meetings with attendance (0–1), null before any. */
  attendanceRate: z.number().nullable(),
  trend: z.enum(ATTENDANCE_TRENDS).nullable().describe('The last 4 meetings against the 4 before them'),
  nextMeeting: z.string().nullable().describe('YYYY-MM-DD from the schedule; null by arrangement'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type GroupRow = z.input<typeof groupSchema>;

export const groupListSchema = z.union([
  z.object({ groups: z.array(groupSchema), total: z.number().int() }),
  z.object({ fileName: z.string(), csv: z.string() }),
]);

export const meetingSummarySchema = z.object({
  id: z.number().int(),
  date: z.string(),
  time: z.string().nullable(),
  present: z.number().int(),
  visitors: z.number().int(),
  recorded: z.boolean(),
});

export const groupDetailSchema = groupSchema.extend({
  recentMeetings: z.array(meetingSummarySchema),
  /** Current members absent from each of the last three meetings with attendance. */
  missedLastThree: z.array(personRef),
  pendingRequests: z.number().int(),
});

export const okIdSchema = z.object({ id: z.number().int() });
