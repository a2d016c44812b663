import { isSent } from './status.js';
import type { Insertable, Selectable } from 'kysely';
import { sql, type Channel, type Database, type Db } from '@lampstand/db';
import { conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';

// What email and SMS campaigns share: their lists, scheduling, deletion and delivery counts.

const tableOf = (channel: Channel) => sql.table(channel === 'email' ? 'email_campaigns' : 'sms_campaigns');

/** Every list must be the church's own (another church's id is simply not found). */
export async function assertTenantLists(db: Db, tenantId: number, listIds: number[]): Promise<void> {
  if (listIds.length === 0) return;
  const found = await db
    .selectFrom('contactLists')
    .select('id')
    .where('userId', '=', tenantId)
    .where('id', 'in', listIds)
    .execute();
  if (found.length !== listIds.length) throw notFound('List not found');
}

/** Queue the start of a scheduled campaign at its time (once per campaign and time). */
export async function scheduleCampaignStart(
  jobs: JobQueue,
  channel: Channel,
  row: { id: number; status: string; scheduledFor: Date | null },
): Promise<void> {
  if (row.status !== 'scheduled' || !row.scheduledFor) return;
  await jobs.send(
    'campaign-start',
    { channel, campaignId: row.id, scheduledFor: row.scheduledFor.toISOString() },
    { startAfter: row.scheduledFor, singletonKey: `start-${channel}-${row.id}-${row.scheduledFor.getTime()}` },
  );
}

/** The campaign tables by channel, as kysely names them. */
interface CampaignTables {
  email: 'emailCampaigns';
  sms: 'smsCampaigns';
}
const KYSELY_TABLE: { [C in Channel]: CampaignTables[C] } = { email: 'emailCampaigns', sms: 'smsCampaigns' };

/** What a create or edit writes: the channel table's own columns, checked against that table. */
export type CampaignValues<C extends Channel> = Omit<
  Insertable<Database[CampaignTables[C]]>,
  'id' | 'userId' | 'createdAt' | 'updatedAt'
> & { listIds: number[] };

/** The columns every channel's form sets the same way (a schedule only while it is scheduled). */
export function commonCampaignValues<S extends string>(input: {
  name: string;
  status: S;
  listIds: number[];
  scheduledFor?: string | null;
}) {
  return {
    name: input.name,
    status: input.status,
    listIds: input.listIds,
    scheduledFor: input.status === 'scheduled' && input.scheduledFor ? new Date(input.scheduledFor) : null,
  };
}

/**
 * Create (no `id`) or edit a campaign of either channel: its lists must be the church's, an edit
 * locks the row first (409 once it is sending or sent), and a scheduled campaign gets its start job.
 */
export async function saveCampaign<C extends Channel>(
  db: Db,
  jobs: JobQueue,
  channel: C,
  tenantId: number,
  values: CampaignValues<C>,
  id?: number,
): Promise<Selectable<Database[CampaignTables[C]]>> {
  await assertTenantLists(db, tenantId, values.listIds);
  // One statement for both tables: `values` was checked against the channel's columns above, the
  // casts only tell kysely which of the two tables it is.
  const table = KYSELY_TABLE[channel] as 'emailCampaigns';
  const row = await db.transaction().execute(async (trx) => {
    if (id === undefined)
      return trx
        .insertInto(table)
        .values({ userId: tenantId, ...(values as CampaignValues<'email'>) })
        .returningAll()
        .executeTakeFirstOrThrow();
    await lockEditableCampaign(trx, channel, tenantId, id);
    return trx
      .updateTable(table)
      .set({ ...(values as CampaignValues<'email'>), updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await scheduleCampaignStart(jobs, channel, row);
  return row as Selectable<Database[CampaignTables[C]]>;
}

/** Lock a campaign for an edit in `trx`; one that is sending or sent cannot change (409). */
export async function lockEditableCampaign(trx: Db, channel: Channel, tenantId: number, id: number): Promise<void> {
  const { rows } = await sql<{
    status: string;
  }>`select status from ${tableOf(channel)} where id = ${id} and user_id = ${tenantId} for update`.execute(trx);
  if (!rows[0]) throw notFound('Campaign not found');
  if (['sending', 'sent', 'failed'].includes(rows[0].status))
    throw conflict('This campaign has already been sent and can no longer be edited');
}

/** Delete a campaign with its deliveries (and their events); one that is sending must finish first. */
export async function deleteCampaign(db: Db, channel: Channel, tenantId: number, id: number): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      status: string;
    }>`select status from ${tableOf(channel)} where id = ${id} and user_id = ${tenantId} for update`.execute(trx);
    if (!rows[0]) throw notFound('Campaign not found');
    if (rows[0].status === 'sending') throw conflict('This campaign is sending; delete it when it has finished');
    await trx
      .deleteFrom('deliveries')
      .where('channel', '=', channel)
      .where('campaignId', '=', id)
      .where('userId', '=', tenantId)
      .execute();
    await sql`delete from ${tableOf(channel)} where id = ${id} and user_id = ${tenantId}`.execute(trx);
    return { id };
  });
}

export interface DeliveryProgress {
  total: number;
  sent: number;
  delivered: number;
  undelivered: number;
  failed: number;
  pending: number;
}

/** Delivery counts per campaign: sent includes delivered and undelivered (accepted by the provider). */
export async function deliveryProgress(
  db: Db,
  channel: Channel,
  ids: number[],
): Promise<Map<number, DeliveryProgress>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('deliveries')
    .select([
      'campaignId',
      sql<number>`count(*)`.as('total'),
      sql<number>`count(*) filter (where ${isSent()})`.as('sent'),
      sql<number>`count(*) filter (where status = 'delivered')`.as('delivered'),
      sql<number>`count(*) filter (where status = 'undelivered')`.as('undelivered'),
      sql<number>`count(*) filter (where status = 'failed')`.as('failed'),
      sql<number>`count(*) filter (where status in ('pending', 'sending'))`.as('pending'),
    ])
    .where('channel', '=', channel)
    .where('campaignId', 'in', ids)
    .groupBy('campaignId')
    .execute();
  return new Map(
    rows.map((r) => [
      r.campaignId!,
      {
        total: Number(r.total),
        sent: Number(r.sent),
        delivered: Number(r.delivered),
        undelivered: Number(r.undelivered),
        failed: Number(r.failed),
        pending: Number(r.pending),
      },
    ]),
  );
}
