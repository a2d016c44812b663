import type { Db } from '@lampstand/db';
import { defaultSenderOptions, webhookWork, type BackgroundWork, type EmailTransport } from '@lampstand/api/server';
import type { Config } from '../config.js';
import type { JobLog } from '../logger.js';

/**
 * The outgoing webhooks of a worker process, as background work of the one runner: woken by
 * PostgreSQL notifications (events recorded for a church with an endpoint, a delivery due now; see
 * listen.ts), and every second without one (retries come due, a notification was missed).
 */
export function webhooksWork(
  config: Config,
  deps: { db: Db; email: EmailTransport; emailFrom: string },
  log: JobLog,
): BackgroundWork {
  return webhookWork(
    {
      db: deps.db,
      email: deps.email,
      emailFrom: deps.emailFrom,
      publicUrl: config.publicUrl,
      log: (msg, fields) => log(msg, { err: fields.err }),
    },
    {
      ...defaultSenderOptions(),
      reach: config.webhookReach,
      concurrency: config.webhookConcurrency,
      sweepMs: 1000,
      ...(config.webhookLeaseSeconds ? { leaseSeconds: config.webhookLeaseSeconds } : {}),
      ...(config.webhookRetryDelaysMs ? { retryDelaysMs: config.webhookRetryDelaysMs } : {}),
    },
  );
}
