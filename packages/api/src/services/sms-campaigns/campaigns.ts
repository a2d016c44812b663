import { type Db, type SmsCampaignsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import { smsSegments, type SmsCampaign } from '../../schemas/sms-campaigns.js';
import { notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { deliveryProgress, saveCampaign } from '../delivery/campaign-common.js';

type Row = Selectable<SmsCampaignsTable>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export interface SmsCampaignFields {
  name: string;
  content: string;
  status: 'draft' | 'scheduled' | 'ready';
  listIds: number[];
  scheduledFor?: string | null;
}

const progressOf = (db: Db, ids: number[]) => deliveryProgress(db, 'sms', ids);

function toCampaign(r: Row, progress?: SmsCampaign['progress']): SmsCampaign {
  const seg = smsSegments(r.content);
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    content: r.content,
    status: r.status,
    listIds: (r.listIds ?? []).map(String),
    scheduledFor: iso(r.scheduledFor),
    startedAt: iso(r.startedAt),
    sentAt: iso(r.sentAt),
    recipientCount: r.recipientCount,
    error: r.error,
    segments: seg.segments,
    encoding: seg.encoding,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    progress: progress ?? { total: r.recipientCount, sent: 0, delivered: 0, undelivered: 0, failed: 0, pending: 0 },
  };
}

export async function listSmsCampaigns(db: Db, tenantId: number): Promise<SmsCampaign[]> {
  const rows = await db
    .selectFrom('smsCampaigns')
    .selectAll()
    .where('userId', '=', tenantId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const progress = await progressOf(
    db,
    rows.filter((r) => ['sending', 'sent', 'failed'].includes(r.status)).map((r) => r.id),
  );
  return rows.map((r) => toCampaign(r, progress.get(r.id)));
}

export async function getSmsCampaign(db: Db, tenantId: number, id: number): Promise<SmsCampaign> {
  const row = await db
    .selectFrom('smsCampaigns')
    .selectAll()
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Campaign not found');
  return toCampaign(row, (await progressOf(db, [id])).get(id));
}

const values = (input: SmsCampaignFields) => ({
  name: input.name,
  content: input.content,
  status: input.status,
  listIds: input.listIds,
  scheduledFor: input.status === 'scheduled' && input.scheduledFor ? new Date(input.scheduledFor) : null,
});

export async function createSmsCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: SmsCampaignFields,
): Promise<SmsCampaign> {
  const row = await saveCampaign(db, jobs, 'sms', tenantId, {
    listIds: input.listIds,
    write: (trx) =>
      trx
        .insertInto('smsCampaigns')
        .values({ userId: tenantId, ...values(input) })
        .returningAll()
        .executeTakeFirstOrThrow(),
  });
  return toCampaign(row);
}

export async function updateSmsCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: SmsCampaignFields & { id: number },
): Promise<SmsCampaign> {
  const row = await saveCampaign(db, jobs, 'sms', tenantId, {
    id: input.id,
    listIds: input.listIds,
    write: (trx) =>
      trx
        .updateTable('smsCampaigns')
        .set({ ...values(input), updatedAt: new Date() })
        .where('id', '=', input.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
  });
  return toCampaign(row);
}
