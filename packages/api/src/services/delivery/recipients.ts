import { sql, type Channel, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type { RecipientCount } from '../../schemas/campaigns.js';
import { CHANNELS } from './campaigns.js';
import { withRecipientsPlan } from './channels.js';
import { suppressedSql } from '../deliverability/suppressions.js';

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
  const recipients = Number(rows[0]?.n ?? 0);
  if (opts.channel !== 'email') return { recipients, lists };
  // Shown before a send: '12 addresses are suppressed and will be skipped'.
  const { rows: skipped } = await sql<{ n: number }>`
    select count(distinct lower(c.email))::int as n
    from contacts c join contacts_in_lists m on m.contact_id = c.id and m.user_id = c.user_id
    where c.user_id = ${tenantId} and m.list_id = any(${listIds}::int[]) and c.email is not null and c.email <> ''
      and ${suppressedSql(tenantId, sql.ref('c.email'))}`.execute(db);
  const suppressed = Number(skipped[0]?.n ?? 0);
  return suppressed > 0 ? { recipients, lists, suppressed } : { recipients, lists };
}
