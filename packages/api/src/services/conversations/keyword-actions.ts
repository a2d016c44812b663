import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { keywordWords } from '../../shared/conversations.js';
import { personOf } from '../events/record.js';
import type { NewEvent } from '../../schemas/events.js';
import { preview } from './preview.js';
import { enrollCandidates } from '../journeys/enroll.js';
import { loadVersion } from '../journeys/definitions.js';
import { queueTaskNotice } from '../journeys/task-notices.js';
import { localDate } from '../journeys/time.js';

/** A text that starts with one of the church's keywords: which keyword, and what it does (reply, list, journey, task). */

export interface MatchedKeyword {
  id: number;
  keyword: string;
  replyText: string | null;
  listId: number | null;
  journeyId: number | null;
  taskTitle: string | null;
}

/**
 * The keywords an incoming text may start with, longest first: its first two words ('JOIN YOUTH')
 * before its first word ('JOIN'); any case, punctuation ignored ('Pray!' is PRAY). The church's
 * keyword among them is looked up with the texter (inbound.ts).
 */
export function keywordCandidates(body: string): string[] {
  const words = keywordWords(body);
  if (words.length === 0) return [];
  return words.length > 1 ? [`${words[0]} ${words[1]}`, words[0]!] : [words[0]!];
}

/** A text that matched one of the church's keywords, on its conversation. */
export interface KeywordText {
  keyword: MatchedKeyword;
  from: string;
  body: string;
  conversationId: number;
  /** The conversation's contact, if it has one. */
  contactId: number | null;
  /** The newest text of the batch on its conversation (its reply becomes the conversation's preview). */
  last: boolean;
}

export interface KeywordOutcome {
  /** The contact the texter is (made when the list or journey action needed one). */
  contactId: number | null;
  /** A reply was written as a delivery of the conversation: its deliver job is due. */
  replyQueued: boolean;
  /** The events of the text's actions (a contact made, added to a list), to record before its own. */
  events: NewEvent[];
}

/**
 * The actions of a batch of one church's keyword texts, in the batch's transaction (so each runs
 * once per text: a text is processed once), each kind of action one statement for the whole batch:
 * add the texter to the list (an unknown number becomes a contact named 'Unknown' with the number,
 * via 'signup', linked to the conversation: one contact per number however many of its texts the
 * batch holds); start the journey (an active one, as its entry rule allows; the texter becomes a
 * contact the same way); create a follow-up task (due today in the church's time zone, the text in
 * its notes); then the reply as a 'conversation-reply' delivery of the one engine (consent was given
 * by texting in; the caller queues the deliver job after the commit). Returns each text's outcome,
 * the journeys' `journey.entered` events (for the caller to record, last) and whether a task notice
 * was queued.
 */
