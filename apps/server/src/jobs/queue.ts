import PgBoss from 'pg-boss';
import type { Db } from '@lampstand/db';
import { JOB_NAMES, runContactImport, type JobName, type JobPayloads, type JobQueue } from '@lampstand/api/server';

type Handler<N extends JobName> = (data: JobPayloads[N]) => Promise<void>;

/** What each job does; the logic lives in the api package's services. */
function handlers(db: Db): { [N in JobName]: Handler<N> } {
  return {
    'contact-import': ({ importId }) => runContactImport(db, importId),
  };
}

export interface JobRunner {
  queue: JobQueue;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  connectionString: string;
  db: Db;
  /** Run workers in this process (the web process by default; `pnpm worker` alone for scaling out). */
  work: boolean;
  pollingIntervalSeconds?: number;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * pg-boss on the same PostgreSQL: jobs survive restarts, and any number of processes on any
 * number of machines share the work (each job is fetched by one worker with SKIP LOCKED).
 */
export async function startJobs(opts: StartJobsOptions): Promise<JobRunner> {
  const log = opts.log ?? (() => {});
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 4, schema: 'pgboss', application_name: 'lampstand-jobs' });
  boss.on('error', (err) => log('[jobs] error', err));
  await boss.start();
  for (const name of JOB_NAMES) {
    await boss.createQueue(name, { name, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInMinutes: 60 });
  }
  const workerIds = new Map<JobName, string>();
  if (opts.work) {
    const h = handlers(opts.db);
    for (const name of JOB_NAMES) {
      const id = await boss.work<JobPayloads[typeof name]>(
        name,
        { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 },
        async (jobs) => {
          for (const job of jobs) {
            try {
              await h[name](job.data);
            } catch (err) {
              log(`[jobs] ${name} ${job.id} failed`, err);
              throw err;
            }
          }
        },
      );
      workerIds.set(name, id);
    }
  }
  return {
    queue: {
      async send(name, data, options) {
        const id = await boss.send(name, data as object, {
          ...(options?.startAfter ? { startAfter: options.startAfter } : {}),
          ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
        });
        // A worker in this process picks it up now instead of at its next poll.
        const local = workerIds.get(name);
        if (local && !options?.startAfter) boss.notifyWorker(local);
        return id;
      },
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
}
