import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';

/** A church's saved snippets for replies, oldest first. */
export function listQuickReplies(db: Db, tenantId: number) {
  return db
    .selectFrom('smsQuickReplies')
    .select(['id', 'title', 'body'])
    .where('userId', '=', tenantId)
    .orderBy('id')
    .execute();
}

export function createQuickReply(db: Db, tenantId: number, input: { title: string; body: string }) {
  return db
    .insertInto('smsQuickReplies')
    .values({ userId: tenantId, title: input.title, body: input.body })
    .returning(['id', 'title', 'body'])
    .executeTakeFirstOrThrow();
}

export async function deleteQuickReply(db: Db, tenantId: number, input: { id: number }) {
  const row = await db
    .deleteFrom('smsQuickReplies')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Quick reply not found');
  return row;
}
