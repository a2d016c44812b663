import { sql, type Db, type SmsCampaignsTable } from '@lampstand/db';
import type { Selectable } from 'kysely';
import { smsSegments, type SmsCampaign } from '../../schemas/sms-campaigns.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import {
  assertTenantLists,
  deleteCampaign,
  deliveryProgress,
  lockEditableCampaign,
  scheduleCampaignStart,
} from '../delivery/campaign-common.js';

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
  await assertTenantLists(db, tenantId, input.listIds);
  const row = await db
    .insertInto('smsCampaigns')
    .values({ userId: tenantId, ...values(input) })
    .returningAll()
    .executeTakeFirstOrThrow();
  await scheduleCampaignStart(jobs, 'sms', row);
  return toCampaign(row);
}

export async function updateSmsCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  id: number,
  input: SmsCampaignFields,
): Promise<SmsCampaign> {
  await assertTenantLists(db, tenantId, input.listIds);
  const row = await db.transaction().execute(async (trx) => {
    await lockEditableCampaign(trx, 'sms', tenantId, id);
    return trx
      .updateTable('smsCampaigns')
      .set({ ...values(input), updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await scheduleCampaignStart(jobs, 'sms', row);
  return toCampaign(row);
}

export function deleteSmsCampaign(db: Db, tenantId: number, id: number) {
  return deleteCampaign(db, 'sms', tenantId, id);
}

export const NO_SMS_RECIPIENTS = 'Nobody to send to: the list has no subscribed contacts with a mobile number';

/**
 * Snapshot, then deliver (the email engine's deliveries table and workers). Recipients: members of
 * the lists with an E.164 phone whose SMS consent is not unsubscribed, and children on the lists
 * through their parent's phone; one message per number.
 */
export async function startSmsCampaign(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  id: number,
  opts: { concurrency?: number; onlyIfScheduledFor?: Date } = {},
): Promise<SmsCampaign> {
  const row = await db.transaction().execute(async (trx) => {
    const c = await trx
      .selectFrom('smsCampaigns')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!c) throw notFound('Campaign not found');
    if (
      opts.onlyIfScheduledFor &&
      (c.status !== 'scheduled' || c.scheduledFor?.getTime() !== opts.onlyIfScheduledFor.getTime())
    )
      return null;
    if (!['draft', 'scheduled', 'ready'].includes(c.status)) throw conflict('This campaign has already been sent');
    if (!c.content.trim()) throw badRequest('SMS content is required');
    if (c.listIds.length === 0) throw badRequest('Please select a contact list');
    const inserted = await sql<{ n: number }>`
      with members as (
        select c.id, c.phone_e164, c.first_name, c.last_name
        from contacts c join contacts_in_lists m on m.contact_id = c.id and m.user_id = c.user_id
        where c.user_id = ${tenantId} and m.list_id = any(${c.listIds}::int[])
        union all
        select p.id, p.phone_e164, p.first_name, p.last_name
        from children_in_lists cl
        join contact_children ch on ch.id = cl.child_id and ch.user_id = cl.user_id
        join contacts p on p.id = ch.parent_contact_id and p.user_id = ch.user_id
        where cl.user_id = ${tenantId} and cl.list_id = any(${c.listIds}::int[])
      ), recipients as (
        select distinct on (r.phone_e164) r.*
        from members r
        join contacts c on c.id = r.id
        where r.phone_e164 is not null and c.sms_consent = 'subscribed'
          and not exists (
            select 1 from contacts u where u.user_id = ${tenantId} and u.phone_e164 = r.phone_e164 and u.sms_consent = 'unsubscribed'
          )
        order by r.phone_e164, r.id
      ), ins as (
        insert into deliveries (user_id, channel, campaign_id, contact_id, address, first_name, last_name, token)
        select ${tenantId}, 'sms', ${id}, r.id, r.phone_e164, r.first_name, r.last_name,
               replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
        from recipients r
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`.execute(trx);
    const count = Number(inserted.rows[0]?.n ?? 0);
    if (count === 0) throw badRequest(NO_SMS_RECIPIENTS);
    return trx
      .updateTable('smsCampaigns')
      .set({ status: 'sending', startedAt: new Date(), recipientCount: count, error: null, updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  if (!row) return getSmsCampaign(db, tenantId, id);
  for (let i = 0; i < Math.max(1, opts.concurrency ?? 2); i++)
    await jobs.send('campaign-deliver', { channel: 'sms', campaignId: id });
  return toCampaign(row, {
    total: row.recipientCount,
    sent: 0,
    delivered: 0,
    undelivered: 0,
    failed: 0,
    pending: row.recipientCount,
  });
}
