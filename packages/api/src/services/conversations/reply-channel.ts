import { sql } from '@lampstand/db';
import { skipReasonSql } from '../delivery/contact-rule.js';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';

/**
 * Staff replies in a conversation as an entry of the one delivery engine: the
 * deliveries of kind 'conversation-reply' of one conversation are claimed, paced (the SMS rate
 * slot and in-flight limit), retried, fenced and recorded (`sms.sent`) exactly like a campaign's.
 * They were counted against the daily limit when written (`sendReply`). A reply is an answer to the
 * person (`DELIVERY_KIND_RULES`): quiet hours do not hold it.
 */
export const CONVERSATION_REPLIES: DeliveryGroup = { kind: 'conversation-reply', column: 'conversation_id' };

interface ConversationForReplies {
  id: number;
  userId: number;
  fromNumber: string | null;
}

/** A permanent failure: trying again cannot help. */
const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/**
 * True when the person has opted out of the church's texts (the contact rule's STOP: any of the
 * church's contacts with the number unsubscribed; with no contact, their newest STOP/START text was
 * a STOP). `userId` and `phone` are values or column references (`sql.ref('c.user_id')`).
 */
export function optedOutSql(userId: unknown, phone: unknown) {
  return sql<boolean>`(${skipReasonSql(userId, { channel: 'sms', purpose: 'operational' }, phone)}) is not null`;
}

/** The engine's driver of a conversation's replies. */
export function conversationReplyDriver(deps: DeliveryDeps): ChannelDriver<ConversationForReplies> {
  const { db, sms, config } = deps;
  return {
    channel: 'sms',
    group: CONVERSATION_REPLIES,
    ratePerSecond: config.smsRatePerSecond,
    concurrency: config.smsConcurrency,
    async load(conversationId) {
      const c = await db
        .selectFrom('conversations as c')
        .leftJoin('churchSettings as s', 's.userId', 'c.userId')
        .select(['c.id', 'c.userId', 's.smsFromNumber as fromNumber'])
        .where('c.id', '=', conversationId)
        .executeTakeFirst();
      return c ?? null;
    },
    async send(c, d) {
      const message = await db
        .selectFrom('conversationMessages')
        .select('body')
        .where('deliveryId', '=', d.id)
        .executeTakeFirst();
      if (!message) throw permanent('The reply was deleted');
      // Consent is the engine's contact rule, asked just before the send: a STOP that arrived after
      // the reply was written wins.
      return sms.send({
        to: d.address,
        from: c.fromNumber || config.smsFromNumber,
        body: message.body,
        statusCallback: `${config.publicUrl}/api/sms/status`,
        meta: { userId: c.userId, deliveryId: d.id },
      });
    },
    // Nothing to mark: the timeline reads each reply's delivery status.
    async finish() {},
  };
}

/** The 'conversation-reply-deliver' job: send a conversation's pending replies; come back later for retries. */
const REPLY_JOB = {
  name: 'conversation-reply-deliver',
  payload: (conversationId: number) => ({ conversationId }),
} as const;

export async function deliverConversationReplies(deps: DeliveryDeps, conversationId: number): Promise<RunResult> {
  return (await deliverGroup(deps, [conversationReplyDriver(deps)], conversationId, REPLY_JOB))[0]!;
}

/** Part of the sweep: conversations with replies a dead worker left (or a lost job), queued again. */
export async function sweepConversationReplies(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, CONVERSATION_REPLIES, REPLY_JOB, opts);
}
