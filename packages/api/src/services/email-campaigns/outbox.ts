import type { Db } from '@lampstand/db';

export async function listOutbox(
  db: Db,
  tenantId: number,
  q: { channel: 'email' | 'sms'; campaignId?: number; limit: number },
) {
  let query = db
    .selectFrom('outboxMessages')
    .select([
      'id',
      'channel',
      'campaignId',
      'toAddress',
      'fromAddress',
      'subject',
      'html',
      'text',
      'headers',
      'createdAt',
    ])
    .where('userId', '=', tenantId)
    .where('channel', '=', q.channel);
  if (q.campaignId) query = query.where('campaignId', '=', q.campaignId);
  const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
  return rows;
}
