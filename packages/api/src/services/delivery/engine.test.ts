import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { RawNode, type KyselyPlugin, type QueryId } from 'kysely';
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

/**
 * The engine's clock, moved by the tests (and a millisecond a reading, so no two claims share a
 * stamp): claims are stamped, leases run out and a claim's age is read on it, so nothing here
 * waits on real time, and a loaded machine cannot make a lease run out by itself.
 */
const clock = { ms: Date.now(), now: () => new Date((clock.ms += 1)) };
const LEASE_SECONDS = 60;

const config: DeliveryConfig = {
  ...defaultDeliveryConfig,
  claimLeaseSeconds: LEASE_SECONDS,
  clock: clock.now,
  retryBaseSeconds: 1,
  publicUrl: 'http://localhost',
  trackingSecret: 'test-secret',
  emailFrom: 'Lampstand <no-reply@localhost>',
  smsFromNumber: '+15005550006',
  // The real clock's time of day must not hold a text (quiet hours are tested with a clock of their own).
  smsQuietHours: false,
};

const campaignOf = (recipients: number) => sendingCampaignWith(db, church.id, recipients);

/** The lease of these claims ran out (as a worker's would, stalled a lease long), their stamps replaced. */
const expireClaims = (campaignId: number, where: { address?: string; notAddress?: string } = {}) =>
  db
    .updateTable('deliveries')
    .set({ claimedAt: new Date(clock.ms - 2 * LEASE_SECONDS * 1000) })
    .where('campaignId', '=', campaignId)
    .where('status', '=', 'sending')
    .$if(!!where.address, (q) => q.where('address', '=', where.address!))
    .$if(!!where.notAddress, (q) => q.where('address', '<>', where.notAddress!))
    .execute();

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

/** A promise and the function that resolves it. */
function gate() {
  let open = () => {};
  const closed = new Promise<void>((r) => (open = r));
  return { closed, open };
}

/**
 * A driver that records what it sent; `gate` holds every send until it resolves, `pause` the
 * `at`-th send (1 for the first).
 */
function recordingDriver(
  opts: {
    gate?: Promise<void>;
    pause?: { at: number; until: Promise<void> };
    fail?: boolean;
    concurrency?: number;
  } = {},
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
      if (started.length === opts.pause?.at) await opts.pause.until;
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
    await until(() => slow.started.length > 0);
    // The lease runs out while the first worker hangs; a second worker takes the delivery over.
    await expireClaims(campaignId);
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
      .set({ status: 'sending', claimedAt: new Date(clock.ms - 2 * LEASE_SECONDS * 1000), attempts: 1 })
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
    const first = gate();
    // One sender: the first send hangs while the rest of the batch waits in the queue.
    const slow = recordingDriver({ pause: { at: 1, until: first.closed }, concurrency: 1 });
    const stalled = runDeliveries(db, slow.driver, campaignId, config);
    await until(() => slow.started.length > 0);
    const inFlight = slow.started[0]!;
    // Past half the first worker's lease, the waiting ones are taken over (their leases ran out;
    // the one in flight stays the first worker's).
    clock.ms += (LEASE_SECONDS / 2) * 1000 + 1;
    await expireClaims(campaignId, { notAddress: inFlight });
    const other = recordingDriver();
    await runDeliveries(db, other.driver, campaignId, config);
    expect(other.sent).toHaveLength(11);
    // The first worker's send completes: it records that one, and sends none of the others.
    first.open();
    const late = await stalled;
    expect(slow.started).toEqual([inFlight]);
    expect(slow.sent).toEqual([inFlight]);
    expect(late.sent).toBe(1);
    expect(new Set([...slow.sent, ...other.sent]).size).toBe(12);
    expect(new Set(await statuses(campaignId))).toEqual(new Set(['sent']));
  });

  it('a worker whose lease ran out during a send does not claim that message back and send it again', async () => {
    // One sender, one batch (8 a sender): the last send of the batch outlasts its lease.
    const campaignId = await campaignOf(8);
    const last = gate();
    const w = recordingDriver({ pause: { at: 8, until: last.closed }, concurrency: 1 });
    const run = runDeliveries(db, w.driver, campaignId, config);
    await until(() => w.started.length === 8);
    // Its lease runs out (its stamp, the worker's fence, unchanged).
    clock.ms += 2 * LEASE_SECONDS * 1000;
    // The provider accepts it; the worker's next claim comes before the sent mark is written.
    last.open();
    const result = await run;
    expect(w.started).toHaveLength(8);
    expect(new Set(w.started).size).toBe(8);
    expect(result.sent).toBe(8);
    expect(new Set(await statuses(campaignId))).toEqual(new Set(['sent']));
  });

  it('a renewal whose answer arrives after the lease ran out is not trusted: another worker took the message, no second send', async () => {
    const campaignId = await campaignOf(1);
    // The renewal runs in the database, and its answer is held back (a stalled worker).
    const answer = gate();
    let renewed = false;
    const stalledDb = db.withPlugin(holdingRenewals(answer.closed, () => (renewed = true)));
    // The claim is past half its lease by its send: the pacer holds the worker meanwhile.
    const paced = gate();
    let pacing = false;
    const pacer = { take: () => ((pacing = true), paced.closed) } as unknown as Pacer;
    const slow = recordingDriver({ concurrency: 1 });
    const run = runDeliveries(stalledDb, slow.driver, campaignId, { ...config, pacer });
    await until(() => pacing);
    clock.ms += (LEASE_SECONDS / 2) * 1000 + 1;
    paced.open();
    await until(() => renewed);
    // While the answer is on its way the lease runs out, and another worker sends the message.
    await expireClaims(campaignId);
    const other = recordingDriver();
    await runDeliveries(db, other.driver, campaignId, config);
    expect(other.sent).toHaveLength(1);
    // The answer arrives more than a lease after the renewal was sent.
    clock.ms += LEASE_SECONDS * 1000 + 1;
    answer.open();
    await run;
    expect(slow.started).toEqual([]);
    expect(await statuses(campaignId)).toEqual(['sent']);
  });
});

/** Holds back the answer of every claim renewal until `release`; `held` once the first is held. */
function holdingRenewals(release: Promise<void>, held: () => void): KyselyPlugin {
  const renewals = new WeakSet<QueryId>();
  return {
    transformQuery({ node, queryId }) {
      // The claim primitive's renewal: an update that stamps a new lease on one row it still holds.
      if (RawNode.is(node) && /^\s*update\s+t set\s+=\s+where t\.id =/.test(node.sqlFragments.join(' ')))
        renewals.add(queryId);
      return node;
    },
    async transformResult({ queryId, result }) {
      if (renewals.has(queryId)) {
        held();
        await release;
      }
      return result;
    },
  };
}

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
