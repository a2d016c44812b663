import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { SmsMessage, SmsTransport } from '../../providers/sms.js';
import { sendSharedQuestions, SharedNumberRouter, type SharedCandidate } from './shared-number.js';

// On the shared number a text reaches one church: the only one that texted the person
// in the window, or the one they chose. Driven by a controlled clock (`now`), not the real one.
const { db } = await freshDatabase();
const register = (n: string) =>
  registerUser(db, { username: n, password: 'secret12', churchName: n, email: `${n}@example.org` });
const grace = (await register('Grace')).id;
const hope = (await register('Hope')).id;
const DAY = 86_400_000;
const T = new Date('2026-11-01T10:00:00Z');
const at = (ms: number) => new Date(T.getTime() + ms);
const texted = (churchId: number, when: Date): SharedCandidate => ({ churchId, lastSentAt: when });

/** One decision in its own transaction at `now`, saved as the intake saves it. */
async function decide(phone: string, body: string, candidates: SharedCandidate[], now: Date) {
  return db.transaction().execute(async (trx) => {
    const router = await SharedNumberRouter.load(trx, [phone], now);
    const decision = router.decide(phone, body, candidates);
    await router.save();
    return decision;
  });
}

describe('SharedNumberRouter', () => {
  it('asks once when two churches texted, takes the answer, and keeps it until another church texts again', async () => {
    const phone = '+61412999001';
    const both = [texted(grace, at(-2 * DAY)), texted(hope, at(-DAY))];
    expect(await decide(phone, 'Hello?', both, T)).toEqual({ kind: 'hold', ask: [grace, hope] });
    const row = await db
      .selectFrom('smsSharedRoutes')
      .selectAll()
      .where('phoneE164', '=', phone)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      offeredChurchIds: [grace, hope],
      question: 'Which church is your text for? Reply 1 for Grace, 2 for Hope.',
      questionSentAt: null,
      chosenChurchId: null,
    });
    // Not an answer (or out of range): held, and no second question.
    expect(await decide(phone, 'who is this', both, at(60_000))).toEqual({ kind: 'hold', ask: null });
    expect(await decide(phone, '3', both, at(120_000))).toEqual({ kind: 'hold', ask: null });
    expect(await decide(phone, ' 2. ', both, at(180_000))).toEqual({ kind: 'answer', churchId: hope });
    // Later replies in the window go to Hope.
    expect(await decide(phone, 'Thanks', both, at(DAY))).toEqual({ kind: 'reach', churchId: hope });
    // Grace texts the person after the choice: asked again.
    const graceAgain = [texted(grace, at(2 * DAY)), texted(hope, at(-DAY))];
    expect(await decide(phone, 'Sure', graceAgain, at(3 * DAY))).toEqual({ kind: 'hold', ask: [grace, hope] });
    expect(await decide(phone, '1', graceAgain, at(3 * DAY + 1))).toEqual({ kind: 'answer', churchId: grace });
    // The choice lasts the window (30 days): after it, two churches in the window ask again.
    const later = [texted(grace, at(30 * DAY)), texted(hope, at(31 * DAY))];
    expect(await decide(phone, 'Hi', later, at(34 * DAY))).toEqual({ kind: 'hold', ask: [grace, hope] });
  });

  it('one church in the window reaches it; none reaches nobody; a choice of a church no longer in it is not used', async () => {
    const phone = '+61412999002';
    expect(await decide(phone, 'Hi', [texted(hope, T)], T)).toEqual({ kind: 'reach', churchId: hope });
    expect(await decide(phone, 'Hi', [], T)).toEqual({ kind: 'nobody' });
    const both = [texted(grace, T), texted(hope, T)];
    await decide(phone, 'Hi', both, at(1));
    expect(await decide(phone, '1', both, at(2))).toEqual({ kind: 'answer', churchId: grace });
    expect(await decide(phone, 'Hi', [texted(hope, T)], at(3))).toEqual({ kind: 'reach', churchId: hope });
  });
});

describe('two workers with texts of the same person', () => {
  it('one asks; the other waits for it and holds the text without asking again', async () => {
    const phone = '+61412999004';
    const both = [texted(grace, T), texted(hope, T)];
    const locks = async (granted: boolean) =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_locks
          where locktype = 'advisory' and granted = ${granted}
            and database = (select oid from pg_database where datname = current_database())`.execute(db)
      ).rows[0]!.n;
    const until = async (ok: () => Promise<boolean>) => {
      while (!(await ok())) await new Promise((r) => setTimeout(r, 20));
    };
    let release = () => {};
    const open = new Promise<void>((r) => (release = r));
    const first = db.transaction().execute(async (trx) => {
      const router = await SharedNumberRouter.load(trx, [phone], T);
      const decision = router.decide(phone, 'Hi from one', both);
      await router.save();
      await open;
      return decision;
    });
    await until(async () => (await locks(true)) > 0);
    const second = decide(phone, 'Hi from two', both, T);
    await until(async () => (await locks(false)) > 0);
    release();
    expect(await first).toEqual({ kind: 'hold', ask: [grace, hope] });
    expect(await second).toEqual({ kind: 'hold', ask: null });
  });
});

describe('sendSharedQuestions', () => {
  it('sends each question once from the shared number; a failed send is tried again by the next run', async () => {
    const phone = '+61412999003';
    await decide(phone, 'Hi', [texted(grace, new Date()), texted(hope, new Date())], new Date());
    const sent: SmsMessage[] = [];
    let fail = true;
    const sms: SmsTransport = {
      kind: 'outbox',
      send(m) {
        if (fail) return Promise.reject(new Error('Twilio 503'));
        sent.push(m);
        return Promise.resolve({ providerMessageId: `SM${sent.length}` });
      },
    };
    await expect(sendSharedQuestions({ db, sms }, '+61400000000')).rejects.toThrow('Twilio 503');
    fail = false;
    expect(await sendSharedQuestions({ db, sms }, '+61400000000')).toBeGreaterThanOrEqual(1);
    expect(await sendSharedQuestions({ db, sms }, '+61400000000')).toBe(0);
    expect(sent.filter((m) => m.to === phone)).toEqual([
      expect.objectContaining({
        from: '+61400000000',
        body: 'Which church is your text for? Reply 1 for Grace, 2 for Hope.',
      }),
    ]);
  });
});
