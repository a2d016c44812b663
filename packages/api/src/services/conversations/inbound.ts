import { sql, type Db } from '@lampstand/db';
import { smsKeyword } from '../../schemas/sms-campaigns.js';
import { setConsent } from '../contacts/consent.js';
import { personOf, recordEvent } from '../events/record.js';
import type { JobQueue } from '../../jobs.js';
import { matchChurchKeyword, runKeywordActions } from './keywords.js';
import { preview } from './preview.js';

export interface InboundResult {
  /** The one text to send back (TwiML), if any: a STOP/START/HELP confirmation or a keyword's reply. */
  reply: string | null;
  /** Contacts whose SMS consent was changed by STOP or START. */
  changed: number;
  /** The conversations the text was stored on (one per church it reached). */
  conversationIds: number[];
}

/** How long after a church last texted a number its replies to the shared platform number reach it. */
export const SHARED_NUMBER_ROUTING_DAYS = 30;

/**
 * The churches a text to `to` belongs to: the church(es) whose own sending number it is; for the
 * shared platform number, every church that texted `from` in the last 30 days (a campaign text or
 * a reply, sent or delivered). None: the text is kept (sms_inbound_messages) but reaches no inbox.
 */
async function routeInbound(db: Db, o: { from: string; to: string; platformNumber: string }) {
  const owners = await db.selectFrom('churchSettings').select('userId').where('smsFromNumber', '=', o.to).execute();
  if (owners.length > 0) return { churches: owners.map((r) => r.userId), own: true };
  if (o.to !== o.platformNumber) return { churches: [], own: false };
  const { rows } = await sql<{ userId: number }>`
    select distinct d.user_id from deliveries d
    left join church_settings s on s.user_id = d.user_id
    where d.channel = 'sms' and d.address = ${o.from}
      and d.sent_at > now() - make_interval(days => ${SHARED_NUMBER_ROUTING_DAYS})
      and (s.sms_from_number is null or s.sms_from_number = '')
    order by d.user_id`.execute(db);
  return { churches: rows.map((r) => r.userId), own: false };
}

/**
 * An inbound text (Twilio's webhook), in one transaction: stored once per provider message (a
 * retried webhook changes nothing and answers nothing), then on a conversation in each church it
 * belongs to (see `routeInbound`), with an `sms.received` event naming the keyword it matched.
 *
 * STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT and OPT OUT opt the number out;
 * START and UNSTOP opt it back in: in the church that owns the number texted, or, for the shared
 * platform number, in every church that has the sender as a contact (each change on the contact's
 * consent history). HELP and INFO are answered with the churches' names and how to stop. Other
 * texts are matched against each church's keywords (keywords.ts).
 */
export async function handleInboundSms(
  deps: { db: Db; jobs: JobQueue },
  params: Record<string, string>,
  platformNumber: string,
): Promise<InboundResult> {
  const result = await storeInboundSms(deps.db, params, platformNumber);
  // Keyword replies are deliveries of the engine, written with the text: send them now.
  for (const conversationId of result.repliesQueued)
    await deps.jobs.send('conversation-reply-deliver', { conversationId });
  for (const userId of result.taskNotices) await deps.jobs.send('task-notice-deliver', { userId });
  return { reply: result.reply, changed: result.changed, conversationIds: result.conversationIds };
}

