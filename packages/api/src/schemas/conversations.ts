import { z } from 'zod';
import { idSchema, requiredTextSchema } from './common.js';
import { isCleanText } from '../shared/text.js';
import { keywordWords } from '../shared/conversations.js';

// Two-way texting: zod only, shared by the server and the inbox's forms.

/** The longest reply staff may send (Twilio's limit for one message: 1,600 characters). */
export const MAX_REPLY_LENGTH = 1600;

export const conversationStatusSchema = z.enum(['open', 'closed']);

export const conversationSchema = z.object({
  id: z.number().int(),
  /** The person's number (E.164). */
  phone: z.string(),
  /** The contact the number belongs to; null: 'Unknown' until staff link it or make a contact. */
  contactId: z.number().int().nullable(),
  /** The contact's name, or 'Unknown'. */
  name: z.string(),
  status: conversationStatusSchema,
  assignedUserId: z.number().int().nullable(),
  /** Texts from the person that nobody has read yet. */
  unread: z.number().int(),
  lastMessageAt: z.string(),
  /** The newest text's first characters (plain text). */
  preview: z.string(),
  /** The person texted STOP: replies cannot be sent until they text START. */
  optedOut: z.boolean(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const listConversationsInput = z.object({
  /** Name, number or words of the newest text. */
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  status: z.enum(['open', 'closed', 'all'], { error: 'Status must be open, closed or all' }).default('all'),
  assigned: z.enum(['me', 'anyone'], { error: 'Assigned must be me or anyone' }).default('anyone'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export const listConversationsOutput = z.object({
  conversations: z.array(conversationSchema),
  total: z.number().int(),
  /** Unread texts across the church's open conversations (the navigation's badge). */
  unreadTotal: z.number().int(),
});

export const conversationIdSchema = z.object({ id: idSchema('Conversation ID') });

export const updateConversationInput = z.object({
  id: idSchema('Conversation ID'),
  status: conversationStatusSchema.optional(),
  /** A staff user of the church; null unassigns. */
  assignedUserId: idSchema('Assigned user').nullable().optional(),
  /** true marks every text read; false marks the newest one unread again. */
  read: z.boolean({ error: 'Read must be true or false' }).optional(),
  /** Link an 'Unknown' conversation (or a different one) to this contact. */
  contactId: idSchema('Contact ID').optional(),
  /** Make a new contact of the number, with this name, and link it. */
  newContact: z
    .object({
      firstName: requiredTextSchema('First name', 100),
      lastName: z.string().trim().max(100, 'Last name must be at most 100 characters').default(''),
    })
    .optional(),
});
export type UpdateConversationInput = z.input<typeof updateConversationInput>;

/**
 * One entry of a thread's timeline: a text in, a reply out, or a campaign's, a journey's or a
 * group leader's text sent to the number.
 */
export const conversationMessageSchema = z.object({
  /** 'in-12', 'reply-34', 'campaign-56', 'journey-78', 'group-90': unique across the kinds. */
  key: z.string(),
  direction: z.enum(['inbound', 'outbound']),
  kind: z.enum(['text', 'reply', 'campaign', 'journey', 'group']),
  body: z.string(),
  at: z.string(),
  /** The keyword the text matched (STOP, START, HELP or one of the church's). */
  keyword: z.string().nullable(),
  /** For a reply, campaign or journey text: its delivery's status (pending, sent, delivered, failed…). */
  status: z.string().nullable(),
  /** For a campaign text: the campaign's name. */
  campaignName: z.string().nullable(),
  /** For a journey's text: the journey's name. */
  journeyName: z.string().nullable().default(null),
  /** For a group leader's text: the group's name. */
  groupName: z.string().nullable().default(null),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

export const listMessagesInput = z.object({ id: idSchema('Conversation ID') });
export const listMessagesOutput = z.object({ messages: z.array(conversationMessageSchema) });

export const sendReplyInput = z.object({
  id: idSchema('Conversation ID'),
  body: z
    .string({ error: 'Reply is required' })
    .trim()
    .min(1, 'Reply is required')
    .max(MAX_REPLY_LENGTH, `Reply must be at most ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters`)
    .refine(isCleanText, 'Reply contains characters that are not allowed'),
});
export type SendReplyInput = z.input<typeof sendReplyInput>;

export const quickReplySchema = z.object({ id: z.number().int(), title: z.string(), body: z.string() });
export const createQuickReplyInput = z.object({
  title: requiredTextSchema('Title', 80),
  body: requiredTextSchema('Text', MAX_REPLY_LENGTH),
});
export const quickReplyIdSchema = z.object({ id: idSchema('Quick reply ID') });

// ---- Keywords ----

/** Opt-out, opt-in and help words Lampstand answers itself: never a church's keyword. */
export const RESERVED_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
  'OPT OUT',
  'START',
  'UNSTOP',
  'HELP',
  'INFO',
];

/** A keyword as typed ('join youth', 'Pray!'): one or two words, stored upper case. */
export const keywordSchema = z
  .string({ error: 'Keyword is required' })
  .max(40, 'Keyword must be at most 40 characters')
  .transform((s, ctx) => {
    const words = keywordWords(s);
    if (words.length === 0) ctx.addIssue({ code: 'custom', message: 'Keyword is required' });
    else if (words.length > 2) ctx.addIssue({ code: 'custom', message: 'Keyword must be one or two words' });
    const keyword = words.join(' ');
    if (RESERVED_KEYWORDS.includes(keyword) || (words.length === 2 && RESERVED_KEYWORDS.includes(words[0]!)))
      ctx.addIssue({ code: 'custom', message: `${keyword} is reserved for opting out, in or for help` });
    return keyword;
  });

const keywordReply = z
  .string()
  .trim()
  .max(MAX_REPLY_LENGTH, `Reply must be at most ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters`)
  .refine(isCleanText, 'Reply contains characters that are not allowed')
  .nullable()
  .transform((s) => (s ? s : null));

export const smsKeywordSchema = z.object({
  id: z.number().int(),
  keyword: z.string(),
  /** The text sent back when it matches; null: none. */
  replyText: z.string().nullable(),
  /** The list the texter is added to; null: none. */
  listId: z.number().int().nullable(),
  listName: z.string().nullable(),
  /** The journey the texter starts; null: none. */
  journeyId: z.number().int().nullable(),
  journeyName: z.string().nullable(),
  /** A follow-up task made on each match, with this title (the text in its notes); null: none. */
  taskTitle: z.string().nullable(),
  /** How many texts matched it. */
  matches: z.number().int(),
});
export type SmsKeyword = z.infer<typeof smsKeywordSchema>;

export const NOTHING_TO_DO = 'Choose what the keyword does: a reply, a list, a journey or a task';

const taskTitle = z
  .string()
  .trim()
  .max(200, 'Task title must be at most 200 characters')
  .refine(isCleanText, 'Task title contains characters that are not allowed')
  .nullable()
  .transform((s) => (s ? s : null));

export const createKeywordInput = z
  .object({
    keyword: keywordSchema,
    replyText: keywordReply.optional(),
    listId: idSchema('List').nullable().optional(),
    journeyId: idSchema('Journey').nullable().optional(),
    taskTitle: taskTitle.optional(),
  })
  .refine((v) => !!v.replyText || !!v.listId || !!v.journeyId || !!v.taskTitle, {
    message: NOTHING_TO_DO,
    path: ['replyText'],
  });
export type CreateKeywordInput = z.input<typeof createKeywordInput>;

export const updateKeywordInput = z.object({
  id: idSchema('Keyword ID'),
  keyword: keywordSchema.optional(),
  replyText: keywordReply.optional(),
  listId: idSchema('List').nullable().optional(),
  journeyId: idSchema('Journey').nullable().optional(),
  taskTitle: taskTitle.optional(),
});
export const keywordIdSchema = z.object({ id: idSchema('Keyword ID') });

// ---- The staff email digest ----

export const CONVERSATION_DIGEST_SETTINGS = ['off', 'hourly', 'daily'] as const;
export type ConversationDigestSetting = (typeof CONVERSATION_DIGEST_SETTINGS)[number];
export const conversationDigestSchema = z.object({
  frequency: z.enum(CONVERSATION_DIGEST_SETTINGS, { error: 'Choose off, hourly or daily' }),
});
