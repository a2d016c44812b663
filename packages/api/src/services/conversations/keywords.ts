import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import {
  keywordWords,
  NOTHING_TO_DO,
  type createKeywordInput,
  type SmsKeyword,
  type updateKeywordInput,
} from '../../schemas/conversations.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { personOf, recordEvent } from '../events/record.js';
import { preview } from './preview.js';
import { enrollCandidates } from '../journeys/enroll.js';
import { loadVersion } from '../journeys/definitions.js';
import { queueTaskNotice } from '../journeys/task-notices.js';
import { localDate } from '../journeys/time.js';

const MISSING = 'Keyword not found';
const TAKEN = 'This keyword already exists';

function selectKeywords(db: Db, tenantId: number) {
  return db
    .selectFrom('smsKeywords as k')
    .leftJoin('contactLists as l', 'l.id', 'k.listId')
    .leftJoin('journeys as j', 'j.id', 'k.journeyId')
    .select([
      'k.id',
      'k.keyword',
      'k.replyText',
      'k.listId',
      'l.name as listName',
      'k.journeyId',
      'j.name as journeyName',
      'k.taskTitle',
      sql<number>`(select count(*)::int from conversation_messages m
                   where m.user_id = k.user_id and m.keyword = k.keyword and m.direction = 'inbound')`.as('matches'),
    ])
    .where('k.userId', '=', tenantId);
}

export async function listKeywords(db: Db, tenantId: number): Promise<SmsKeyword[]> {
  const rows = await selectKeywords(db, tenantId).orderBy('k.keyword').execute();
  return rows.map((r) => ({ ...r, matches: Number(r.matches) }));
}

