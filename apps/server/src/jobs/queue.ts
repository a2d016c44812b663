import PgBoss from 'pg-boss';
import type { JobLog } from '../logger.js';
import { withStartupLock, type Db } from '@lampstand/db';
import {
  BadJobPayloadError,
  JOB_NAMES,
  parseJobPayload,
  type BackgroundWork,
  type JobName,
  type JobQueue,
  type Round,
} from '@lampstand/api/server';
import { CONCURRENCY, SCHEDULES, type Handler } from './handlers.js';

/**
 * Queues where one job waiting is enough (pg-boss's 'short' policy: a send while one waits is
 * dropped): each run does all there is, so asking again while one waits adds nothing.
 */
const ONE_WAITING: ReadonlySet<JobName> = new Set(['sms-inbound-process', 'social-post-drain']);

/** How long a stopping process waits for the jobs it is working on before failing them (pg-boss retries them). */
const STOP_WAIT_MS = 20_000;

async function createQueues(boss: PgBoss): Promise<void> {
  for (const name of JOB_NAMES) {
    await boss.createQueue(name, {
      name,
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInMinutes: 60,
      ...(ONE_WAITING.has(name) ? { policy: 'short' as const } : {}),
    });
  }
}

/**
 * pg-boss's schema and every queue in a database, then stop: what the first start would make. The
 * tests build it once into the template database each test file copies.
 */
export async function installJobQueue(connectionString: string): Promise<void> {
  const boss = new PgBoss({ connectionString, max: 2, schema: 'pgboss', supervise: false, schedule: false });
  await boss.start();
  await createQueues(boss);
  await boss.stop({ graceful: true, wait: true });
}

export interface JobQueueHandle {
  boss: PgBoss;
  queue: JobQueue;
  /** Called after a send of a job that may start now (this process's runner looks at once). */
  onSend(listener: (name: JobName) => void): void;
  /** Keeps the schedules (cron) of SCHEDULES: in a process that works. */
  schedule(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the same PostgreSQL: jobs survive restarts, and any number of processes on any number
 * of machines share the work (each job is fetched by one worker with SKIP LOCKED).
 */
export async function openJobQueue(opts: {
  connectionString: string;
  db: Db;
  log: JobLog;
  /** The queue's connections (default 6; DB_POOL_MAX caps it). */
  poolMax?: number;
}): Promise<JobQueueHandle> {
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: Math.min(6, opts.poolMax ?? 6),
    schema: 'pgboss',
    application_name: 'lampstand-jobs',
  });
  boss.on('error', (err) => opts.log('job queue error', { err }));
  // pg-boss creates its schema and the queues on first start: one process at a time (see withStartupLock).
  await withStartupLock(opts.db, async () => {
    await boss.start();
    await createQueues(boss);
  });
  const listeners: ((name: JobName) => void)[] = [];
  const queue: JobQueue = {
    async send(name, data, options) {
      const id = await boss.send(name, parseJobPayload(name, data), {
        ...(options?.startAfter ? { startAfter: options.startAfter } : {}),
        ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options?.singletonSeconds ? { singletonSeconds: options.singletonSeconds } : {}),
        ...(options?.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
      });
      if (!options?.startAfter || options.startAfter.getTime() <= Date.now()) for (const l of listeners) l(name);
      return id;
    },
    async cancel(name, id) {
      await boss.cancel(name, id);
    },
  };
  return {
    boss,
    queue,
    onSend: (listener) => void listeners.push(listener),
    async schedule() {
      for (const s of SCHEDULES) await boss.schedule(s.name, s.cron, {}, { singletonKey: s.key });
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: STOP_WAIT_MS });
    },
  };
}

/** The queues with a job that may start now, of `names`: one statement for every queue. */
async function readyQueues(boss: PgBoss, names: readonly JobName[]): Promise<JobName[]> {
  const { rows }: { rows: { name: JobName }[] } = await boss
    .getDb()
    .executeSql(
      `select name from pgboss.job where name = any($1::text[]) and state < 'active' and start_after < now() group by name`,
      [names],
    );
  return rows.map((r) => r.name);
}

/** `work` failed when it outlasts the job's expiry (as pg-boss's own workers do); it is not stopped. */
async function withinSeconds(work: Promise<void>, seconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`handler execution exceeded ${Math.max(1, seconds)} s`)),
      Math.max(1, seconds) * 1000,
    );
  });
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The queued jobs as background work of the one runner: each round asks which queues have a job
 * that may start (one statement for all of them, where a worker per queue and slot each polled
 * pg-boss on its own) and fetches as many as each kind has free slots (CONCURRENCY). A job that ends
 * frees its slot and wakes the next round; a job sent by this process wakes it too. A job that
 * throws is failed, and pg-boss retries it with back-off (a bad payload is failed for good).
 */
export function queuedJobsWork(
  boss: PgBoss,
  handlers: { [N in JobName]: Handler<N> },
  opts: { pollMs: number; log: JobLog },
): BackgroundWork {
  const running = new Map<JobName, Set<string>>(JOB_NAMES.map((n) => [n, new Set<string>()]));
  const inFlight = new Set<Promise<void>>();
  let wake: Round['wake'] = () => {};

  const work = async (name: JobName, job: PgBoss.Job<unknown>): Promise<void> => {
    try {
      await withinSeconds(
        (handlers[name] as Handler<typeof name>)(parseJobPayload(name, job.data)),
        job.expireInSeconds,
      );
      await boss.complete(name, job.id);
    } catch (err) {
      if (err instanceof BadJobPayloadError) {
        // The same payload would fail again: this failure is the job's last (its retry limit
        // brought down to the tries it has had), and the handler never ran.
        await boss
          .getDb()
          .executeSql('update pgboss.job set retry_limit = retry_count where name = $1 and id = $2', [name, job.id]);
        opts.log('job refused: bad payload (not retried)', { err, job: name, jobId: job.id });
      } else opts.log('job failed (pg-boss retries it)', { err, job: name, jobId: job.id });
      await boss.fail(name, job.id, err as object);
    }
  };

  return {
    name: 'jobs',
    everyMs: opts.pollMs,
    async run(round) {
      wake = round.wake;
      const free = JOB_NAMES.filter((n) => running.get(n)!.size < CONCURRENCY[n]);
      if (free.length === 0) return;
      for (const name of await readyQueues(boss, free)) {
        const slots = running.get(name)!;
        const jobs = await boss.fetch<unknown>(name, { batchSize: CONCURRENCY[name] - slots.size });
        for (const job of jobs) {
          slots.add(job.id);
          const done: Promise<void> = work(name, job)
            .catch((err: unknown) => opts.log('job outcome not recorded', { err, job: name, jobId: job.id }))
            .finally(() => {
              slots.delete(job.id);
              inFlight.delete(done);
              wake(name);
            });
          inFlight.add(done);
        }
      }
    },
    /** The jobs in flight end, or after STOP_WAIT_MS are failed (pg-boss gives them to another worker). */
    async drain() {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((r) => (timer = setTimeout(r, STOP_WAIT_MS)));
      await Promise.race([Promise.allSettled([...inFlight]), waited]);
      clearTimeout(timer);
      for (const [name, ids] of running)
        for (const id of ids) await boss.fail(name, id, { message: 'shut down while active' }).catch(() => {});
    },
  };
}
