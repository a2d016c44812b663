import { sql, type Db } from '@lampstand/db';
import { badRequest, isBadInputDbError } from '../../errors.js';
import { isCleanText, notAllowedMessage } from '../../schemas/common.js';
import { smsKeyword } from '../../schemas/sms-campaigns.js';
import { setConsent } from '../contacts/consent.js';
import { personOf, recordEvents, PUBLIC_ACTOR } from '../events/record.js';
import { withActor } from '../events/actor.js';
import type { NewEvent } from '../../schemas/events.js';
import type { JobQueue } from '../../jobs.js';
import { keywordCandidates, runKeywordActions, type MatchedKeyword } from './keywords.js';
import { preview } from './preview.js';
import type { SmsTransport } from '../../providers/sms.js';
import {
  sendSharedQuestions,
  SHARED_NUMBER_ROUTING_DAYS,
  SharedNumberRouter,
  type SharedCandidate,
} from './shared-number.js';

export { SHARED_NUMBER_ROUTING_DAYS };

/** The longest MessageSid, From or To a webhook may carry (Twilio's SIDs are 34 characters). */
const MAX_TWILIO_ID = 64;

/** How many stored texts one transaction of the 'sms-inbound-process' job takes. */
export const INBOUND_BATCH = 500;

export interface InboundReceipt {
  /** The one text to send back (TwiML): a STOP/START/HELP confirmation, if any. */
  reply: string | null;
  /** The text was stored and waits for the 'sms-inbound-process' job (ask for it). */
  queued: boolean;
}

/** A stored text (a row of sms_inbound_messages) being processed. */
interface StoredText {
  id: number;
  from: string;
  to: string;
  /** The Messaging Service it came through (a church's own service routes by it), if any. */
  service: string | null;
  body: string;
  receivedAt: Date;
}

type Reserved = ReturnType<typeof smsKeyword>;

/**
 * An inbound text (Twilio's webhook). Stored once per provider message (a retried webhook finds it
 * stored, changes nothing and answers nothing), in one statement shared with the texts that arrive
 * at the same moment (`IntakeWriter`); the rest (its conversations, the
 * `sms.received` event, keyword actions) is done by the 'sms-inbound-process' job
 * (`processInboundTexts`), which the caller asks for when `queued`.
 *
 * STOP, START and HELP (and their other words, `smsKeyword`) are the exception: they are stored and
 * processed here, in one transaction, because their answer goes back in the webhook's response and
 * says what was done ('You are unsubscribed from …'): the opt-out takes effect before it is
 * confirmed, and no campaign text can slip out between the two.
 */
export async function receiveInboundSms(
  db: Db,
  params: Record<string, string>,
  platformNumber: string,
): Promise<InboundReceipt> {
  const sid = params.MessageSid ?? params.SmsSid ?? '';
  const from = params.From ?? '';
  const to = params.To ?? '';
  const body = params.Body ?? '';
  const service = params.MessagingServiceSid || null;
  // Refused here, alone, before it can join (and fail) a group-commit statement with other people's
  // texts: control characters (PostgreSQL cannot hold a NUL), as every text field of the product
  // refuses them, and an id or number longer than any Twilio sends (its unique index has a limit).
  for (const [field, value] of [
    ['MessageSid', sid],
    ['From', from],
    ['To', to],
    ['Body', body],
    ['MessagingServiceSid', service ?? ''],
  ] as const) {
    if (!isCleanText(value)) throw badRequest(notAllowedMessage(field), field);
    if (field !== 'Body' && value.length > MAX_TWILIO_ID)
      throw badRequest(`${field} must be at most ${MAX_TWILIO_ID} characters`, field);
  }
  const reserved = smsKeyword(body);
  if (!reserved) return { reply: null, queued: await intakeOf(db).store({ sid, from, to, service, body }) };
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: number; receivedAt: Date }>`
      insert into sms_inbound_messages (message_sid, from_number, to_number, messaging_service_sid, body, keyword, processed_at)
      values (${sid}, ${from}, ${to}, ${service}, ${body}, ${reserved}, now())
      on conflict (message_sid) do nothing
      returning id, created_at as received_at`.execute(trx);
    const stored = rows[0];
    if (!stored) return { reply: null, queued: false };
    const done = await processTexts(
      trx,
      [{ id: stored.id, from, to, service, body, receivedAt: stored.receivedAt }],
      platformNumber,
    );
    return { reply: done.replies.get(stored.id) ?? null, queued: false };
  });
}

