import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';

/**
 * The members' portal's messages (a sign-in link or code, a change's confirmation) as deliveries of
 * kind 'portal' of the one engine, grouped by church: the request that asks for one
 * writes it in its transaction and answers at once; the 'portal-deliver' job sends it (the contact
 * rule, claim, retries, `email.sent`). The text waits in `portal_messages` (it holds the one-time
 * link or code) and is deleted once its delivery is sent or failed.
 */
export const PORTAL_DELIVERIES: DeliveryGroup = { kind: 'portal', column: 'user_id' };

/** One portal message: email has a subject and HTML, a text only its text. */
export interface PortalMessage {
  channel: 'email' | 'sms';
  address: string;
  subject?: string;
  html?: string;
  text: string;
}

/**
 * Inside the caller's transaction: the message's delivery and its text, written only when `when`
 * (SQL, e.g. 'the address is a contact's') holds; one statement either way, so a request for an
 * unknown address does the same database work as one for a known address.
 */
export async function queuePortalMessage(
  trx: Db,
  tenantId: number,
  m: PortalMessage,
  when: ReturnType<typeof sql<boolean>> = sql<boolean>`true`,
): Promise<void> {
  await sql`
    with d as (
      insert into deliveries (user_id, kind, channel, address, token)
      select ${tenantId}, 'portal', ${m.channel}, ${m.address}, ${crypto.randomBytes(24).toString('hex')}
      where ${when}
      returning id
    )
    insert into portal_messages (delivery_id, user_id, subject, html, text)
    select d.id, ${tenantId}, ${m.subject ?? null}, ${m.html ?? null}, ${m.text} from d`.execute(trx);
}

interface PortalChurchRow {
  id: number;
  churchName: string;
}

/** A permanent failure: trying again cannot help. */
const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/** The engine's driver of a church's portal messages on one channel. */
export function portalMessageDriver(deps: DeliveryDeps, channel: 'email' | 'sms'): ChannelDriver<PortalChurchRow> {
  const { db, email, sms, config } = deps;
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel,
    group: PORTAL_DELIVERIES,
    ...(channel === 'email'
      ? { ratePerSecond: config.emailRatePerSecond, concurrency: Math.min(config.emailConcurrency, 4) }
      : { ratePerSecond: config.smsRatePerSecond, concurrency: Math.min(config.smsConcurrency, 4) }),
    async load(userId) {
      const row = await db.selectFrom('users').select(['id', 'churchName']).where('id', '=', userId).executeTakeFirst();
      return row ?? null;
    },
    async send(church, d) {
      const m = await db
        .selectFrom('portalMessages')
        .select(['subject', 'html', 'text'])
        .where('deliveryId', '=', d.id)
        .executeTakeFirst();
      if (!m) throw permanent('The message is gone');
      const meta = { userId: church.id, deliveryId: d.id };
      if (channel === 'sms') return sms.send({ to: d.address, from: config.smsFromNumber, body: m.text, meta });
      return email.send({
        from: formatFrom(church.churchName, config.emailFrom),
        onBehalfOf: church.id,
        to: d.address,
        subject: m.subject ?? '',
        html: m.html ?? '',
        text: m.text,
        headers: {},
        messageId: `portal-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta,
      });
    },
    // The one-time links and codes are not kept once their message went out (or never will).
    async finish(userId) {
      await sql`
        delete from portal_messages m using deliveries d
        where d.id = m.delivery_id and m.user_id = ${userId} and d.kind = 'portal' and d.channel = ${channel}
          and d.status not in ('pending', 'sending')`.execute(db);
    },
  };
}

/** The 'portal-deliver' job: send a church's pending portal messages; come back for retries. */
const PORTAL_JOB = { name: 'portal-deliver', payload: (userId: number) => ({ userId }) } as const;

export async function deliverPortalMessages(deps: DeliveryDeps, userId: number): Promise<RunResult[]> {
  return deliverGroup(deps, [portalMessageDriver(deps, 'email'), portalMessageDriver(deps, 'sms')], userId, PORTAL_JOB);
}

/** Part of the delivery sweep: churches whose portal messages a dead worker (or a lost job) left. */
export async function sweepPortalMessages(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, PORTAL_DELIVERIES, PORTAL_JOB, opts);
}
