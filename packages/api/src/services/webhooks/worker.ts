import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { BackgroundWork, Round } from '../background/runner.js';
import { dispatchEvents } from './dispatch.js';
import { sendEndpointOffNotice } from './notice.js';
import { claimDeliveries, recordResults, tryDelivery, type SenderOptions, type TryResult } from './sender.js';
import { EVENTS_CHANNEL, WEBHOOKS_CHANNEL } from './wake.js';

export interface WebhookWorkerDeps {
  db: Db;
  email: EmailTransport;
  emailFrom: string;
  publicUrl: string;
  log?: (msg: string, fields: Record<string, unknown>) => void;
}

export interface WebhookWorkerOptions extends SenderOptions {
  /** Tries in flight at once in this process. */
  concurrency: number;
  /** Without a notification, look for new events and due retries this often. */
  sweepMs: number;
}

const FLUSH_EVERY = 200;
const FLUSH_AFTER_MS = 25;

/**
 * A worker process's webhook sender, as background work (background/runner.ts): each round
 * dispatches new events into deliveries (when a church recorded events, a notification on
 * EVENTS_CHANNEL, or at the sweep) and claims due deliveries for the free slots, `concurrency` tries
 * in flight at a time over kept-alive connections, their results written in batches. A try that
 * ends frees a slot and wakes the next round; a delivery due now is a notification on
 * WEBHOOKS_CHANNEL. Any number of workers share the work: claims skip what another holds, and a
 * dead worker's claims come due again when their lease ends (at least once, never lost).
 */
export function webhookWork(deps: WebhookWorkerDeps, opts: WebhookWorkerOptions): BackgroundWork & { sent(): number } {
  let inFlight = 0;
  let sent = 0;
  let dispatchWanted = true;
  let nextSweep = 0;
  let wake: Round['wake'] = () => {};
  let results: TryResult[] = [];
  // Deliveries this worker holds, from their claim until their result is written: a try that
  // outlasts its lease, or a result waiting for its batch, is not claimed back by this same worker
  // and sent a second time (another worker may take it over: at least once).
  const held = new Set<number>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let idle: (() => void) | null = null;

  /** Writes the results gathered so far (one batch at a time). */
  const flush = (): Promise<void> => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const batch = results;
    results = [];
    flushing = flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        const off = await recordResults(deps.db, batch, opts);
        for (const endpoint of off) {
          await sendEndpointOffNotice(deps, endpoint).catch((err: unknown) =>
            deps.log?.('webhook endpoint-off email not sent', { err, endpointId: endpoint.id }),
          );
        }
      } catch (err) {
        // Not written: the claims' leases run out and the deliveries are tried again (at least once).
        deps.log?.('webhook results not recorded', { err, count: batch.length });
      } finally {
        for (const r of batch) held.delete(r.id);
      }
    });
    return flushing;
  };

  const finished = (r: TryResult) => {
    inFlight--;
    sent++;
    results.push(r);
    if (results.length >= FLUSH_EVERY) void flush();
    else flushTimer ??= setTimeout(() => void flush(), FLUSH_AFTER_MS);
    if (inFlight <= opts.concurrency * 0.75) wake('slot');
    if (inFlight === 0) idle?.();
  };

  return {
    name: 'webhooks',
    everyMs: opts.sweepMs,
    channels: [EVENTS_CHANNEL, WEBHOOKS_CHANNEL],
    sent: () => sent,
    async run(round) {
      wake = round.wake;
      if (dispatchWanted || round.woken.has(EVENTS_CHANNEL) || Date.now() >= nextSweep) {
        dispatchWanted = false;
        nextSweep = Date.now() + opts.sweepMs;
        const { more } = await dispatchEvents(deps.db);
        if (more) dispatchWanted = true;
      }
      const free = opts.concurrency - inFlight;
      let claimed = 0;
      if (free >= Math.max(1, opts.concurrency / 4)) {
        const batch = await claimDeliveries(deps.db, free, opts.leaseSeconds, [...held]);
        claimed = batch.length;
        for (const d of batch) {
          held.add(d.id);
          inFlight++;
          void tryDelivery(d, opts).then(finished);
        }
      }
      // More events to dispatch, or a full claim (more may be due): at once. Otherwise wait for a
      // wake, a free slot or the sweep.
      if (dispatchWanted) return 0;
      if (claimed === 0 || claimed < free) return Math.max(0, nextSweep - Date.now());
      if (inFlight >= opts.concurrency) return opts.sweepMs;
      return 0;
    },
    /** The tries in flight finished and their results written. */
    async drain() {
      if (inFlight > 0) await new Promise<void>((r) => (idle = r));
      await flush();
    },
  };
}
