import { sql, type Channel, type Db } from '@lampstand/db';
import type { RawBuilder } from 'kysely';
import type { EmailTransport } from '../../providers/email.js';
import type { SmsTransport } from '../../providers/sms.js';
import type { JobQueue } from '../../jobs.js';
import type { DeliveryConfig } from './config.js';
import type { ChannelDriver, Delivery } from './engine.js';
import { recordEvent } from '../events/record.js';

/** Everything the sending side of any channel may need. */
export interface DeliveryDeps {
  db: Db;
  jobs: JobQueue;
  config: DeliveryConfig;
  email: EmailTransport;
  sms: SmsTransport;
}

/** A campaign row as the generic start reads it (the channel's own columns are in `fields`). */
export interface CampaignRow {
  id: number;
  userId: number;
  status: string;
  scheduledFor: Date | null;
  listIds: number[];
  /** The row as stored, for the channel's own checks (subject, content, ...). */
  fields: Record<string, unknown>;
}

/** A campaign being sent, as each channel's `send` reads it. */
export interface SendingCampaign {
  id: number;
  userId: number;
  content: string;
  churchName: string;
  postalAddress: string | null;
  /** The church's own sending number, if it has one. */
  smsFromNumber: string | null;
  /** The row as stored, for the channel's own columns (subject, ...). */
  fields: Record<string, unknown>;
}

/** A text column of a row read as `Record<string, unknown>` ('' when absent). */
export const textField = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * One entry per channel: what is different about email, SMS (and the channels to come) when a
 * campaign is started and delivered. Everything else — locking, scheduling, snapshotting into
 * `deliveries`, claiming, retries, the sweep — is the one engine's.
 */
export interface CampaignChannel {
  channel: Channel;
  /** The campaigns table (snake_case, for raw SQL). */
  table: string;
  /** Statuses a send may start from. */
  startable: readonly string[];
  /** Throws a bad-request AppError when the campaign lacks what a send needs. */
  validate(c: CampaignRow): void;
  /**
   * Who a campaign to these lists reaches, one row per address (columns: id, address, first_name,
   * last_name). The start snapshots exactly these; the confirmation before a send counts them.
   */
  recipients(tenantId: number, listIds: number[]): RawBuilder<unknown>;
  /** The message when nobody can be reached. */
  noRecipients: string;
  /** Messages per second across every worker (undefined: no limit), and in flight per process. */
  pace(config: DeliveryConfig): { ratePerSecond?: number; concurrency: number };
  /** Make one recipient's message and hand it to the provider. */
  send(deps: DeliveryDeps, campaign: SendingCampaign, delivery: Delivery): Promise<{ providerMessageId: string }>;
}

/** The engine's driver of a channel: the campaign while it is sending, and the channel's send. */
export function channelDriver(ch: CampaignChannel, deps: DeliveryDeps): ChannelDriver<SendingCampaign> {
  return {
    channel: ch.channel,
    ...ch.pace(deps.config),
    async finish(campaignId, outcome) {
      await deps.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ userId: number; name: string; recipientCount: number }>`
          update ${sql.table(ch.table)}
          set status = ${outcome}, sent_at = now(), updated_at = now(),
              error = ${outcome === 'failed' ? 'No message could be delivered' : null}
          where id = ${campaignId} and status = 'sending'
          returning user_id, name, recipient_count`.execute(trx);
        const c = rows[0];
        if (!c || outcome !== 'sent') return;
        await recordEvent(trx, c.userId, {
          type: 'campaign.sent',
          payload: {
            campaign: { id: campaignId, name: c.name },
            channel: ch.channel,
            recipients: Number(c.recipientCount),
          },
        });
      });
    },
    campaignRef: (c) => ({ id: c.id, name: textField(c.fields.name) }),
    async load(campaignId) {
      const { rows } = await sql<Record<string, unknown>>`
        select c.*, u.church_name, s.postal_address, s.sms_from_number
        from ${sql.table(ch.table)} c
        join users u on u.id = c.user_id
        left join church_settings s on s.user_id = c.user_id
        where c.id = ${campaignId} and c.status = 'sending'`.execute(deps.db);
      const r = rows[0];
      if (!r) return null;
      return {
        id: Number(r.id),
        userId: Number(r.userId),
        content: textField(r.content),
        churchName: textField(r.churchName),
        postalAddress: (r.postalAddress as string | null) ?? null,
        smsFromNumber: (r.smsFromNumber as string | null) ?? null,
        fields: r,
      };
    },
    send: (campaign, delivery) => ch.send(deps, campaign, delivery),
  };
}

/**
 * Runs a statement over a whole recipients query (the snapshot, the count before a send) with
 * nested-loop joins off, in a transaction (`trx`'s own when it is one). Such a statement reads
 * every member of the lists, for which hash joins are right at any size; but right after a large
 * import the planner's statistics still say the church has almost no contacts (autovacuum analyzes
 * within a minute or so), and its nested loop then compared every member with every contact:
 * 94 s for 20,000 people, against 0.5 s (2.8 s for 100,000) with hash joins. The setting is put
 * back before returning, so the rest of the transaction plans as usual.
 */
export async function withRecipientsPlan<T>(db: Db, run: (trx: Db) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return db.transaction().execute((trx) => withRecipientsPlan(trx, run));
  await sql`set local enable_nestloop = off`.execute(db);
  const result = await run(db);
  await sql`set local enable_nestloop to default`.execute(db);
  return result;
}

/** Inside the start transaction: one delivery row per recipient of the channel; returns how many. */
export async function insertDeliveries(trx: Db, ch: CampaignChannel, c: CampaignRow): Promise<number> {
  const recipients = ch.recipients(c.userId, c.listIds);
  const inserted = await withRecipientsPlan(trx, (db) =>
    sql<{ n: number }>`
    with recipients as (${recipients}), ins as (
      insert into deliveries (user_id, channel, campaign_id, contact_id, address, first_name, last_name, token)
      select ${c.userId}, ${ch.channel}, ${c.id}, r.id, r.address, r.first_name, r.last_name,
             replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
      from recipients r
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from ins`.execute(db),
  );
  return Number(inserted.rows[0]?.n ?? 0);
}
