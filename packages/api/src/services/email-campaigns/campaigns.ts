import { sql, type Db, type EmailCampaignsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { EmailCampaign, EmailStats } from '../../schemas/email-campaigns.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { sanitizeEmailHtml } from './sanitize.js';
import {
  assertTenantLists,
  deleteCampaign,
  deliveryProgress,
  lockEditableCampaign,
  scheduleCampaignStart,
} from '../delivery/campaign-common.js';

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

export async function createEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: EmailCampaignFields,
): Promise<EmailCampaign> {
  await assertTenantLists(db, tenantId, input.listIds);
  const row = await db
    .insertInto('emailCampaigns')
    .values({
      userId: tenantId,
      name: input.name,
      subject: input.subject,
      content: sanitizeEmailHtml(input.content),
      status: input.status,
      listIds: input.listIds,
      scheduledFor: input.status === 'scheduled' && input.scheduledFor ? new Date(input.scheduledFor) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await scheduleCampaignStart(jobs, 'email', row);
  return toCampaign(row);
}

export async function updateEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  id: number,
  input: EmailCampaignFields,
): Promise<EmailCampaign> {
  await assertTenantLists(db, tenantId, input.listIds);
  const row = await db.transaction().execute(async (trx) => {
    await lockEditableCampaign(trx, 'email', tenantId, id);
    return trx
      .updateTable('emailCampaigns')
      .set({
        name: input.name,
        subject: input.subject,
        content: sanitizeEmailHtml(input.content),
        status: input.status,
        listIds: input.listIds,
        scheduledFor: input.status === 'scheduled' && input.scheduledFor ? new Date(input.scheduledFor) : null,
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await scheduleCampaignStart(jobs, 'email', row);
  return toCampaign(row);
}

/** Deleting a campaign removes its deliveries and their tracking events. One that is sending must finish first. */
export function deleteEmailCampaign(db: Db, tenantId: number, id: number) {
  return deleteCampaign(db, 'email', tenantId, id);
}

export const NO_RECIPIENTS = 'Nobody to send to: the list has no subscribed contacts with an email address';

/**
 * Send = snapshot, then deliver. In one transaction: check the campaign can be sent, write one
 * delivery per recipient (members of its lists with an email address whose email consent is not
 * unsubscribed, one per address), and mark it sending. Then queue the workers.
 */
export async function startEmailCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  id: number,
  opts: { concurrency?: number; onlyIfScheduledFor?: Date } = {},
): Promise<EmailCampaign> {
  const row = await db.transaction().execute(async (trx) => {
    const c = await trx
      .selectFrom('emailCampaigns')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!c) throw notFound('Campaign not found');
    if (
      opts.onlyIfScheduledFor &&
      (c.status !== 'scheduled' || c.scheduledFor?.getTime() !== opts.onlyIfScheduledFor.getTime())
    ) {
      return null; // rescheduled, sent or back to draft meanwhile
    }
    if (c.status !== 'draft' && c.status !== 'scheduled') throw conflict('This campaign has already been sent');
    if (!c.subject.trim()) throw badRequest('Subject is required');
    if (!c.content.trim()) throw badRequest('Email content is required');
    if (c.listIds.length === 0) throw badRequest('Please select a contact list');

    const inserted = await sql<{ n: number }>`
      with recipients as (
        select distinct on (lower(c.email)) c.id, c.email, c.first_name, c.last_name
        from contacts c
        join contacts_in_lists m on m.contact_id = c.id and m.user_id = c.user_id
        where c.user_id = ${tenantId}
          and m.list_id = any(${c.listIds}::int[])
          and c.email is not null and c.email <> ''
          and c.email_consent = 'subscribed'
          -- the address's owner unsubscribed through any of the church's contacts with it
          and not exists (
            select 1 from contacts u
            where u.user_id = c.user_id and lower(u.email) = lower(c.email) and u.email_consent = 'unsubscribed'
          )
        order by lower(c.email), c.id
      ), ins as (
        insert into deliveries (user_id, channel, campaign_id, contact_id, address, first_name, last_name, token)
        select ${tenantId}, 'email', ${id}, r.id, r.email, r.first_name, r.last_name,
               replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
        from recipients r
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`.execute(trx);
    const count = Number(inserted.rows[0]?.n ?? 0);
    if (count === 0) throw badRequest(NO_RECIPIENTS);
    return trx
      .updateTable('emailCampaigns')
      .set({ status: 'sending', startedAt: new Date(), recipientCount: count, error: null, updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  if (!row) return getEmailCampaign(db, tenantId, id);
  const workers = Math.max(1, opts.concurrency ?? 2);
  for (let i = 0; i < workers; i++) await jobs.send('campaign-deliver', { channel: 'email', campaignId: id });
  return toCampaign(row, { total: row.recipientCount, sent: 0, failed: 0, pending: row.recipientCount });
}

export async function emailCampaignStats(db: Db, tenantId: number, id: number): Promise<EmailStats> {
  await getRow(db, tenantId, id);
  const r = await db
    .selectFrom('deliveries as d')
    .select([
      sql<number>`count(*)`.as('recipients'),
      sql<number>`count(*) filter (where d.status in ('sent', 'delivered', 'undelivered'))`.as('sent'),
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
