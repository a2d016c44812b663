import { type Db, type SmsCampaignsTable } from '@lampstand/db';
import type { z } from 'zod';
import type { Selectable } from 'kysely';
import { type smsCampaignSchema } from '../../schemas/sms-campaigns.js';
import { smsSegments } from '../../shared/sms.js';
import type { JobQueue } from '../../jobs.js';
import {
  commonCampaignValues,
  deliveryProgress,
  saveCampaign,
  type CampaignValues,
} from '../delivery/campaign-common.js';
import { findChurchRow } from '../church-rows.js';

type Row = Selectable<SmsCampaignsTable>;

export interface SmsCampaignFields {
  name: string;
  content: string;
  status: 'draft' | 'scheduled' | 'ready';
  listIds: number[];
  scheduledFor?: string | null;
}

const progressOf = (db: Db, ids: number[]) => deliveryProgress(db, 'sms', ids);

function toCampaign(
  r: Row,
  progress?: z.input<typeof smsCampaignSchema>['progress'],
): z.input<typeof smsCampaignSchema> {
  const seg = smsSegments(r.content);
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    content: r.content,
    status: r.status,
    listIds: (r.listIds ?? []).map(String),
    scheduledFor: r.scheduledFor,
    startedAt: r.startedAt,
    sentAt: r.sentAt,
    recipientCount: r.recipientCount,
    error: r.error,
    segments: seg.segments,
    encoding: seg.encoding,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    progress: progress ?? { total: r.recipientCount, sent: 0, delivered: 0, undelivered: 0, failed: 0, pending: 0 },
  };
}

export async function listSmsCampaigns(db: Db, tenantId: number): Promise<z.input<typeof smsCampaignSchema>[]> {
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

export async function getSmsCampaign(db: Db, tenantId: number, id: number): Promise<z.input<typeof smsCampaignSchema>> {
  const row = await findChurchRow(db, tenantId, { table: 'smsCampaigns', id: id, missing: 'Campaign not found' });
  return toCampaign(row, (await progressOf(db, [id])).get(id));
}

const values = (input: SmsCampaignFields): CampaignValues<'sms'> => ({
  ...commonCampaignValues(input),
  content: input.content,
});

/** Create a campaign (no `id`) or edit one. */
export async function saveSmsCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: SmsCampaignFields & { id?: number },
): Promise<z.input<typeof smsCampaignSchema>> {
  return toCampaign(await saveCampaign(db, jobs, 'sms', tenantId, values(input), input.id));
}