interface IntakeRow {
  sid: string;
  from: string;
  to: string;
  service: string | null;
  body: string;
}

/**
 * Group commit of the webhook's rows: one insert (and one commit) in flight per database at a time;
 * the texts that arrive meanwhile wait for it and go together in the next, one multi-row statement.
 * A text alone is written at once (nothing waits for a timer); at a thousand a second each statement
 * carries the few texts of the previous one's round trip. Each webhook answers only after the
 * statement that holds its text has committed. If the database is down, every webhook in it fails
 * (500) and Twilio posts them again; if the database refuses one text's value, the statement is
 * tried again a text at a time, so only that text fails (400).
 */
class IntakeWriter {
  private waiting: { row: IntakeRow; done: (stored: boolean) => void; failed: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  /** True when the text was stored now; false when its MessageSid was stored before. */
  store(row: IntakeRow): Promise<boolean> {
    return new Promise((done, failed) => {
      this.waiting.push({ row, done, failed });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, INBOUND_BATCH);
      try {
        const stored = await this.insert(batch.map((b) => b.row));
        for (const b of batch) b.done(stored.delete(b.row.sid));
      } catch (err) {
        if (batch.length > 1 && isBadInputDbError(err)) {
          // A value PostgreSQL refuses (the checks in receiveInboundSms stop every one known; this
          // is the net under them) fails only its own text: the statement is tried again a text
          // at a time, so the texts beside it are not lost.
          for (const b of batch)
            await this.insert([b.row]).then(
              (stored) => b.done(stored.has(b.row.sid)),
              (e: unknown) => b.failed(e),
            );
        } else for (const b of batch) b.failed(err);
      }
    }
    this.writing = false;
  }

  /** One multi-row insert; the MessageSids it stored (a retried one is not stored again). */
  private async insert(batch: IntakeRow[]): Promise<Set<string>> {
    const { rows } = await sql<{ messageSid: string }>`
      insert into sms_inbound_messages (message_sid, from_number, to_number, messaging_service_sid, body)
      select * from unnest(${batch.map((b) => b.sid)}::text[], ${batch.map((b) => b.from)}::text[],
                           ${batch.map((b) => b.to)}::text[], ${batch.map((b) => b.service)}::text[],
                           ${batch.map((b) => b.body)}::text[])
      on conflict (message_sid) do nothing
      returning message_sid`.execute(this.db);
    return new Set(rows.map((r) => r.messageSid));
  }
}

const intakeWriters = new WeakMap<Db, IntakeWriter>();
function intakeOf(db: Db): IntakeWriter {
  let writer = intakeWriters.get(db);
  if (!writer) intakeWriters.set(db, (writer = new IntakeWriter(db)));
  return writer;
}

/**
 * The 'sms-inbound-process' job: the stored texts not yet processed, in batches of `batchSize`,
 * each batch in one transaction that takes its rows with FOR UPDATE SKIP LOCKED and marks them
 * processed, so any number of workers share the work and each text is processed exactly once (a
 * worker that dies mid-batch leaves its rows to the next). Keyword replies and task notices are
 * deliveries written in the batch: their deliver jobs are asked for after the commit (the engine's
 * sweep finds any a dead worker never asked for). Returns how many texts it processed.
 */
export async function processInboundTexts(
  deps: { db: Db; jobs: JobQueue; sms?: SmsTransport },
  platformNumber: string,
  opts: { batchSize?: number } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? INBOUND_BATCH;
  let total = 0;
  for (;;) {
    const done = await withActor(PUBLIC_ACTOR, () =>
      deps.db.transaction().execute(async (trx) => {
        const { rows } = await sql<StoredText>`
          select id, from_number as "from", to_number as "to", messaging_service_sid as service, body,
                 created_at as received_at
          from sms_inbound_messages where processed_at is null
          order by id limit ${batchSize}
          for update skip locked`.execute(trx);
        if (rows.length === 0) return { count: 0, repliesQueued: [], taskNotices: [], released: 0 };
        const result = await processTexts(
          trx,
          rows.map((r) => ({ ...r, id: Number(r.id) })),
          platformNumber,
        );
        await sql`update sms_inbound_messages set processed_at = now(),
                    held_at = case when id = any(${result.held}::bigint[]) then now() end
                  where id = any(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
        // An answer releases its sender's held texts to the intake: the next round routes them
        // to the church chosen.
        const released = result.answered.length
          ? Number(
              (
                await sql`update sms_inbound_messages set processed_at = null, held_at = null
                          where held_at is not null and to_number = ${platformNumber}
                            and from_number = any(${result.answered}::text[])`.execute(trx)
              ).numAffectedRows ?? 0,
            )
          : 0;
        return { count: rows.length, ...result, released };
      }),
    );
    for (const conversationId of done.repliesQueued)
      await deps.jobs.send('conversation-reply-deliver', { conversationId });
    for (const userId of done.taskNotices) await deps.jobs.send('task-notice-deliver', { userId });
    total += done.count;
    if (done.count < batchSize && done.released === 0) break;
  }
  if (deps.sms) await sendSharedQuestions({ db: deps.db, sms: deps.sms }, platformNumber);
  return total;
}

/**
 * Where a text goes (see `processTexts`): `own`, a church's own number (or Messaging Service);
 * `reached`, a church's number or the shared platform number (a text to neither, or from nobody,
 * is kept but goes nowhere). On the shared number, `candidates` are the churches that texted the
 * sender in the window, and `churches` is filled by `SharedNumberRouter`.
 */
interface Route {
  churches: number[];
  own: boolean;
  reached: boolean;
  candidates: SharedCandidate[];
}

/** Where each text goes, for all of them in one statement. */
async function routeTexts(trx: Db, texts: StoredText[], platformNumber: string) {
  const { rows } = await sql<{ n: number; owners: number[]; shared: { churchId: number; lastSentAt: string }[] }>`
    select t.n::int,
      array(select s.user_id from church_settings s where s.sms_from_number = t.to_number
            union select s.user_id from church_settings s where s.sms_messaging_service_sid = t.service
            order by 1) as owners,
      case when t.to_number = ${platformNumber} and t.from_number <> '' then (
        select coalesce(jsonb_agg(jsonb_build_object('churchId', x.user_id, 'lastSentAt', x.last_sent_at)
                                  order by x.user_id), '[]'::jsonb)
        from (
          select d.user_id, max(d.sent_at) as last_sent_at from deliveries d
          left join church_settings s on s.user_id = d.user_id
          where d.channel = 'sms' and d.address = t.from_number
            and d.sent_at > now() - make_interval(days => ${SHARED_NUMBER_ROUTING_DAYS})
            and (s.sms_from_number is null or s.sms_from_number = '') and s.sms_messaging_service_sid is null
          group by d.user_id) x) else '[]'::jsonb end as shared
    from unnest(${texts.map((t) => t.to)}::text[], ${texts.map((t) => t.from)}::text[],
                ${texts.map((t) => t.service)}::text[])
      with ordinality as t(to_number, from_number, service, n)
    order by t.n`.execute(trx);
  return rows.map((r): Route => {
    const text = texts[r.n - 1]!;
    if (!text.from) return { churches: [], own: false, reached: false, candidates: [] };
    if (r.owners.length > 0) return { churches: r.owners, own: true, reached: true, candidates: [] };
    const shared = text.to === platformNumber;
    const candidates = shared
      ? r.shared.map((c) => ({ churchId: c.churchId, lastSentAt: new Date(c.lastSentAt) }))
      : [];
    return { churches: [], own: false, reached: shared, candidates };
  });
}

interface ConversationContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

/** One text in one church it reached. */
interface Placement {
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
 * Texts already stored, in the caller's transaction: each on a conversation in every church it
 * belongs to, with an `sms.received` event naming the keyword it matched, and the keyword's actions.
 *
 * Where a text goes: to `owners`, the church(es) whose own sending number (or Messaging Service)
 * it was sent to; for the shared platform number, to the one church that texted the sender in the
 * last 30 days (a campaign text or a reply, sent or delivered), or that the sender chose
 * (`SharedNumberRouter`: with more than one, the text is held — `held` — until the sender answers
 * the question, and the answer releases the held texts — `answered`). None: the text is kept
 * (sms_inbound_messages) but reaches no inbox.
 *
 * STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT and OPT OUT opt the number out;
 * START and UNSTOP opt it back in: in the church that owns the number texted, or, for the shared
 * platform number, in every church that has the sender as a contact (each change on the contact's
 * consent history). HELP and INFO are answered with the churches' names and how to stop. Other
 * texts on a church's own number are matched against its keywords (keywords.ts).
 *
 * Set-based: the routing, the keyword and contact lookups and the conversations with their messages
 * are one statement each for the whole batch; then, church by church in ascending order (the order
 * every writer takes the churches' event locks in), the keyword actions (a statement or two for each
 * kind of action, `runKeywordActions`) and the church's events (one statement).
 */
async function processTexts(trx: Db, texts: StoredText[], platformNumber: string) {
  const routes = await routeTexts(trx, texts, platformNumber);
  const replies = new Map<number, string>();
  const placements: Placement[] = [];
  const held: number[] = [];
  const shared = await SharedNumberRouter.load(
    trx,
    texts.filter((t, i) => !routes[i]!.own && routes[i]!.reached && !smsKeyword(t.body)).map((t) => t.from),
  );
  for (const [i, text] of texts.entries()) {
    const route = routes[i]!;
    const reserved = smsKeyword(text.body);
    if (reserved && route.reached) {
      // STOP on the shared number stops every church's texts to the person (`applyReserved`).
      const consentChurches = await applyReserved(trx, text, reserved, route);
      if (!route.own) route.churches = route.candidates.map((c) => c.churchId);
      const churchIds = [...new Set([...consentChurches, ...route.churches])];
      replies.set(text.id, await reservedReply(trx, reserved, churchIds));
    } else if (route.reached && !route.own) {
      // The shared number: one church per conversation.
      const decision = shared.decide(text.from, text.body, route.candidates);
      if (decision.kind === 'reach') route.churches = [decision.churchId];
      else if (decision.kind === 'hold') held.push(text.id);
    }
    // The church's own keyword (issue 32 §3) on its own number only (on the shared
    // number a church's keyword would answer texts meant for another), never STOP, START or HELP.
    const candidates = reserved || !route.own ? [] : keywordCandidates(text.body);
    for (const churchId of route.churches)
      placements.push({
        text,
        churchId,
        candidates,
        keyword: reserved ? reserved.toUpperCase() : null,
        matched: null,
        knownId: null,
      });
  }
  await shared.save();
  const answered = [...shared.answered.keys()];
  if (placements.length === 0) return { replies, repliesQueued: [], taskNotices: [], held, answered };
  await matchKeywords(trx, placements);
  const contacts = await storeOnConversations(trx, placements);

  const repliesQueued = new Set<number>();
  const taskNotices: number[] = [];
  const now = new Date();
  // The newest placement on each conversation (its keyword's reply becomes the preview).
  const newest = new Map(placements.map((p, i) => [p.conversationId!, i]));
  const churchIds = [...new Set(placements.map((p) => p.churchId))].sort((a, b) => a - b);
  for (const churchId of churchIds) {
    const mine = placements.flatMap((p, i) => (p.churchId === churchId ? [{ p, i }] : []));
    const keyed = mine.filter(({ p }) => p.matched);
    const actions = keyed.length
      ? await runKeywordActions(
          trx,
          churchId,
          keyed.map(({ p, i }) => ({
            keyword: p.matched!,
            from: p.text.from,
            body: p.text.body,
            conversationId: p.conversationId!,
            contactId: contacts.get(p.conversationId!)?.id ?? null,
            last: newest.get(p.conversationId!) === i,
          })),
          now,
        )
      : { outcomes: [], journeyEvents: [], taskNoticeQueued: false };
    if (actions.taskNoticeQueued) taskNotices.push(churchId);
    const outcomeOf = new Map(keyed.map(({ i }, n) => [i, actions.outcomes[n]!]));
    const events: NewEvent[] = [...actions.journeyEvents];
    for (const { p, i } of mine) {
      const contact = contacts.get(p.conversationId!) ?? null;
      const outcome = outcomeOf.get(i);
      if (outcome?.replyQueued) repliesQueued.add(p.conversationId!);
      events.push(...(outcome?.events ?? []), {
        type: 'sms.received',
        contactId: outcome?.contactId ?? contact?.id ?? null,
        payload: {
          person: contact ? personOf(contact) : { name: 'Unknown', phone: p.text.from },
          body: p.text.body,
          keyword: p.keyword,
          conversationId: p.conversationId!,
        },
      });
      // The batch's later texts on this conversation find the contact its keyword made.
      if (!contact && outcome?.contactId)
        contacts.set(p.conversationId!, {
          id: outcome.contactId,
          firstName: 'Unknown',
          lastName: '',
          email: null,
          phone: p.text.from,
        });
    }
    // Last for the church: its event lock is held from here to the commit.
    await recordEvents(trx, churchId, events);
  }
  return { replies, repliesQueued: [...repliesQueued], taskNotices, held, answered };
}

/** STOP/START: the church owning the number, or every church with the sender as a contact. HELP changes nothing. */
async function applyReserved(
  trx: Db,
  text: StoredText,
  reserved: NonNullable<Reserved>,
  route: Route,
): Promise<number[]> {
  let q = trx.selectFrom('contacts').select(['id', 'userId']).where('phoneE164', '=', text.from);
  if (route.own) q = q.where('userId', 'in', route.churches);
  const contacts = await q.orderBy('userId').orderBy('id').execute();
  for (const c of contacts) {
    if (reserved === 'help') continue;
    await setConsent(trx, c.userId, {
      contactId: c.id,
      channel: 'sms',
      status: reserved === 'stop' ? 'unsubscribed' : 'subscribed',
      source: 'sms keyword',
      note: text.body.trim().toUpperCase(),
    });
  }
  return [...new Set(contacts.map((c) => c.userId))];
}

/** The answer to STOP, START or HELP, naming the churches it concerns. */
async function reservedReply(trx: Db, reserved: NonNullable<Reserved>, churchIds: number[]): Promise<string> {
  const names = churchIds.length
    ? (await trx.selectFrom('users').select('churchName').where('id', 'in', churchIds).orderBy('id').execute())
        .map((u) => u.churchName)
        .join(', ')
    : 'this number';
  return reserved === 'stop'
    ? `You are unsubscribed from ${names} texts and will not receive more. Reply START to resubscribe.`
    : reserved === 'start'
      ? `You are subscribed again to ${names} texts. Reply STOP to unsubscribe.`
      : `Texts from ${names}. Reply STOP to unsubscribe, START to subscribe again.`;
}

/**
 * Each placement's keyword (the longest of its candidates the church has) and the church's contact
 * with the texter's number, for the whole batch in one statement.
 */
async function matchKeywords(trx: Db, placements: Placement[]): Promise<void> {
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
async function storeOnConversations(
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
