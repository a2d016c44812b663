import {
  startBackground,
  sweepCampaigns,
  sweepSocialPosts,
  type BackgroundWork,
  type JobQueue,
} from '@lampstand/api/server';
import type { Config } from '../config.js';
import type { JobLog } from '../logger.js';
import { jobHandlers, socialDepsOf, type JobDeps } from './handlers.js';
import { journeyWork } from './journeys.js';
import { listenTo } from './listen.js';
import { openJobQueue, queuedJobsWork } from './queue.js';
import { webhooksWork } from './webhooks.js';

export type { JobDeps } from './handlers.js';

export interface JobRunner {
  queue: JobQueue;
  /** Resume every sending campaign and start overdue scheduled ones (at start: what a stopped process left). */
  sweep(): Promise<void>;
  /** Run a background work's next round now (`jobs`, `journeys`, `webhooks`). */
  wake(name: string): void;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  /** pg-boss's connection (the tables' owner when the app logs in as its own role). */
  connectionString: string;
  /**
   * The runner's LISTEN connection (a session of its own, so never through a pooler in transaction
   * mode); null: no LISTEN, the background work finds its work by polling alone.
   */
  listenUrl: string | null;
  config: Config;
  deps: JobDeps;
  /** Run background work in this process (the web process by default; `pnpm worker` alone for scaling out). */
  work: boolean;
  /** How often the queued jobs are looked for without a wake (default 2 s). */
  pollingIntervalSeconds?: number;
  log?: JobLog;
  /** The queue's connections (default 6; DB_POOL_MAX caps it). */
  poolMax?: number;
}

/**
 * The one way background work runs: a runner (the api package's background/runner.ts) hosting
 * definitions. The queued jobs of pg-boss are one of them (queue.ts; each kind of job a handler in
 * handlers.ts, cron schedules included), beside the journeys (journeys.ts) and the outgoing
 * webhooks (webhooks.ts), woken by PostgreSQL notifications on one connection (listen.ts). A
 * process that does not work only sends jobs.
 */
export async function startJobs(opts: StartJobsOptions): Promise<JobRunner> {
  const log = opts.log ?? (() => {});
  const d = opts.deps;
  const jobs = await openJobQueue({ connectionString: opts.connectionString, db: d.db, log, poolMax: opts.poolMax });
  const queue = jobs.queue;
  const sweep = async () => {
    await sweepCampaigns({ db: d.db, email: d.email, sms: d.sms, jobs: queue, config: d.delivery }, { force: true });
    await sweepSocialPosts(socialDepsOf(d, queue, log), { force: true });
  };
  if (!opts.work) return { queue, sweep, wake: () => {}, stop: () => jobs.stop() };

  const works: BackgroundWork[] = [
    queuedJobsWork(jobs.boss, jobHandlers(d, queue, log, opts.connectionString), {
      pollMs: (opts.pollingIntervalSeconds ?? 2) * 1000,
      log,
    }),
    journeyWork({ db: d.db, jobs: queue, email: d.email, sms: d.sms, config: d.delivery }),
    webhooksWork(opts.config, { db: d.db, email: d.email, emailFrom: d.delivery.emailFrom }, log),
  ];
  await jobs.schedule();
  const runner = startBackground(works, { log });
  jobs.onSend((name) => runner.wake('jobs', name));
  const channels = [...new Set(works.flatMap((w) => w.channels ?? []))];
  if (!opts.listenUrl)
    log(
      'background work polls: no LISTEN behind a transaction pooler (set DATABASE_LISTEN_URL to be woken at once)',
      {},
    );
  const listener = await listenTo(opts.listenUrl, channels, (ch) => runner.notify(ch), log).catch(
    async (err: unknown) => {
      await runner.stop();
      await jobs.stop();
      throw err;
    },
  );
  return {
    queue,
    sweep,
    wake: (name) => runner.wake(name),
    async stop() {
      await runner.stop();
      await listener.stop();
      await jobs.stop();
    },
  };
}
