import { z } from 'zod';
import {
  boundedArraySchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
} from './common.js';
import { GROUP_ROLES, groupDateSchema, groupTimeSchema } from './groups.js';

// A group's people, join requests, meetings and attendance.

export const memberSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(GROUP_ROLES),
  joinedOn: z.string(),
  leftOn: z.string().nullable(),
  /** Meetings with attendance since they joined, and how many of them they came to. */
  meetings: z.number().int(),
  attended: z.number().int(),
});
export type GroupMember = z.input<typeof memberSchema>;

export const listMembersSchema = z.object({
  id: idSchema('Group ID'),
  includeLeft: z
    .preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean())
    .default(false)
    .describe('Also the people who left'),
});

export const addMembersSchema = z.object({
  id: idSchema('Group ID'),
  contactIds: boundedArraySchema(idSchema('Contact ID'), 'Contacts', 500).min(1, 'Choose at least one contact'),
  role: z.enum(GROUP_ROLES, { error: 'Role must be leader or member' }).default('member'),
});

export const removeMemberSchema = z.object({ id: idSchema('Group ID'), contactId: idSchema('Contact ID') });

export const moveMembersSchema = z.object({
  id: idSchema('Group ID'),
  toGroupId: idSchema('To group ID'),
  contactIds: boundedArraySchema(idSchema('Contact ID'), 'Contacts', 500).min(1, 'Choose at least one contact'),
  /** 'move' leaves this group; 'copy' stays in it too. */
  mode: z.enum(['move', 'copy'], { error: 'Mode must be move or copy' }).default('move'),
});
export const moveResultSchema = z.object({
  toGroupId: z.number().int(),
  added: z.number().int(),
  left: z.number().int(),
});

// ---- Join requests ----

export const joinRequestSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  contactId: z.number().int().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'declined']),
  createdAt: isoTimestamp,
  decidedAt: isoTimestamp.nullable(),
});
export const decideRequestSchema = z.object({
  id: idSchema('Group ID'),
  requestId: idSchema('Request ID'),
  decision: z.enum(['approve', 'decline'], { error: 'Decision must be approve or decline' }),
});

/** 'Ask to join' on the public finder. */
export const askToJoinSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .pipe(z.email('Please enter a valid email address').max(254, 'Please enter a valid email address')),
  phone: optionalTextSchema('Phone', 40).optional(),
  note: optionalTextSchema('Note', 1000).optional(),
});
export type AskToJoinInput = z.infer<typeof askToJoinSchema>;

// ---- Meetings and attendance ----

export const listMeetingsSchema = z.object({
  id: idSchema('Group ID'),
  from: groupDateSchema('From').optional(),
  to: groupDateSchema('To').optional(),
});

export const createMeetingSchema = z.object({
  id: idSchema('Group ID'),
  /** The day; none: today's meeting (the church's today) from the schedule. */
  date: groupDateSchema('Date').optional(),
  time: groupTimeSchema('Time').optional(),
  note: optionalTextSchema('Note', 1000).optional(),
});

export const clientKeySchema = z
  .string({ error: 'Client key must be text' })
  .trim()
  .min(8, 'Client key must be 8 to 100 characters')
  .max(100, 'Client key must be 8 to 100 characters')
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Client key may use letters, digits and _ . : - only');

const attendanceFields = {
  present: boundedArraySchema(idSchema('Present contact ID'), 'Present', 1000).default([]),
  visitors: boundedArraySchema(requiredTextSchema('Visitor name', 120), 'Visitors', 200).default([]),
  /** Made by the phone once per submission: the same key sent again is recorded once. */
  clientKey: clientKeySchema.optional(),
};

export const recordAttendanceSchema = z.object({
  id: idSchema('Group ID'),
  meetingId: idSchema('Meeting ID'),
  ...attendanceFields,
});
export type AttendanceInput = { present: number[]; visitors: string[]; clientKey?: string };

/** The portal's one call: the meeting of `date` (today when none) found or made, and its attendance. */
export const recordAttendanceByDateSchema = z.object({
  id: idSchema('Group ID'),
  date: groupDateSchema('Date').optional(),
  ...attendanceFields,
});

export const attendeeSchema = z.object({ contactId: z.number().int(), name: z.string() });

export const meetingSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  date: z.string(),
  time: z.string().nullable(),
  note: z.string().nullable(),
  present: z.array(attendeeSchema),
  visitors: z.array(z.string()),
  recorded: z.boolean().describe('Attendance has been taken'),
  recordedAt: isoTimestamp.nullable(),
});
export type Meeting = z.input<typeof meetingSchema>;

export const createdMeetingSchema = meetingSchema.extend({
  created: z.boolean().describe('False when the day already had its meeting (answered unchanged)'),
});
export const recordedMeetingSchema = meetingSchema.extend({
  applied: z.boolean().describe('False when this client key was already recorded (nothing changed)'),
});

export const churchAttendanceSchema = z
  .object({
    from: groupDateSchema('From'),
    to: groupDateSchema('To'),
    groupIds: z
      .preprocess(
        (v) => (typeof v === 'string' ? (v === '' ? [] : v.split(',')) : v),
        boundedArraySchema(idSchema('Group ID'), 'Group IDs', 1000),
      )
      .optional()
      .describe('Comma-separated group ids; none: every group'),
    cursor: textSchema('Cursor', 40)
      .regex(/^\d{4}-\d{2}-\d{2}_\d{1,10}$/, 'Cursor is not valid')
      .optional(),
    limit: z.coerce.number().int().min(1, 'Limit must be 1 to 5000').max(5000, 'Limit must be 1 to 5000').default(1000),
  })
  .superRefine((v, ctx) => {
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
  });
export const churchAttendanceRowSchema = z.object({
  meetingId: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string(),
  date: z.string(),
  time: z.string().nullable(),
  present: z.array(z.number().int()).describe('Contact ids of the members present'),
  visitors: z.array(z.string()),
  recorded: z.boolean(),
});
export const churchAttendanceOutputSchema = z.object({
  meetings: z.array(churchAttendanceRowSchema),
  nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last'),
});
export type ChurchAttendance = z.infer<typeof churchAttendanceOutputSchema>;

// ---- A leader's message to the group ----

/** A message to the group's current members: an email (subject and text) or a text. */
export const groupMessageSchema = z
  .object({
    id: idSchema('Group ID'),
    channel: z.enum(['email', 'sms'], { error: 'Send by must be email or text' }),
    subject: optionalTextSchema('Subject', 200).optional(),
    body: requiredTextSchema('Message', 5000),
  })
  .superRefine((v, ctx) => {
    if (v.channel === 'email' && !v.subject?.trim())
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'Subject is required for an email' });
    if (v.channel === 'sms' && v.body.length > 1000)
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'A text must be at most 1000 characters' });
  });
export type GroupMessageInput = z.infer<typeof groupMessageSchema>;
export const groupMessageResultSchema = z.object({
  id: z.number().int(),
  /** Deliveries written: each is sent, or skipped with the contact rule's reason, by the engine. */
  queued: z.number().int(),
  /** Members with no address on the channel (no email, no mobile number). */
  withoutAddress: z.array(z.string()),
});
export type GroupMessageResult = z.infer<typeof groupMessageResultSchema>;
