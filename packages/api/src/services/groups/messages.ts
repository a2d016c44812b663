import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { GroupMessageInput, GroupMessageResult } from '../../schemas/groups-people.js';
import type { ConversationMessage } from '../../schemas/conversations.js';
import { escapeHtml } from '../../render/html.js';
import { tooManyRequests } from '../../errors.js';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { findChurchRow } from '../church-rows.js';
import { GROUP_MISSING } from './groups.js';

/**
 * A leader's (or staff's) message to a group's current members, by email or text: one
 * `group_messages` row and a delivery of kind 'group-message' of the one engine per member and
 * address, grouped by church. The engine asks the contact rule of each just before its send
 * (operational: a member who unsubscribed from the channel, a suppressed address or a number that
 * texted STOP is skipped with the reason; a text waits out quiet hours). The email's sender name is
 * the leader's, and a reply goes to the leader's address; a text begins with the leader's name, and
 * a reply to it reaches the church's conversations like a reply to any text the church sent.
 */
export const GROUP_MESSAGES: DeliveryGroup = { kind: 'group-message', column: 'user_id' };

/** Messages a group may be sent in a day (a leader's slip of the thumb, or a stolen session). */
const PER_GROUP_PER_DAY = 10;

export interface GroupMessageDeps {
  db: Db;
  jobs: { send(name: 'group-message-deliver', data: { userId: number }): Promise<unknown> };
}

