import { isSent } from '../delivery/status.js';
import type { z } from 'zod';
import { sql, type Db, type EmailCampaignsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { emailCampaignSchema, EmailStats } from '../../schemas/email-campaigns.js';
import type { JobQueue } from '../../jobs.js';
import { sanitizeEmailHtml } from './sanitize.js';
import {
  commonCampaignValues,
  deliveryProgress,
  saveCampaign,
  type CampaignValues,
} from '../delivery/campaign-common.js';
import { findChurchRow } from '../church-rows.js';

type Row = Selectable<EmailCampaignsTable>;

export interface EmailCampaignFields {
  name: string;
  subject: string;
  content: string;
  status: 'draft' | 'scheduled';
  listIds: number[];
  scheduledFor?: string | null;
}

async function progressOf(db: Db, ids: number[]) {
  const all = await deliveryProgress(db, 'email', ids);
  return new Map(
    [...all].map(([id, p]) => [id, { total: p.total, sent: p.sent, failed: p.failed, pending: p.pending }]),
  );
}

function toCampaign(
  r: Row,
  progress?: z.input<typeof emailCampaignSchema>['progress'],
): z.input<typeof emailCampaignSchema> {
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    subject: r.subject,
    content: r.content,
    status: r.status,
    listIds: r.listIds ?? [],
    scheduledFor: r.scheduledFor,
    startedAt: r.startedAt,
    sentAt: r.sentAt,
    recipientCount: r.recipientCount,
    error: r.error,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    progress: progress ?? { total: r.recipientCount, sent: 0, failed: 0, pending: 0 },
  };
}

export async function listEmailCampaigns(
  db: Db,
  tenantId: number,
  opts: { status: 'all' | 'draft' | 'scheduled' | 'sent' },
) {
  let q = db.selectFrom('emailCampaigns').selectAll().where('userId', '=', tenantId);
  if (opts.status === 'draft') q = q.where('status', '=', 'draft');
  if (opts.status === 'scheduled') q = q.where('status', '=', 'scheduled');
  if (opts.status === 'sent') q = q.where('status', 'in', ['sending', 'sent', 'failed']);
  const rows = await q.orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  const progress = await progressOf(
    db,
    rows.filter((r) => r.status !== 'draft' && r.status !== 'scheduled').map((r) => r.id),
  );
  return rows.map((r) => toCampaign(r, progress.get(r.id)));
}

async function getRow(db: Db, tenantId: number, id: number): Promise<Row> {
  const row = await findChurchRow(db, tenantId, { table: 'emailCampaigns', id: id, missing: 'Campaign not found' });
  return row;
}

export async function getEmailCampaign(
  db: Db,
  tenantId: number,
  id: number,
): Promise<z.input<typeof emailCampaignSchema>> {
  const row = await getRow(db, tenantId, id);
  return toCampaign(row, (await progressOf(db, [id])).get(id));
}

const values = (input: EmailCampaignFields): CampaignValues<'email'> => ({
  ...commonCampaignValues(input),
  subject: input.subject,
  content: sanitizeEmailHtml(input.content),
});

/** Create a campaign (no `id`) or edit one. */
export async function saveEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: EmailCampaignFields & { id?: number },
): Promise<z.input<typeof emailCampaignSchema>> {
  return toCampaign(await saveCampaign(db, jobs, 'email', tenantId, values(input), input.id));
}

export async function emailCampaignStats(db: Db, tenantId: number, id: number): Promise<EmailStats> {
  await getRow(db, tenantId, id);
  const r = await db
    .selectFrom('deliveries as d')
    .select([
      sql<number>`count(*)`.as('recipients'),
      sql<number>`count(*) filter (where ${isSent('d.status')})`.as('sent'),
      sql<number>`count(*) filter (where d.status = 'failed' or exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type = 'bounce'))`.as(
        'bounced',
      ),
      sql<number>`count(*) filter (where exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type in ('open', 'click')))`.as(
        'opened',
      ),
      sql<number>`count(*) filter (where exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type = 'click'))`.as(
        'clicked',
      ),
      sql<number>`count(*) filter (where exists (select 1 from delivery_events e where e.delivery_id = d.id and e.type = 'unsubscribe'))`.as(
        'unsubscribed',
      ),
    ])
    .where('d.channel', '=', 'email')
    .where('d.campaignId', '=', id)
    .where('d.userId', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    recipients: Number(r.recipients),
    sent: Number(r.sent),
    opened: Number(r.opened),
    clicked: Number(r.clicked),
    bounced: Number(r.bounced),
    unsubscribed: Number(r.unsubscribed),
  };
}
