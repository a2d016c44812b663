import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import { dispatchEvents } from './dispatch.js';
import { sendEndpointOffNotice } from './notice.js';
import { claimDeliveries, recordResults, tryDelivery, type SenderOptions, type TryResult } from './sender.js';

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
 * A worker process's webhook sender: dispatches new events into deliveries and sends due
 * deliveries, `concurrency` at a time over kept-alive connections, writing results in batches.
 * `wake('events')` when a church recorded events (NOTIFY), `wake('deliveries')` when one is due now;
 * without either it sweeps every `sweepMs` (retries come due, a notification was missed). Any
 * number of workers share the work: claims skip what another holds, and a dead worker's claims
 * come due again when their lease ends (at least once, never lost).
 */
export class WebhookWorker {
  private inFlight = 0;
  private stopping = false;
  private dispatchWanted = true;
  private signal: (() => void) | null = null;
  /** A poke came while no one waited: the next wait returns at once. */
  private poked = false;
  private results: TryResult[] = [];
  /**
   * Deliveries this worker holds, from their claim until their result is written: a try that
   * outlasts its lease, or a result waiting for its batch, is not claimed back by this same worker
   * and sent a second time (another worker may take it over: at least once).
   */
  private held = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private loop: Promise<void> | null = null;
  /** Tries sent since start (for the benchmark). */
  sent = 0;

  constructor(
    private readonly deps: WebhookWorkerDeps,
    private readonly opts: WebhookWorkerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  wake(what: 'events' | 'deliveries'): void {
    if (what === 'events') this.dispatchWanted = true;
    this.poke();
  }

  /** Stop claiming, finish the tries in flight and write their results. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.poke();
    await this.loop;
    while (this.inFlight > 0) await this.until(100);
    await this.flush();
  }

  private poke(): void {
    const s = this.signal;
    this.signal = null;
    if (s) s();
    else this.poked = true;
  }

  /** Waits for a poke (a wake, a try finished) or `ms`. */
  private until(ms: number): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.signal = null;
        resolve();
      }, ms);
      this.signal = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    let nextSweep = 0;
    while (!this.stopping) {
      try {
        if (this.dispatchWanted || Date.now() >= nextSweep) {
          this.dispatchWanted = false;
          nextSweep = Date.now() + this.opts.sweepMs;
          const { more } = await dispatchEvents(this.deps.db);
          if (more) this.dispatchWanted = true;
        }
        const free = this.opts.concurrency - this.inFlight;
        let claimed = 0;
        if (free >= Math.max(1, this.opts.concurrency / 4)) {
          const batch = await claimDeliveries(this.deps.db, free, this.opts.leaseSeconds, [...this.held]);
          claimed = batch.length;
          for (const d of batch) {
            this.held.add(d.id);
            this.inFlight++;
            void tryDelivery(d, this.opts).then((r) => this.finished(r));
          }
        }
        // A full claim: more may be due at once; otherwise wait for a wake, a free slot or the sweep.
        if (this.dispatchWanted) continue;
        if (claimed === 0 || claimed < free) await this.until(Math.max(0, nextSweep - Date.now()));
        else if (this.inFlight >= this.opts.concurrency) await this.until(this.opts.sweepMs);
      } catch (err) {
        this.deps.log?.('webhook worker step failed (tried again)', { err });
        await this.until(this.opts.sweepMs);
      }
    }
  }

  private finished(r: TryResult): void {
    this.inFlight--;
    this.sent++;
    this.results.push(r);
    if (this.results.length >= FLUSH_EVERY) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
    if (this.inFlight <= this.opts.concurrency * 0.75) this.poke();
  }

  /** Writes the results gathered so far (one batch at a time). */
  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.results;
    this.results = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        const off = await recordResults(this.deps.db, batch, this.opts);
        for (const endpoint of off) {
          await sendEndpointOffNotice(this.deps, endpoint).catch((err: unknown) =>
            this.deps.log?.('webhook endpoint-off email not sent', { err, endpointId: endpoint.id }),
          );
        }
      } catch (err) {
        // Not written: the claims' leases run out and the deliveries are tried again (at least once).
        this.deps.log?.('webhook results not recorded', { err, count: batch.length });
      } finally {
        for (const r of batch) this.held.delete(r.id);
      }
    });
    return this.flushing;
  }
}
