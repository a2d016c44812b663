import { z } from 'zod';
import { idSchema, requiredTextSchema } from '../common.js';
import { isCleanText } from '../../shared/text.js';

// What starts a journey, who may enter it, and the goal that takes a person out.

export const listId = idSchema('List ID');
const groupId = idSchema('Group ID');

/** The sources a contact can be created from (those of the `contact.created` event's `via`). */
export const CONTACT_SOURCES = ['staff', 'import', 'api', 'portal', 'signup', 'donation', 'checkin'] as const;
export const CONTACT_SOURCE_LABELS: Record<(typeof CONTACT_SOURCES)[number], string> = {
  staff: 'the contact form',
  import: 'an import',
  api: 'the API',
  portal: 'the members’ portal',
  signup: 'a sign-up',
  donation: 'a gift',
  checkin: 'children’s check-in (a first-time family)',
};

/**
 * What starts a journey for a person. Dates: the only date on a contact today is the birthday
 * (the product has no custom date fields yet); it fires yearly at 9:00 in the church's time zone.
 * `keyword` is ready for two-way texting: it fires on an `sms.received` event whose
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
      /** A giving fund; null for any. */
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
    /**
     * Children's check-in, on the family's parent: any check-in, a family's first (`firstTimeOnly`),
     * or the week a family has checked in `weeksInARow` weeks running on the same weekday (N Sundays
     * in a row: it fires once per run, when the run reaches N).
     */
    z.object({
      kind: z.literal('checked_in'),
      firstTimeOnly: z.boolean().default(false),
      weeksInARow: z.coerce
        .number({ error: 'Weeks in a row must be a number' })
        .int('Weeks in a row must be a whole number')
        .min(2, 'Weeks in a row must be at least 2')
        .max(52, 'Weeks in a row must be at most 52')
        .nullable()
        .default(null),
    }),
    /** Someone joins a group (any way: staff, the finder, an approved request, a move); null: any group. */
    z.object({ kind: z.literal('group_joined'), groupId: groupId.nullable().default(null) }),
    /** Someone asks to join a group from the finder (a request waiting for its leaders). */
    z.object({ kind: z.literal('group_join_requested'), groupId: groupId.nullable().default(null) }),
    /**
     * A member of a group has missed its last `count` meetings with attendance in a row: they enter
     * when the attendance that makes it `count` is recorded (not again at `count` + 1).
     */
    z.object({
      kind: z.literal('group_missed'),
      groupId: groupId.nullable().default(null),
      count: z.coerce
        .number({ error: 'Meetings must be a number' })
        .int('Meetings must be a whole number')
        .min(1, 'Meetings must be at least 1')
        .max(12, 'Meetings must be at most 12')
        .default(3),
    }),
    /**
     * A calendar event (`eventId`, or any): registered for it, checked in at its door, or its time
     * ended with none of the registration's attendees checked in. Each registration enters once
     * (its trigger key), so a 'wait until before the event' step knows the event's time.
     */
    z.object({ kind: z.literal('event_registered'), eventId: idSchema('Event').nullable().default(null) }),
    z.object({ kind: z.literal('event_attended'), eventId: idSchema('Event').nullable().default(null) }),
    z.object({ kind: z.literal('event_missed'), eventId: idSchema('Event').nullable().default(null) }),
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
    /** A recurring giver set their gift up again through their personal link (after a move). */
    z.object({ kind: z.literal('renewed_giving') }),
  ])
  .nullable();
export type JourneyGoal = z.infer<typeof journeyGoalSchema>;
