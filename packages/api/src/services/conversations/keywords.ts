import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import {
  keywordWords,
  type createKeywordInput,
  type SmsKeyword,
  type updateKeywordInput,
} from '../../schemas/conversations.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { personOf, recordEvent } from '../events/record.js';
import { preview } from './preview.js';

const MISSING = 'Keyword not found';
const TAKEN = 'This keyword already exists';

function selectKeywords(db: Db, tenantId: number) {
  return db
    .selectFrom('smsKeywords as k')
    .leftJoin('contactLists as l', 'l.id', 'k.listId')
    .select([
      'k.id',
      'k.keyword',
      'k.replyText',
      'k.listId',
      'l.name as listName',
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

export async function createKeyword(
  db: Db,
  tenantId: number,
  input: z.output<typeof createKeywordInput>,
): Promise<SmsKeyword> {
  await assertList(db, tenantId, input.listId);
  try {
    const row = await db
      .insertInto('smsKeywords')
      .values({
        userId: tenantId,
        keyword: input.keyword,
        replyText: input.replyText ?? null,
        listId: input.listId ?? null,
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
  const replyText = input.replyText !== undefined ? input.replyText : current.replyText;
  const listId = input.listId !== undefined ? input.listId : current.listId;
  if (!replyText && !listId) throw badRequest('Choose what the keyword does: a reply, a list, or both', 'replyText');
  try {
    await db
      .updateTable('smsKeywords')
      .set({ keyword: input.keyword ?? current.keyword, replyText, listId, updatedAt: new Date() })
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
}

/**
 * The church's keyword an incoming text starts with: its first two words ('JOIN YOUTH') before its
 * first word ('JOIN'); any case, punctuation ignored ('Pray!' is PRAY).
 */
export async function matchChurchKeyword(db: Db, churchId: number, body: string): Promise<MatchedKeyword | null> {
  const words = keywordWords(body);
  if (words.length === 0) return null;
  const candidates = words.length > 1 ? [`${words[0]} ${words[1]}`, words[0]!] : [words[0]!];
  const row = await db
    .selectFrom('smsKeywords')
    .select(['id', 'keyword', 'replyText', 'listId'])
    .where('userId', '=', churchId)
    .where('keyword', 'in', candidates)
    .orderBy(sql`length(keyword)`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

export interface KeywordOutcome {
  /** The contact the texter is (made when the list action needed one). */
  contactId: number | null;
  /** A reply was written as a delivery of the conversation: its deliver job is due. */
  replyQueued: boolean;
}

/**
 * A matched keyword's actions, in the inbound text's transaction: add the texter to the list (an
 * unknown number becomes a contact named 'Unknown' with the number, via 'signup', linked to the
 * conversation), then the reply as a 'conversation-reply' delivery of the one engine (consent was
 * given by texting in; the caller queues the deliver job after the commit).
 */
export async function runKeywordActions(
  trx: Db,
  churchId: number,
  o: { keyword: MatchedKeyword; from: string; conversationId: number; contactId: number | null },
): Promise<KeywordOutcome> {
  let contactId = o.contactId;
  if (o.keyword.listId) {
    const list = await trx
      .selectFrom('contactLists')
      .select(['id', 'name'])
      .where('id', '=', o.keyword.listId)
      .where('userId', '=', churchId)
      .executeTakeFirst();
    if (list) {
      if (!contactId) {
        const made = await trx
          .insertInto('contacts')
          .values({ userId: churchId, firstName: 'Unknown', lastName: '', phone: o.from, phoneE164: o.from })
          .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
          .executeTakeFirstOrThrow();
        contactId = made.id;
        await trx.updateTable('conversations').set({ contactId: made.id }).where('id', '=', o.conversationId).execute();
        await recordEvent(trx, churchId, {
          type: 'contact.created',
          contactId: made.id,
          payload: { person: personOf(made), via: 'signup', list: { id: list.id, name: list.name } },
        });
      }
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
  return { contactId, replyQueued };
}