export async function sendGroupMessage(
  deps: GroupMessageDeps,
  tenantId: number,
  input: GroupMessageInput & { sender: { contactId: number | null; name: string } },
): Promise<GroupMessageResult> {
  const { db } = deps;
  const result = await db.transaction().execute(async (trx) => {
    const group = await findChurchRow(trx, tenantId, {
      table: 'groups',
      id: input.id,
      missing: GROUP_MISSING,
      columns: ['id', 'name'],
      forUpdate: true,
    });
    const today = await trx
      .selectFrom('groupMessages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('groupId', '=', group.id)
      .where('createdAt', '>', sql<Date>`now() - interval '1 day'`)
      .executeTakeFirstOrThrow();
    if (Number(today.n) >= PER_GROUP_PER_DAY)
      throw tooManyRequests(`This group has had ${PER_GROUP_PER_DAY} messages today. Please try again tomorrow.`);
    const message = await trx
      .insertInto('groupMessages')
      .values({
        userId: tenantId,
        groupId: group.id,
        senderContactId: input.sender.contactId,
        senderName: input.sender.name,
        channel: input.channel,
        subject: input.channel === 'email' ? (input.subject ?? null) : null,
        body: input.body,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const members = await trx
      .selectFrom('groupMembers as m')
      .innerJoin('contacts as c', 'c.id', 'm.contactId')
      .select(['c.id', 'c.firstName', 'c.lastName', 'c.email', 'c.phoneE164'])
      .where('m.userId', '=', tenantId)
      .where('m.groupId', '=', group.id)
      .where('m.leftOn', 'is', null)
      .$if(input.sender.contactId !== null, (q) => q.where('c.id', '<>', input.sender.contactId!))
      .orderBy('c.id')
      .execute();
    const addressOf = (c: (typeof members)[number]) =>
      (input.channel === 'email' ? c.email?.trim().toLowerCase() : c.phoneE164) || null;
    const reached = members.filter((c) => addressOf(c));
    const rows = reached.length
      ? await trx
          .insertInto('deliveries')
          .values(
            reached.map((c) => ({
              userId: tenantId,
              kind: 'group-message' as const,
              channel: input.channel,
              groupMessageId: message.id,
              contactId: c.id,
              address: addressOf(c)!,
              firstName: c.firstName,
              lastName: c.lastName,
              token: crypto.randomBytes(24).toString('hex'),
            })),
          )
          // Two members with one address (a couple sharing an email) get one message.
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .execute()
      : [];
    return {
      id: message.id,
      queued: rows.length,
      withoutAddress: members
        .filter((c) => !addressOf(c))
        .map((c) => `${c.firstName} ${c.lastName}`.trim() || `Contact ${c.id}`),
    };
  });
  if (result.queued > 0) await deps.jobs.send('group-message-deliver', { userId: tenantId });
  return result;
}

interface Church {
  id: number;
  churchName: string;
  smsFromNumber: string | null;
}

/** A permanent failure: trying again cannot help. */
const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/** The engine's driver of a church's group messages on one channel. */
export function groupMessageDriver(deps: DeliveryDeps, channel: 'email' | 'sms'): ChannelDriver<Church> {
  const { db, email, sms, config } = deps;
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel,
    group: GROUP_MESSAGES,
    ...(channel === 'email'
      ? { ratePerSecond: config.emailRatePerSecond, concurrency: Math.min(config.emailConcurrency, 4) }
      : { ratePerSecond: config.smsRatePerSecond, concurrency: Math.min(config.smsConcurrency, 4) }),
    async load(userId) {
      const row = await db
        .selectFrom('users as u')
        .leftJoin('churchSettings as s', 's.userId', 'u.id')
        .select(['u.id', 'u.churchName', 's.smsFromNumber'])
        .where('u.id', '=', userId)
        .executeTakeFirst();
      return row ?? null;
    },
    async send(church, d) {
      const m = await db
        .selectFrom('groupMessages as m')
        .innerJoin('groups as g', 'g.id', 'm.groupId')
        .leftJoin('contacts as c', 'c.id', 'm.senderContactId')
        .select(['m.senderName', 'm.subject', 'm.body', 'g.name as groupName', 'c.email as senderEmail'])
        .where('m.id', '=', d.groupMessageId!)
        .executeTakeFirst();
      if (!m) throw permanent('The message was deleted');
      const meta = { userId: church.id, deliveryId: d.id };
      if (channel === 'sms')
        return sms.send({
          to: d.address,
          from: church.smsFromNumber || config.smsFromNumber,
          body: `${m.senderName} (${m.groupName}): ${m.body}`,
          statusCallback: `${config.publicUrl}/api/sms/status`,
          meta,
        });
      const footer = `You are getting this as a member of ${m.groupName} at ${church.churchName}.`;
      const paragraphs = m.body.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
      return email.send({
        from: formatFrom(m.senderName, config.emailFrom),
        ...(m.senderEmail ? { replyTo: m.senderEmail } : {}),
        onBehalfOf: church.id,
        to: d.address,
        subject: m.subject ?? m.groupName,
        html: `${paragraphs.join('')}<p style="color:#6b7280;font-size:12px">${escapeHtml(footer)}</p>`,
        text: `${m.body}\n\n${footer}`,
        headers: {},
        messageId: `group-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta,
      });
    },
    async finish() {},
  };
}

/** The 'group-message-deliver' job: send a church's pending group messages; come back for retries. */
const GROUP_MESSAGE_JOB = { name: 'group-message-deliver', payload: (userId: number) => ({ userId }) } as const;

export async function deliverGroupMessages(deps: DeliveryDeps, userId: number): Promise<RunResult[]> {
  return deliverGroup(
    deps,
    [groupMessageDriver(deps, 'email'), groupMessageDriver(deps, 'sms')],
    userId,
    GROUP_MESSAGE_JOB,
  );
}

/** Part of the delivery sweep: churches whose group messages a dead worker (or a lost job) left. */
export async function sweepGroupMessages(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, GROUP_MESSAGES, GROUP_MESSAGE_JOB, opts);
}

/** Group leaders' texts sent to a number, for its conversation's timeline (as the person read them). */
export async function groupTexts(db: Db, tenantId: number, phone: string): Promise<ConversationMessage[]> {
  const rows = await db
    .selectFrom('deliveries as d')
    .innerJoin('groupMessages as m', 'm.id', 'd.groupMessageId')
    .innerJoin('groups as g', 'g.id', 'm.groupId')
    .select(['d.id', 'd.status', 'd.sentAt', 'm.senderName', 'm.body', 'g.name'])
    .where('d.userId', '=', tenantId)
    .where('d.kind', '=', 'group-message')
    .where('d.channel', '=', 'sms')
    .where('d.address', '=', phone)
    .where('d.sentAt', 'is not', null)
    .orderBy('d.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((d) => ({
    key: `group-${d.id}`,
    direction: 'outbound' as const,
    kind: 'group' as const,
    body: `${d.senderName} (${d.name}): ${d.body}`,
    at: new Date(d.sentAt!).toISOString(),
    keyword: null,
    status: d.status,
    campaignName: null,
    journeyName: null,
    groupName: d.name,
  }));
}
