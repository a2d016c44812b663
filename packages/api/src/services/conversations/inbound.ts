import { sql, type Db } from '@lampstand/db';
import { smsKeyword } from '../../schemas/sms-campaigns.js';
import { setConsent } from '../contacts/consent.js';
import { personOf, recordEvent } from '../events/record.js';
import type { JobQueue } from '../../jobs.js';
import { keywordCandidates, runKeywordActions, type MatchedKeyword } from './keywords.js';
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
 * The churches a text to `to` belongs to: `owners`, the church(es) whose own sending number it is;
 * for the shared platform number, every church that texted `from` in the last 30 days (a campaign
 * text or a reply, sent or delivered). None: the text is kept (sms_inbound_messages) but reaches no inbox.
 */
async function routeInbound(db: Db, o: { from: string; to: string; platformNumber: string; owners: number[] }) {
  if (o.owners.length > 0) return { churches: o.owners, own: true };
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
    // Stored once per provider message, and the church(es) whose own number it is, in one round trip
    // (a text is a handful of statements: `pnpm bench:inbound` counts them).
    const { rows } = await sql<{ id: number | null; owners: number[] }>`
      with ins as (
        insert into sms_inbound_messages (message_sid, from_number, to_number, body, keyword)
        values (${sid}, ${from}, ${to}, ${body}, ${reserved})
        on conflict (message_sid) do nothing
        returning id
      )
      select (select id from ins) as id,
             array(select user_id from church_settings where sms_from_number = ${to} order by user_id) as owners`.execute(
      trx,
    );
    const inbound = rows[0]?.id ? { id: rows[0].id } : null;
    if (!inbound || !from) return none;
    const route = await routeInbound(trx, { from, to, platformNumber, owners: rows[0]!.owners });
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
      const { matched, knownId } = await keywordAndTexter(trx, churchId, {
        from,
        candidates: reserved ? [] : keywordCandidates(body),
      });
      const keyword = reserved ? reserved.toUpperCase() : (matched?.keyword ?? null);
      const { conversationId, contact } = await storeOnConversation(trx, churchId, {
        from,
        body,
        inboundId: inbound.id,
        keyword,
        knownId,
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

    if (!reserved) return { reply: null, changed, conversationIds, repliesQueued, taskNotices };
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

/**
 * The church's keyword the text starts with (the longest of `candidates`; none when empty) and the
 * church's contact with the texter's number, in one round trip.
 */
async function keywordAndTexter(
  trx: Db,
  churchId: number,
  o: { from: string; candidates: string[] },
): Promise<{ matched: MatchedKeyword | null; knownId: number | null }> {
  const { rows } = await sql<MatchedKeyword & { knownId: number | null; id: number | null }>`
    select (select c.id from contacts c where c.user_id = ${churchId} and c.phone_e164 = ${o.from} order by c.id limit 1)
             as known_id,
           k.id, k.keyword, k.reply_text, k.list_id, k.journey_id, k.task_title
    from (select 1) one
    left join lateral (
      select id, keyword, reply_text, list_id, journey_id, task_title from sms_keywords
      where user_id = ${churchId} and keyword = any(${o.candidates}::text[])
      order by length(keyword) desc limit 1
    ) k on true`.execute(trx);
  const r = rows[0]!;
  const matched =
    r.id === null
      ? null
      : {
          id: r.id,
          keyword: r.keyword,
          replyText: r.replyText,
          listId: r.listId,
          journeyId: r.journeyId,
          taskTitle: r.taskTitle,
        };
  return { matched, knownId: r.knownId };
}

/**
 * The church's conversation with `from` (made, or reopened, with one more unread text), the text
 * on it, and the conversation's contact, in one statement.
 */
async function storeOnConversation(
  trx: Db,
  churchId: number,
  o: { from: string; body: string; inboundId: number; keyword: string | null; knownId: number | null },
): Promise<{ conversationId: number; contact: ConversationContact | null }> {
  const { rows } = await sql<
    { conversationId: number } & { [K in keyof ConversationContact]: ConversationContact[K] | null }
  >`
    with conv as (
      insert into conversations (user_id, contact_id, phone_e164, unread_count, last_message_preview)
      values (${churchId}, ${o.knownId}, ${o.from}, 1, ${preview(o.body)})
      on conflict (user_id, phone_e164) do update set
        unread_count = conversations.unread_count + 1,
        last_message_at = now(),
        last_message_preview = excluded.last_message_preview,
        -- A new text reopens a closed conversation.
        status = 'open',
        contact_id = coalesce(conversations.contact_id, excluded.contact_id),
        updated_at = now()
      returning id, contact_id
    ), msg as (
      insert into conversation_messages (user_id, conversation_id, direction, body, inbound_message_id, keyword)
      select ${churchId}, conv.id, 'inbound', ${o.body}, ${o.inboundId}, ${o.keyword} from conv
    )
    select conv.id as conversation_id, c.id, c.first_name, c.last_name, c.email, c.phone
    from conv left join contacts c on c.id = conv.contact_id`.execute(trx);
  const r = rows[0]!;
  const contact =
    r.id === null
      ? null
      : { id: r.id, firstName: r.firstName ?? '', lastName: r.lastName ?? '', email: r.email, phone: r.phone };
  return { conversationId: r.conversationId, contact };
}
