import { isSent } from '../delivery/status.js';
import { sql, type Db, type EmailCampaignsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { EmailCampaign, EmailStats } from '../../schemas/email-campaigns.js';
import { notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { sanitizeEmailHtml } from './sanitize.js';
import { deliveryProgress, saveCampaign } from '../delivery/campaign-common.js';

type Row = Selectable<EmailCampaignsTable>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

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

function toCampaign(r: Row, progress?: EmailCampaign['progress']): EmailCampaign {
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    subject: r.subject,
    content: r.content,
    status: r.status,
    listIds: r.listIds ?? [],
    scheduledFor: iso(r.scheduledFor),
    startedAt: iso(r.startedAt),
    sentAt: iso(r.sentAt),
    recipientCount: r.recipientCount,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
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
  const row = await db
    .selectFrom('emailCampaigns')
    .selectAll()
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Campaign not found');
  return row;
}

export async function getEmailCampaign(db: Db, tenantId: number, id: number): Promise<EmailCampaign> {
  const row = await getRow(db, tenantId, id);
  return toCampaign(row, (await progressOf(db, [id])).get(id));
}

const values = (input: EmailCampaignFields) => ({
  name: input.name,
  subject: input.subject,
  content: sanitizeEmailHtml(input.content),
  status: input.status,
  listIds: input.listIds,
  scheduledFor: input.status === 'scheduled' && input.scheduledFor ? new Date(input.scheduledFor) : null,
});

export async function createEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: EmailCampaignFields,
): Promise<EmailCampaign> {
  const row = await saveCampaign(db, jobs, 'email', tenantId, {
    listIds: input.listIds,
    write: (trx) =>
      trx
        .insertInto('emailCampaigns')
        .values({ userId: tenantId, ...values(input) })
        .returningAll()
        .executeTakeFirstOrThrow(),
  });
  return toCampaign(row);
}

export async function updateEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: EmailCampaignFields & { id: number },
): Promise<EmailCampaign> {
  const row = await saveCampaign(db, jobs, 'email', tenantId, {
    id: input.id,
    listIds: input.listIds,
    write: (trx) =>
      trx
        .updateTable('emailCampaigns')
        .set({ ...values(input), updatedAt: new Date() })
        .where('id', '=', input.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
  });
  return toCampaign(row);
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
