import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { defaultDeliveryConfig, type DeliveryConfig } from './config.js';
import { runDeliveries, type ChannelDriver, type Delivery } from './engine.js';
import { sendingCampaignWith } from './test-deps.js';
import type { Pacer } from './pacer.js';

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

const config: DeliveryConfig = {
  ...defaultDeliveryConfig,
  claimLeaseSeconds: 1,
  retryBaseSeconds: 1,
  publicUrl: 'http://localhost',
  trackingSecret: 'test-secret',
  emailFrom: 'Lampstand <no-reply@localhost>',
  smsFromNumber: '+15005550006',
};

const campaignOf = (recipients: number) => sendingCampaignWith(db, church.id, recipients);

/** A driver that records what it sent; `gate` holds every send until it resolves. */
function recordingDriver(
  opts: { gate?: Promise<void>; gateFirst?: Promise<void>; fail?: boolean; concurrency?: number } = {},
) {
  const sent: string[] = [];
  const started: string[] = [];
  const driver: ChannelDriver<{ id: number }> = {
    channel: 'email',
    async finish(id, outcome) {
      await sql`update email_campaigns set status = ${outcome}, sent_at = now() where id = ${id} and status = 'sending'`.execute(
        db,
      );
    },
    load: async (id) => ({ id }),
    async send(_c, d: Delivery) {
      started.push(d.address);
      await opts.gate;
      if (started.length === 1) await opts.gateFirst;
      if (opts.fail) throw new Error('connection lost');
      sent.push(d.address);
      return { providerMessageId: `<${d.id}>` };
    },
    concurrency: opts.concurrency ?? 2,
  };
  return { driver, sent, started };
}

const statuses = async (campaignId: number) =>
  (await db.selectFrom('deliveries').select('status').where('campaignId', '=', campaignId).orderBy('id').execute()).map(
    (d) => d.status,
  );

describe('runDeliveries across workers', () => {
  it('a worker whose lease ran out does not undo the worker that took over (no second send)', async () => {
    const campaignId = await campaignOf(1);
    let release = () => {};
    const slow = recordingDriver({ gate: new Promise<void>((r) => (release = r)), fail: true });
    const stalled = runDeliveries(db, slow.driver, campaignId, config);
    while (slow.started.length === 0) await new Promise((r) => setTimeout(r, 20));
    // The lease runs out while the first worker hangs; a second worker takes the delivery over.
    await db
      .updateTable('deliveries')
      .set({ claimedAt: new Date(Date.now() - 60_000) })
      .where('campaignId', '=', campaignId)
      .execute();
    const other = recordingDriver();
    const second = await runDeliveries(db, other.driver, campaignId, config);
    expect(other.sent).toHaveLength(1);
    expect(second.finished).toBe(true);
    // Now the first worker's send fails late: its retry must not put the sent delivery back.
    release();
    await stalled;
    expect(await statuses(campaignId)).toEqual(['sent']);
    const third = recordingDriver();
    await runDeliveries(db, third.driver, campaignId, config);
    expect(third.started).toEqual([]);
  });

  it('claims a dead worker left are sent once by another worker after the lease', async () => {
    const campaignId = await campaignOf(30);
    // The "dead" worker claimed a batch and never came back.
    await db
      .updateTable('deliveries')
      .set({ status: 'sending', claimedAt: new Date(Date.now() - 5_000), attempts: 1 })
      .where('campaignId', '=', campaignId)
      .where('address', 'like', 'p1%')
      .execute();
    const survivor = recordingDriver({ concurrency: 4 });
    const result = await runDeliveries(db, survivor.driver, campaignId, config);
    expect(result.finished).toBe(true);
    expect(new Set(survivor.sent).size).toBe(30);
    expect(survivor.sent).toHaveLength(30);
    expect(new Set(await statuses(campaignId))).toEqual(new Set(['sent']));
    const c = await db
      .selectFrom('emailCampaigns')
      .select('status')
      .where('id', '=', campaignId)
      .executeTakeFirstOrThrow();
    expect(c.status).toBe('sent');
  });

  it('a claim held past half its lease is renewed before its send, and skipped once another worker took it', async () => {
    const campaignId = await campaignOf(12);
    let release = () => {};
    // One sender: the first send hangs while the rest of the batch waits in the queue.
    const slow = recordingDriver({ gateFirst: new Promise<void>((r) => (release = r)), concurrency: 1 });
    const stalled = runDeliveries(db, slow.driver, campaignId, config);
    while (slow.started.length === 0) await new Promise((r) => setTimeout(r, 20));
    const inFlight = slow.started[0]!;
    // Past half the first worker's lease (1 s), the waiting ones are taken over (their claims made
    // old enough for the other worker's 60 s lease; the one in flight stays the first worker's).
    await new Promise((r) => setTimeout(r, 600));
    await db
      .updateTable('deliveries')
      .set({ claimedAt: new Date(Date.now() - 120_000) })
      .where('campaignId', '=', campaignId)
      .where('status', '=', 'sending')
      .where('address', '<>', inFlight)
      .execute();
    const other = recordingDriver();
    await runDeliveries(db, other.driver, campaignId, { ...config, claimLeaseSeconds: 60 });
    expect(other.sent).toHaveLength(11);
    // The first worker's send completes: it records that one, and sends none of the others.
    release();
    const late = await stalled;
    expect(slow.started).toEqual([inFlight]);
    expect(slow.sent).toEqual([inFlight]);
    expect(late.sent).toBe(1);
    expect(new Set([...slow.sent, ...other.sent]).size).toBe(12);
    expect(new Set(await statuses(campaignId))).toEqual(new Set(['sent']));
  });
});

describe('runDeliveries: recording and pacing', () => {
  it('marks messages accepted within the linger sent in one write, not one a message (group commit)', async () => {
    const campaignId = await campaignOf(20);
    const { driver, sent } = recordingDriver({ concurrency: 20 });
    // Every message in flight at once; the provider accepts one every 2 ms (over about 40 ms).
    const send = driver.send.bind(driver);
    let t0 = 0;
    let n = 0;
    driver.send = async (c, d) => {
      t0 ||= Date.now();
      const at = t0 + 2 * n++;
      await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
      return send(c, d);
    };
    const result = await runDeliveries(db, driver, campaignId, config);
    expect(result.sent).toBe(20);
    expect(sent).toHaveLength(20);
    // sent_at is now(), the time of the write's transaction: one value a write. Without the linger
    // each write took the one or two accepted during the write before it (about 20 writes).
    const writes = await sql<{ n: number }>`
      select count(distinct sent_at)::int as n from deliveries where campaign_id = ${campaignId}`.execute(db);
    expect(writes.rows[0]!.n).toBeGreaterThan(0);
    expect(writes.rows[0]!.n).toBeLessThanOrEqual(6);
  });

  it("sends at the pacer's pace", async () => {
    const campaignId = await campaignOf(10);
    const { driver, sent } = recordingDriver({ concurrency: 4 });
    const turns: number[] = [];
    const pacer = { take: (units = 1) => Promise.resolve(void turns.push(units)) } as unknown as Pacer;
    await runDeliveries(db, driver, campaignId, { ...config, pacer });
    expect(sent).toHaveLength(10);
    expect(turns).toEqual(Array.from({ length: 10 }, () => 1));
  });
});
