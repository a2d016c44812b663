import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import {
  NOTHING_TO_DO,
  type createKeywordInput,
  type SmsKeyword,
  type updateKeywordInput,
} from '../../schemas/conversations.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { assertOwnSmsNumber } from '../settings/sms-number.js';

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
  await assertOwnSmsNumber(db, tenantId);
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
  await assertOwnSmsNumber(db, tenantId);
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
