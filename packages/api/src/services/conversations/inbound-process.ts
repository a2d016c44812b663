import type { Db } from '@lampstand/db';
import { smsKeyword } from '../../shared/sms.js';
import { personOf, recordEvents } from '../events/record.js';
import type { NewEvent } from '../../schemas/events.js';
import { keywordCandidates, runKeywordActions } from './keyword-actions.js';
import { SharedNumberRouter } from './shared-number.js';
import { routeTexts, type StoredText } from './inbound-routing.js';
import { applyReserved, reservedReply } from './inbound-reserved.js';
import { matchKeywords, storeOnConversations, type Placement } from './inbound-conversations.js';

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
 * are one statement each for the whole batch; then, church by church in ascending order, the
 * keyword actions (a statement or two for each kind of action, `runKeywordActions`) and the
 * church's events (one statement).
 */
export async function processTexts(trx: Db, texts: StoredText[], platformNumber: string) {
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
    // The church's own keyword on its own number only (on the shared
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
    await recordEvents(trx, churchId, events);
  }
  return { replies, repliesQueued: [...repliesQueued], taskNotices, held, answered };
}
