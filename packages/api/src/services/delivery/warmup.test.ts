import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { getAccountStatus } from '../account/account-status.js';
import { emailWarmupSendSentence } from '../../shared/account.js';
import { createOutboxTransport } from '../../providers/email.js';
import { deliverCampaign } from './campaigns.js';
import { recordingDeliveryDeps, sendingCampaignWith } from './test-deps.js';
import { warmupDay, warmupLimit } from './warmup.js';

// Email warm-up on a controlled clock: with EMAIL_WARMUP, a new church's email goes out 50 on its
// first day, 100 on the second, 200 on the third…; the rest waits for the next day.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
const { createdAt } = await db
  .selectFrom('users')
  .select('createdAt')
  .where('id', '=', church.id)
  .executeTakeFirstOrThrow();
const HOUR = 60 * 60 * 1000;
let now = new Date(createdAt.getTime() + HOUR);
const { deps, sent: jobs } = recordingDeliveryDeps(db, { emailWarmup: true, clock: () => now });

const campaignTo = (people: number) => sendingCampaignWith(db, church.id, people);

const sentOf = async (campaignId: number) =>
  Number(
    (
      await db
        .selectFrom('outboxMessages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('campaignId', '=', campaignId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const status = () => getAccountStatus({ db, email: createOutboxTransport(db), emailWarmup: true, now }, church.id);

describe('email warm-up', () => {
  it('numbers the days from sign-up and doubles the number each day for a week', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(warmupLimit)).toEqual([50, 100, 200, 400, 800, 1600, 3200]);
    expect(warmupDay(createdAt, new Date(createdAt.getTime() + 23 * HOUR))).toBe(1);
    expect(warmupDay(createdAt, new Date(createdAt.getTime() + 24 * HOUR))).toBe(2);
    expect(warmupDay(createdAt, new Date(createdAt.getTime() + 7 * 24 * HOUR - 1))).toBe(7);
    expect(warmupDay(createdAt, new Date(createdAt.getTime() + 7 * 24 * HOUR))).toBeNull();
  });

  it('sends 50 on day 1, 100 on day 2, 200 on day 3; the rest waits for the next day', async () => {
    const id = await campaignTo(400);
    expect((await status()).emailWarmup).toMatchObject({ day: 1, limit: 50, sentToday: 0, remainingToday: 50 });

    let run = await deliverCampaign(deps, 'email', id);
    expect(run.sent).toBe(50);
    expect(await sentOf(id)).toBe(50);
    // The engine comes back when day 2 starts, not before.
    expect(run.retryAt?.getTime()).toBe(createdAt.getTime() + 24 * HOUR);
    expect(jobs.at(-1)).toMatchObject({ name: 'campaign-deliver' });
    expect((await status()).emailWarmup).toMatchObject({ day: 1, limit: 50, sentToday: 50, remainingToday: 0 });

    // Later the same day: nothing more goes.
    now = new Date(createdAt.getTime() + 20 * HOUR);
    run = await deliverCampaign(deps, 'email', id);
    expect(run.sent).toBe(0);
    expect(await sentOf(id)).toBe(50);

    now = new Date(createdAt.getTime() + 24 * HOUR + 60_000);
    run = await deliverCampaign(deps, 'email', id);
    expect(run.sent).toBe(100);
    expect(await sentOf(id)).toBe(150);
    expect(run.retryAt?.getTime()).toBe(createdAt.getTime() + 48 * HOUR);
    expect((await status()).emailWarmup).toMatchObject({ day: 2, limit: 100, sentToday: 100, nextDayLimit: 200 });

    now = new Date(createdAt.getTime() + 48 * HOUR + 60_000);
    run = await deliverCampaign(deps, 'email', id);
    expect(run.sent).toBe(200);
    expect(await sentOf(id)).toBe(350);

    // Day 4 allows 400: the last 50 go, and the campaign is finished.
    now = new Date(createdAt.getTime() + 72 * HOUR + 60_000);
    run = await deliverCampaign(deps, 'email', id);
    expect(run).toMatchObject({ sent: 50, finished: true });
    expect((await status()).emailWarmup).toMatchObject({ day: 4, limit: 400, sentToday: 50, remainingToday: 350 });
    const { status: campaignStatus } = await db
      .selectFrom('emailCampaigns')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(campaignStatus).toBe('sent');
  });

  it('counts every email of the church on the day together, and ends after the week', async () => {
    now = new Date(createdAt.getTime() + 72 * HOUR + 2 * 60_000);
    const id = await campaignTo(400);
    // 50 of day 4's 400 went above: 350 are left today.
    expect((await deliverCampaign(deps, 'email', id)).sent).toBe(350);

    now = new Date(createdAt.getTime() + 7 * 24 * HOUR + 60_000);
    expect((await status()).emailWarmup).toBeNull();
    expect(await deliverCampaign(deps, 'email', id)).toMatchObject({ sent: 50, finished: true });
    const big = await campaignTo(300);
    expect(await deliverCampaign(deps, 'email', big)).toMatchObject({ sent: 300, finished: true });
  });

  it('says before a send how much of it goes today', () => {
    const w = { day: 1, days: 7, limit: 50, sentToday: 10, remainingToday: 40, nextDayAt: '', nextDayLimit: 100 };
    expect(emailWarmupSendSentence(w, 40)).toBeNull();
    expect(emailWarmupSendSentence({ ...w, day: 7, nextDayLimit: null }, 41)).toBe(
      'Warming up: 40 of these emails go out today, the rest from the next day, when the warm-up ends.',
    );
    expect(emailWarmupSendSentence(w, 300)).toBe(
      'Warming up: 40 of these emails go out today, the rest from the next day, when up to 100 can go.',
    );
  });

  it('shows nothing when the platform has no warm-up', async () => {
    now = new Date(createdAt.getTime() + HOUR);
    const s = await getAccountStatus({ db, email: createOutboxTransport(db), now }, church.id);
    expect(s.emailWarmup).toBeNull();
  });
});