async function getKeyword(db: Db, tenantId: number, id: number): Promise<SmsKeyword> {
  const row = await selectKeywords(db, tenantId).where('k.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(MISSING);
  return { ...row, matches: Number(row.matches) };
}

async function assertList(db: Db, tenantId: number, listId: number | null | undefined) {
  if (!listId) return;
  const list = await db
    .selectFrom('contactLists')
    .select('id')
    .where('id', '=', listId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!list) throw notFound('List not found');
}

async function assertJourney(db: Db, tenantId: number, journeyId: number | null | undefined) {
  if (!journeyId) return;
  const journey = await db
    .selectFrom('journeys')
    .select('id')
    .where('id', '=', journeyId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!journey) throw notFound('Journey not found');
}

export async function createKeyword(
  db: Db,
  tenantId: number,
  input: z.output<typeof createKeywordInput>,
): Promise<SmsKeyword> {
  await assertList(db, tenantId, input.listId);
  await assertJourney(db, tenantId, input.journeyId);
  try {
    const row = await db
      .insertInto('smsKeywords')
      .values({
        userId: tenantId,
        keyword: input.keyword,
        replyText: input.replyText ?? null,
        listId: input.listId ?? null,
        journeyId: input.journeyId ?? null,
        taskTitle: input.taskTitle ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return getKeyword(db, tenantId, row.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TAKEN, 'keyword');
    throw err;
  }
}

/** Only the fields sent change; a keyword left with neither a reply nor a list is refused. */
export async function updateKeyword(
  db: Db,
  tenantId: number,
  input: z.output<typeof updateKeywordInput>,
): Promise<SmsKeyword> {
  const current = await getKeyword(db, tenantId, input.id);
  await assertList(db, tenantId, input.listId);
  await assertJourney(db, tenantId, input.journeyId);
  const replyText = input.replyText !== undefined ? input.replyText : current.replyText;
  const listId = input.listId !== undefined ? input.listId : current.listId;
  const journeyId = input.journeyId !== undefined ? input.journeyId : current.journeyId;
  const taskTitle = input.taskTitle !== undefined ? input.taskTitle : current.taskTitle;
  if (!replyText && !listId && !journeyId && !taskTitle) throw badRequest(NOTHING_TO_DO, 'replyText');
  try {
    await db
      .updateTable('smsKeywords')
      .set({
        keyword: input.keyword ?? current.keyword,
        replyText,
        listId,
        journeyId,
        taskTitle,
        updatedAt: new Date(),
      })
      .where('id', '=', current.id)
      .where('userId', '=', tenantId)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TAKEN, 'keyword');
    throw err;
  }
  return getKeyword(db, tenantId, current.id);
}

export async function deleteKeyword(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  const row = await db
    .deleteFrom('smsKeywords')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound(MISSING);
  return row;
}

export interface MatchedKeyword {
  id: number;
  keyword: string;
  replyText: string | null;
  listId: number | null;
  journeyId: number | null;
  taskTitle: string | null;
}

/**
 * The keywords an incoming text may start with, longest first: its first two words ('JOIN YOUTH')
 * before its first word ('JOIN'); any case, punctuation ignored ('Pray!' is PRAY). The church's
 * keyword among them is looked up with the texter (inbound.ts).
 */
export function keywordCandidates(body: string): string[] {
  const words = keywordWords(body);
  if (words.length === 0) return [];
  return words.length > 1 ? [`${words[0]} ${words[1]}`, words[0]!] : [words[0]!];
}

export interface KeywordOutcome {
  /** The contact the texter is (made when the list action needed one). */
  contactId: number | null;
  /** A reply was written as a delivery of the conversation: its deliver job is due. */
  replyQueued: boolean;
  /** A follow-up task's email was queued (kind 'task-notice'): the church's deliver job is due. */
  taskNoticeQueued: boolean;
}

/** The texter as a contact: a number the church does not know becomes 'Unknown', linked to the conversation. */
async function ensureContact(
  trx: Db,
  churchId: number,
  o: { from: string; conversationId: number; contactId: number | null; list: { id: number; name: string } | null },
): Promise<number> {
  if (o.contactId) return o.contactId;
  const made = await trx
    .insertInto('contacts')
    .values({ userId: churchId, firstName: 'Unknown', lastName: '', phone: o.from, phoneE164: o.from })
    .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
    .executeTakeFirstOrThrow();
  await trx.updateTable('conversations').set({ contactId: made.id }).where('id', '=', o.conversationId).execute();
  await recordEvent(trx, churchId, {
    type: 'contact.created',
    contactId: made.id,
    payload: { person: personOf(made), via: 'signup', ...(o.list ? { list: o.list } : {}) },
  });
  return made.id;
}

/**
 * A matched keyword's actions, in the inbound text's transaction (so each runs once per text: a
 * retried webhook finds the text stored and runs nothing): add the texter to the list (an unknown
 * number becomes a contact named 'Unknown' with the number, via 'signup', linked to the
 * conversation); start the journey (an active one, as its entry rule allows; the texter becomes a
 * contact the same way); create a follow-up task (due today in the church's time zone, the text in
 * its notes); then the reply as a 'conversation-reply' delivery of the one engine (consent was given
 * by texting in; the caller queues the deliver job after the commit).
 */
export async function runKeywordActions(
  trx: Db,
  churchId: number,
  o: { keyword: MatchedKeyword; from: string; body: string; conversationId: number; contactId: number | null },
): Promise<KeywordOutcome> {
  let contactId = o.contactId;
  let taskNoticeQueued = false;
  if (o.keyword.listId) {
    const list = await trx
      .selectFrom('contactLists')
      .select(['id', 'name'])
      .where('id', '=', o.keyword.listId)
      .where('userId', '=', churchId)
      .executeTakeFirst();
    if (list) {
      contactId = await ensureContact(trx, churchId, { ...o, contactId, list });
      const added = await trx
        .insertInto('contactsInLists')
        .values({ userId: churchId, contactId, listId: list.id })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) > 0) {
        const contact = await trx
          .selectFrom('contacts')
          .select(['firstName', 'lastName', 'email', 'phone'])
          .where('id', '=', contactId)
          .executeTakeFirstOrThrow();
        await recordEvent(trx, churchId, {
          type: 'list.member_added',
          contactId,
          payload: { person: personOf(contact), list: { id: list.id, name: list.name } },
        });
      }
    }
  }
  if (o.keyword.journeyId) {
    const journey = await trx
      .selectFrom('journeys')
      .selectAll()
      .where('id', '=', o.keyword.journeyId)
      .where('userId', '=', churchId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (journey) {
      contactId = await ensureContact(trx, churchId, { ...o, contactId, list: null });
      const definition = await loadVersion(trx, journey, journey.currentVersion);
      await enrollCandidates(trx, journey, definition, sql`select ${contactId}::int as id`, { now: new Date() });
    }
  }
  if (o.keyword.taskTitle) {
    const church = await trx
      .selectFrom('churchSettings')
      .select('timeZone')
      .where('userId', '=', churchId)
      .executeTakeFirst();
    const task = await trx
      .insertInto('tasks')
      .values({
        userId: churchId,
        title: o.keyword.taskTitle,
        notes: `Text from ${o.from} (${o.keyword.keyword}): ${o.body}`.slice(0, 2000),
        dueOn: localDate(new Date(), church?.timeZone ?? 'UTC'),
        contactId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The church's own login is told, as a journey's task tells its assignee (through the engine).
    taskNoticeQueued = await queueTaskNotice(trx, churchId, task.id);
  }
  let replyQueued = false;
  if (o.keyword.replyText) {
    const contact = contactId
      ? await trx
          .selectFrom('contacts')
          .select(['firstName', 'lastName'])
          .where('id', '=', contactId)
          .executeTakeFirst()
      : undefined;
    const delivery = await trx
      .insertInto('deliveries')
      .values({
        userId: churchId,
        channel: 'sms',
        kind: 'conversation-reply',
        conversationId: o.conversationId,
        contactId,
        address: o.from,
        firstName: contact?.firstName ?? '',
        lastName: contact?.lastName ?? '',
        token: crypto.randomBytes(24).toString('hex'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('conversationMessages')
      .values({
        userId: churchId,
        conversationId: o.conversationId,
        direction: 'outbound',
        body: o.keyword.replyText,
        deliveryId: delivery.id,
        keyword: o.keyword.keyword,
      })
      .execute();
    await trx
      .updateTable('conversations')
      .set({ lastMessagePreview: preview(o.keyword.replyText) })
      .where('id', '=', o.conversationId)
      .execute();
    replyQueued = true;
  }
  return { contactId, replyQueued, taskNoticeQueued };
}