async function storeInboundSms(
  db: Db,
  params: Record<string, string>,
  platformNumber: string,
): Promise<InboundResult & { repliesQueued: number[]; taskNotices: number[] }> {
  const sid = params.MessageSid ?? params.SmsSid ?? '';
  const from = params.From ?? '';
  const to = params.To ?? '';
  const body = params.Body ?? '';
  const reserved = smsKeyword(body);
  const none = { reply: null, changed: 0, conversationIds: [], repliesQueued: [], taskNotices: [] };
  return db.transaction().execute(async (trx) => {
    const inbound = await trx
      .insertInto('smsInboundMessages')
      .values({ messageSid: sid, fromNumber: from, toNumber: to, body, keyword: reserved })
      .onConflict((oc) => oc.column('messageSid').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inbound || !from) return none;
    const route = await routeInbound(trx, { from, to, platformNumber });
    if (route.churches.length === 0 && to !== platformNumber) return none;

    // STOP/START: the church owning the number, or every church with the sender as a contact.
    let changed = 0;
    const consentChurches = new Set<number>();
    if (reserved === 'stop' || reserved === 'start' || reserved === 'help') {
      let q = trx.selectFrom('contacts').select(['id', 'userId']).where('phoneE164', '=', from);
      if (route.own) q = q.where('userId', 'in', route.churches);
      const contacts = await q.orderBy('userId').orderBy('id').execute();
      for (const c of contacts) {
        consentChurches.add(c.userId);
        if (reserved === 'help') continue;
        await setConsent(trx, c.userId, {
          contactId: c.id,
          channel: 'sms',
          status: reserved === 'stop' ? 'unsubscribed' : 'subscribed',
          source: 'sms keyword',
          note: body.trim().toUpperCase(),
        });
        changed++;
      }
    }

    const conversationIds: number[] = [];
    const repliesQueued: number[] = [];
    const taskNotices: number[] = [];
    for (const churchId of route.churches) {
      // The church's own keyword (issue 32 §3), unless the text is STOP, START or HELP.
      const matched = reserved ? null : await matchChurchKeyword(trx, churchId, body);
      const keyword = reserved ? reserved.toUpperCase() : (matched?.keyword ?? null);
      const { conversationId, contact } = await storeOnConversation(trx, churchId, {
        from,
        body,
        inboundId: inbound.id,
        keyword,
      });
      conversationIds.push(conversationId);
      const outcome = matched
        ? await runKeywordActions(trx, churchId, {
            keyword: matched,
            from,
            body,
            conversationId,
            contactId: contact?.id ?? null,
          })
        : null;
      if (outcome?.replyQueued) repliesQueued.push(conversationId);
      if (outcome?.taskNoticeQueued) taskNotices.push(churchId);
      await recordEvent(trx, churchId, {
        type: 'sms.received',
        contactId: outcome?.contactId ?? contact?.id ?? null,
        payload: {
          person: contact ? personOf(contact) : { name: 'Unknown', phone: from },
          body,
          keyword,
          conversationId,
        },
      });
    }

    const churchIds = [...new Set([...consentChurches, ...route.churches])];
    const names = churchIds.length
      ? (await trx.selectFrom('users').select('churchName').where('id', 'in', churchIds).orderBy('id').execute())
          .map((u) => u.churchName)
          .join(', ')
      : 'this number';
    const reply =
      reserved === 'stop'
        ? `You are unsubscribed from ${names} texts and will not receive more. Reply START to resubscribe.`
        : reserved === 'start'
          ? `You are subscribed again to ${names} texts. Reply STOP to unsubscribe.`
          : reserved === 'help'
            ? `Texts from ${names}. Reply STOP to unsubscribe, START to subscribe again.`
            : null;
    return { reply, changed, conversationIds, repliesQueued, taskNotices };
  });
}

interface ConversationContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

/** The church's conversation with `from` (made, or reopened, with one more unread text) and the text on it. */
async function storeOnConversation(
  trx: Db,
  churchId: number,
  o: { from: string; body: string; inboundId: number; keyword: string | null },
): Promise<{ conversationId: number; contact: ConversationContact | null }> {
  const known = await trx
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', churchId)
    .where('phoneE164', '=', o.from)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const conversation = await trx
    .insertInto('conversations')
    .values({
      userId: churchId,
      contactId: known?.id ?? null,
      phoneE164: o.from,
      unreadCount: 1,
      lastMessagePreview: preview(o.body),
    })
    .onConflict((oc) =>
      oc.columns(['userId', 'phoneE164']).doUpdateSet({
        unreadCount: sql`conversations.unread_count + 1`,
        lastMessageAt: sql`now()`,
        lastMessagePreview: (eb) => eb.ref('excluded.lastMessagePreview'),
        // A new text reopens a closed conversation.
        status: 'open',
        contactId: sql`coalesce(conversations.contact_id, excluded.contact_id)`,
        updatedAt: sql`now()`,
      }),
    )
    .returning(['id', 'contactId'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('conversationMessages')
    .values({
      userId: churchId,
      conversationId: conversation.id,
      direction: 'inbound',
      body: o.body,
      inboundMessageId: o.inboundId,
      keyword: o.keyword,
    })
    .execute();
  const contact = conversation.contactId
    ? ((await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email', 'phone'])
        .where('id', '=', conversation.contactId)
        .executeTakeFirst()) ?? null)
    : null;
  return { conversationId: conversation.id, contact };
}
