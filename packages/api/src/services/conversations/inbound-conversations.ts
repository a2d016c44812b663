import { sql, type Db } from '@lampstand/db';
import type { MatchedKeyword } from './keyword-actions.js';
import { preview } from './preview.js';
import type { StoredText } from './inbound-routing.js';

/** The contact a conversation is with, as a text's events name them. */
export interface ConversationContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

/** One text in one church it reached. */
export interface Placement {
  text: StoredText;
  churchId: number;
  /** The keywords the text may start with, longest first (none for STOP, START, HELP). */
  candidates: string[];
  /** The keyword recorded with the text: STOP, START, HELP or the church's keyword it matched. */
  keyword: string | null;
  matched: MatchedKeyword | null;
  knownId: number | null;
  conversationId?: number;
}

/**
 * Each placement's keyword (the longest of its candidates the church has) and the church's contact
 * with the texter's number, for the whole batch in one statement.
 */
export async function matchKeywords(trx: Db, placements: Placement[]): Promise<void> {
  const { rows } = await sql<MatchedKeyword & { n: number; knownId: number | null; id: number | null }>`
    select p.n::int,
           (select c.id from contacts c where c.user_id = p.user_id and c.phone_e164 = p.from_number order by c.id limit 1)
             as known_id,
           k.id, k.keyword, k.reply_text, k.list_id, k.journey_id, k.task_title
    from unnest(${placements.map((p) => p.churchId)}::int[], ${placements.map((p) => p.text.from)}::text[],
                ${placements.map((p) => p.candidates[0] ?? null)}::text[], ${placements.map((p) => p.candidates[1] ?? null)}::text[])
      with ordinality as p(user_id, from_number, c1, c2, n)
    left join lateral (
      select id, keyword, reply_text, list_id, journey_id, task_title from sms_keywords
      where user_id = p.user_id and keyword in (p.c1, p.c2)
      order by length(keyword) desc limit 1
    ) k on true
    order by p.n`.execute(trx);
  for (const r of rows) {
    const p = placements[r.n - 1]!;
    p.knownId = r.knownId;
    if (r.id === null) continue;
    p.matched = {
      id: r.id,
      keyword: r.keyword,
      replyText: r.replyText,
      listId: r.listId,
      journeyId: r.journeyId,
      taskTitle: r.taskTitle,
    };
    p.keyword = r.keyword;
  }
}

/**
 * Every placement's text on its church's conversation with the texter, in one statement: each
 * conversation made, or reopened with as many more unread texts as the batch brings it (its
 * preview the newest); the texts on it in the order they came, dated when they came. Sets each
 * placement's conversation; returns each conversation's contact.
 */
export async function storeOnConversations(
  trx: Db,
  placements: Placement[],
): Promise<Map<number, ConversationContact | null>> {
  const texts = placements.map((p, n) => ({
    n,
    u: p.churchId,
    f: p.text.from,
    b: p.text.body,
    v: preview(p.text.body),
    i: p.text.id,
    k: p.keyword,
    c: p.knownId,
    a: p.text.receivedAt,
  }));
  const { rows } = await sql<
    { conversationId: number; userId: number; phoneE164: string; contactId: number | null } & {
      [K in keyof ConversationContact]: ConversationContact[K] | null;
    }
  >`
    with t as (
      select * from jsonb_to_recordset(${JSON.stringify(texts)}::jsonb)
        as t(n int, u int, f text, b text, v text, i bigint, k text, c int, a timestamptz)
    ), per as (
      select u, f, count(*)::int as texts, min(c) as known_id, max(a) as last_at,
             (array_agg(v order by n desc))[1] as preview
      from t group by u, f
    ), conv as (
      insert into conversations (user_id, contact_id, phone_e164, unread_count, last_message_at, last_message_preview)
      select u, known_id, f, texts, last_at, preview from per order by u, f
      on conflict (user_id, phone_e164) do update set
        unread_count = conversations.unread_count + excluded.unread_count,
        last_message_at = greatest(conversations.last_message_at, excluded.last_message_at),
        last_message_preview = excluded.last_message_preview,
        -- A new text reopens a closed conversation.
        status = 'open',
        contact_id = coalesce(conversations.contact_id, excluded.contact_id),
        updated_at = now()
      returning id, user_id, phone_e164, contact_id
    ), msg as (
      insert into conversation_messages (user_id, conversation_id, direction, body, inbound_message_id, keyword, created_at)
      select t.u, conv.id, 'inbound', t.b, t.i, t.k, t.a
      from t join conv on conv.user_id = t.u and conv.phone_e164 = t.f
      order by t.n
    )
    select conv.id as conversation_id, conv.user_id, conv.phone_e164, conv.contact_id,
           c.id, c.first_name, c.last_name, c.email, c.phone
    from conv left join contacts c on c.id = conv.contact_id`.execute(trx);
  // A conversation another worker gave a contact after this statement began (it waited for that
  // worker's commit) names a contact this statement's snapshot cannot see: read those now.
  const unseen = rows.filter((r) => r.contactId !== null && r.id === null).map((r) => r.contactId!);
  if (unseen.length > 0) {
    const late = new Map(
      (
        await trx
          .selectFrom('contacts')
          .select(['id', 'firstName', 'lastName', 'email', 'phone'])
          .where('id', 'in', unseen)
          .execute()
      ).map((c) => [c.id, c]),
    );
    for (const r of rows) if (r.id === null && r.contactId !== null) Object.assign(r, late.get(r.contactId) ?? {});
  }
  const byKey = new Map(rows.map((r) => [`${r.userId} ${r.phoneE164}`, r]));
  const contacts = new Map<number, ConversationContact | null>();
  for (const p of placements) {
    const r = byKey.get(`${p.churchId} ${p.text.from}`)!;
    p.conversationId = r.conversationId;
    contacts.set(
      r.conversationId,
      r.id === null
        ? null
        : { id: r.id, firstName: r.firstName ?? '', lastName: r.lastName ?? '', email: r.email, phone: r.phone },
    );
  }
  return contacts;
}
