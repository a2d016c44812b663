import { sql, type Channel, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type { RecipientCount } from '../../schemas/campaigns.js';
import { CHANNELS } from './campaigns.js';
import { withRecipientsPlan } from './channels.js';

/**
 * How many people a send to these lists would reach now: the channel's own recipients query (the
 * one the start snapshots), counted. Every list must be the church's own (another church's is 404).
 */
export async function countRecipients(
  db: Db,
  tenantId: number,
  opts: { channel: Channel; listIds: number[] },
): Promise<RecipientCount> {
  const listIds = [...new Set(opts.listIds)];
  const lists = await db
    .selectFrom('contactLists')
    .select(['id', 'name'])
    .where('userId', '=', tenantId)
    .where('id', 'in', listIds)
    .orderBy('name')
    .execute();
  if (lists.length !== listIds.length) throw notFound('List not found');
  const { rows } = await withRecipientsPlan(db, (trx) =>
    sql<{ n: number }>`
      select count(*)::int as n from (${CHANNELS[opts.channel].recipients(tenantId, listIds)}) r`.execute(trx),
  );
  return { recipients: Number(rows[0]?.n ?? 0), lists };
}