export async function runKeywordActions(
  trx: Db,
  churchId: number,
  texts: KeywordText[],
  now: Date,
): Promise<{ outcomes: KeywordOutcome[]; journeyEvents: NewEvent[]; taskNoticeQueued: boolean }> {
  const outcomes: KeywordOutcome[] = texts.map((t) => ({ contactId: t.contactId, replyQueued: false, events: [] }));
  const journeyEvents: NewEvent[] = [];
  const ids = (pick: (k: MatchedKeyword) => number | null) => [
    ...new Set(texts.map((t) => pick(t.keyword)).filter((id): id is number => !!id)),
  ];
  const listIds = ids((k) => k.listId);
  const journeyIds = ids((k) => k.journeyId);
  const lists = new Map(
    (listIds.length
      ? await trx
          .selectFrom('contactLists')
          .select(['id', 'name'])
          .where('userId', '=', churchId)
          .where('id', 'in', listIds)
          .execute()
      : []
    ).map((l) => [l.id, l]),
  );
  const journeys = new Map(
    (journeyIds.length
      ? await trx
          .selectFrom('journeys')
          .selectAll()
          .where('userId', '=', churchId)
          .where('id', 'in', journeyIds)
          .where('status', '=', 'active')
          .execute()
      : []
    ).map((j) => [j.id, j]),
  );
  const listOf = (t: KeywordText) => (t.keyword.listId ? (lists.get(t.keyword.listId) ?? null) : null);
  const journeyOf = (t: KeywordText) => (t.keyword.journeyId ? (journeys.get(t.keyword.journeyId) ?? null) : null);

  // The texters a list or a journey needs as contacts and who are none yet: one each, 'Unknown'.
  const unknown = new Map<string, number>(); // number -> the first of its texts
  texts.forEach((t, i) => {
    if (!t.contactId && (listOf(t) || journeyOf(t)) && !unknown.has(t.from)) unknown.set(t.from, i);
  });
  if (unknown.size > 0) {
    const made = await trx
      .insertInto('contacts')
      .values(
        [...unknown.keys()].map((f) => ({
          userId: churchId,
          firstName: 'Unknown',
          lastName: '',
          phone: f,
          phoneE164: f,
        })),
      )
      .returning(['id', 'phoneE164', 'firstName', 'lastName', 'email', 'phone'])
      .execute();
    const byNumber = new Map(made.map((c) => [c.phoneE164!, c]));
    texts.forEach((t, i) => {
      if (!t.contactId && byNumber.has(t.from)) outcomes[i]!.contactId = byNumber.get(t.from)!.id;
    });
    await sql`update conversations c set contact_id = v.contact_id
      from unnest(${[...unknown.values()].map((i) => texts[i]!.conversationId)}::int[],
                  ${[...unknown.keys()].map((f) => byNumber.get(f)!.id)}::int[]) as v(id, contact_id)
      where c.id = v.id and c.user_id = ${churchId}`.execute(trx);
    for (const [f, i] of unknown) {
      const list = listOf(texts[i]!);
      outcomes[i]!.events.push({
        type: 'contact.created',
        contactId: byNumber.get(f)!.id,
        payload: {
          person: personOf(byNumber.get(f)!),
          via: 'signup',
          ...(list ? { list: { id: list.id, name: list.name } } : {}),
        },
      });
    }
  }
  const contactIds = [...new Set(outcomes.map((o) => o.contactId).filter((id): id is number => !!id))];
  const people = new Map(
    (contactIds.length
      ? await trx
          .selectFrom('contacts')
          .select(['id', 'firstName', 'lastName', 'email', 'phone'])
          .where('userId', '=', churchId)
          .where('id', 'in', contactIds)
          .execute()
      : []
    ).map((c) => [c.id, c]),
  );

  // Added to the lists: one row per person and list, an event for each one new.
  const joins = new Map<string, number>(); // 'contact list' -> the first text asking
  texts.forEach((t, i) => {
    const list = listOf(t);
    const key = `${outcomes[i]!.contactId} ${list?.id}`;
    if (list && outcomes[i]!.contactId && !joins.has(key)) joins.set(key, i);
  });
  if (joins.size > 0) {
    const added = await trx
      .insertInto('contactsInLists')
      .values(
        [...joins.values()].map((i) => ({
          userId: churchId,
          contactId: outcomes[i]!.contactId!,
          listId: listOf(texts[i]!)!.id,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(['contactId', 'listId'])
      .execute();
    for (const a of added) {
      const i = joins.get(`${a.contactId} ${a.listId}`)!;
      const list = lists.get(a.listId)!;
      outcomes[i]!.events.push({
        type: 'list.member_added',
        contactId: a.contactId,
        payload: { person: personOf(people.get(a.contactId) ?? {}), list: { id: list.id, name: list.name } },
      });
    }
  }

  // Into the journeys: each person once per journey, as its entry rule allows.
  for (const journey of journeys.values()) {
    const candidates = [
      ...new Set(texts.flatMap((t, i) => (journeyOf(t) === journey ? [outcomes[i]!.contactId!] : []))),
    ];
    const definition = await loadVersion(trx, journey, journey.currentVersion);
    await enrollCandidates(trx, journey, definition, sql`select unnest(${candidates}::int[]) as id`, {
      now,
      events: journeyEvents,
    });
  }

  // Follow-up tasks; the church's own login is told of each, as a journey's task tells its assignee.
  let taskNoticeQueued = false;
  const asking = texts.flatMap((t, i) => (t.keyword.taskTitle ? [i] : []));
  if (asking.length > 0) {
    const church = await trx
      .selectFrom('churchSettings')
      .select('timeZone')
      .where('userId', '=', churchId)
      .executeTakeFirst();
    const dueOn = localDate(now, church?.timeZone ?? 'UTC');
    const tasks = await trx
      .insertInto('tasks')
      .values(
        asking.map((i) => {
          const t = texts[i]!;
          return {
            userId: churchId,
            title: t.keyword.taskTitle!,
            notes: `Text from ${t.from} (${t.keyword.keyword}): ${t.body}`.slice(0, 2000),
            dueOn,
            contactId: outcomes[i]!.contactId,
          };
        }),
      )
      .returning('id')
      .execute();
    for (const task of tasks) if (await queueTaskNotice(trx, churchId, task.id)) taskNoticeQueued = true;
  }

  // The replies: deliveries of the engine, each with its message on the conversation.
  const replying = texts.flatMap((t, i) => (t.keyword.replyText ? [i] : []));
  if (replying.length > 0) {
    const tokens = replying.map(() => crypto.randomBytes(24).toString('hex'));
    const deliveries = await trx
      .insertInto('deliveries')
      .values(
        replying.map((i, n) => {
          const t = texts[i]!;
          const contactId = outcomes[i]!.contactId;
          const person = contactId ? people.get(contactId) : undefined;
          return {
            userId: churchId,
            channel: 'sms',
            kind: 'conversation-reply',
            conversationId: t.conversationId,
            contactId,
            address: t.from,
            firstName: person?.firstName ?? '',
            lastName: person?.lastName ?? '',
            token: tokens[n]!,
          };
        }),
      )
      .returning(['id', 'token'])
      .execute();
    const byToken = new Map(deliveries.map((d) => [d.token, d.id]));
    await trx
      .insertInto('conversationMessages')
      .values(
        replying.map((i, n) => ({
          userId: churchId,
          conversationId: texts[i]!.conversationId,
          direction: 'outbound',
          body: texts[i]!.keyword.replyText!,
          deliveryId: byToken.get(tokens[n]!)!,
          keyword: texts[i]!.keyword.keyword,
        })),
      )
      .execute();
    for (const i of replying) outcomes[i]!.replyQueued = true;
    // The reply is the conversation's newest message when its text was the batch's last there.
    const newest = replying.filter((i) => texts[i]!.last);
    if (newest.length > 0)
      await sql`update conversations c set last_message_preview = v.preview
        from unnest(${newest.map((i) => texts[i]!.conversationId)}::int[],
                    ${newest.map((i) => preview(texts[i]!.keyword.replyText!))}::text[]) as v(id, preview)
        where c.id = v.id and c.user_id = ${churchId}`.execute(trx);
  }
  return { outcomes, journeyEvents, taskNoticeQueued };
}
