import { sql, type Db } from '@lampstand/db';
import { lockedRows } from '../background/locked.js';
import type { SmsTransport } from '../../providers/sms.js';

/** How long after a church last texted a number its replies to the shared platform number reach it. */
export const SHARED_NUMBER_ROUTING_DAYS = 30;

/** How long an unsent question (its send failed) is tried again by the next intake runs. */
const QUESTION_RESEND_HOURS = 24;

/** A church that texted the person from the shared number in the window, and when it last did. */
export interface SharedCandidate {
  churchId: number;
  lastSentAt: Date;
}

/** The question asked of one person (a row of `sms_shared_routes`). */
interface SharedRoute {
  offered: number[];
  askedAt: Date;
  chosen: number | null;
  chosenAt: Date | null;
}

/**
 * What happens to a text to the shared platform number (not STOP, START or HELP): it reaches one
 * church (`reach`), waits for the person's answer (`hold`, asking the question if none is
 * pending), is the answer (`answer`: the held texts go to the church chosen), or reaches nobody.
 */
export type SharedDecision =
  | { kind: 'reach'; churchId: number }
  | { kind: 'hold'; ask: number[] | null }
  | { kind: 'answer'; churchId: number }
  | { kind: 'nobody' };

const windowStart = (now: Date) => new Date(now.getTime() - SHARED_NUMBER_ROUTING_DAYS * 86_400_000);

/**
 * One church per conversation on the shared number: a text reaches a church only when
 * exactly one church texted the person in the window, or the person chose it (by answering the
 * question) and no other church has texted them since. Otherwise it is held and the person is asked
 * once which church it is for; their answer ('1') chooses.
 */
export class SharedNumberRouter {
  private routes = new Map<string, SharedRoute | null>();
  /** The questions to record (phone → offered churches), and the answers. */
  readonly asked = new Map<string, number[]>();
  readonly answered = new Map<string, number>();

  private constructor(
    private readonly trx: Db,
    private readonly now: Date,
  ) {}

  /**
   * The routes of these people, locked for the rest of the transaction: each person's transaction
   * lock first (in one order, so two workers cannot deadlock), so that two workers with texts of the
   * same person, one with no route yet, cannot both ask the question; then their rows.
   */
  static async load(trx: Db, phones: string[], now = new Date()): Promise<SharedNumberRouter> {
    const router = new SharedNumberRouter(trx, now);
    if (phones.length === 0) return router;
    const people = [...new Set(phones)].sort();
    await sql`select pg_advisory_xact_lock(hashtextextended('sms_shared_route:' || p, 0))
              from unnest(${people}::text[]) as p`.execute(trx);
    const rows = await trx
      .selectFrom('smsSharedRoutes')
      .select(['phoneE164', 'offeredChurchIds', 'askedAt', 'chosenChurchId', 'chosenAt'])
      .where('phoneE164', 'in', people)
      .execute();
    for (const p of phones) router.routes.set(p, null);
    for (const r of rows)
      router.routes.set(r.phoneE164, {
        offered: r.offeredChurchIds,
        askedAt: r.askedAt,
        chosen: r.chosenChurchId,
        chosenAt: r.chosenAt,
      });
    return router;
  }

  decide(phone: string, body: string, candidates: SharedCandidate[]): SharedDecision {
    const since = windowStart(this.now);
    const route = this.routes.get(phone) ?? null;
    const pending = route && route.chosen === null && route.askedAt > since ? route : null;
    if (pending) {
      const n = /^\s*(\d{1,2})\s*[.!]?\s*$/.exec(body);
      const chosen = n ? pending.offered[Number(n[1]) - 1] : undefined;
      if (chosen === undefined) return { kind: 'hold', ask: null };
      this.routes.set(phone, { ...pending, chosen, chosenAt: this.now });
      this.answered.set(phone, chosen);
      return { kind: 'answer', churchId: chosen };
    }
    if (route?.chosen && route.chosenAt && route.chosenAt > since) {
      const chosenAt = route.chosenAt;
      const mine = candidates.find((c) => c.churchId === route.chosen);
      const newer = candidates.some((c) => c.churchId !== route.chosen && c.lastSentAt > chosenAt);
      if (mine && !newer) return { kind: 'reach', churchId: mine.churchId };
    }
    if (candidates.length === 0) return { kind: 'nobody' };
    if (candidates.length === 1) return { kind: 'reach', churchId: candidates[0]!.churchId };
    const offered = candidates.map((c) => c.churchId);
    this.routes.set(phone, { offered, askedAt: this.now, chosen: null, chosenAt: null });
    this.asked.set(phone, offered);
    return { kind: 'hold', ask: offered };
  }

  /** Records the questions asked and the answers given (one statement each). */
  async save(): Promise<void> {
    if (this.asked.size > 0) {
      const phones = [...this.asked.keys()];
      const names = new Map(
        (
          await this.trx
            .selectFrom('users')
            .select(['id', 'churchName'])
            .where('id', 'in', [...new Set([...this.asked.values()].flat())])
            .execute()
        ).map((u) => [u.id, u.churchName]),
      );
      for (const phone of phones) {
        const offered = this.asked.get(phone)!;
        const values = {
          offeredChurchIds: offered,
          askedAt: this.now,
          question: sharedQuestion(offered.map((id) => names.get(id) ?? 'a church')),
          questionSentAt: null,
          chosenChurchId: null,
          chosenAt: null,
        };
        await this.trx
          .insertInto('smsSharedRoutes')
          .values({ phoneE164: phone, ...values })
          .onConflict((oc) => oc.column('phoneE164').doUpdateSet(values))
          .execute();
      }
    }
    for (const [phone, churchId] of this.answered)
      await this.trx
        .updateTable('smsSharedRoutes')
        .set({ chosenChurchId: churchId, chosenAt: this.now })
        .where('phoneE164', '=', phone)
        .execute();
  }
}

/** The one automatic question: 'Which church is your text for? Reply 1 for Grace, 2 for Hope.' */
export function sharedQuestion(churchNames: string[]): string {
  const choices = churchNames.map((name, i) => `${i + 1} for ${name}`).join(', ');
  return `Which church is your text for? Reply ${choices}.`;
}

/**
 * The questions recorded and not yet sent, each sent from the shared number through the platform's
 * transport (it is the platform's question, no church's message) and marked sent; a failed send
 * stays for the next intake run, for a day.
 */
export async function sendSharedQuestions(
  deps: { db: Db; sms: SmsTransport },
  platformNumber: string,
): Promise<number> {
  // One question a transaction, claimed for its length: the send and its mark commit together, and
  // a send that fails rolls back (the question stays for the next run).
  let sent = 0;
  const questions = lockedRows(deps.db, {
    due: (trx) =>
      trx
        .selectFrom('smsSharedRoutes')
        .select(['phoneE164', 'question'])
        .where('questionSentAt', 'is', null)
        .where('chosenChurchId', 'is', null)
        .where('askedAt', '>', new Date(Date.now() - QUESTION_RESEND_HOURS * 3_600_000))
        .orderBy('askedAt'),
    work: async (trx, row) => {
      await deps.sms.send({ to: row.phoneE164, from: platformNumber, body: row.question });
      await trx
        .updateTable('smsSharedRoutes')
        .set({ questionSentAt: new Date() })
        .where('phoneE164', '=', row.phoneE164)
        .execute();
    },
  });
  for await (const q of questions) sent += q.rows;
  return sent;
}
