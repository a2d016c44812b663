import pg from 'pg';
import type { Db } from '@lampstand/db';
import {
  EVENTS_CHANNEL,
  WEBHOOKS_CHANNEL,
  WebhookWorker,
  defaultSenderOptions,
  type EmailTransport,
} from '@lampstand/api/server';
import type { Config } from '../config.js';
import type { JobLog } from '../logger.js';

export interface WebhookRunner {
  worker: WebhookWorker;
  stop(): Promise<void>;
}

/**
 * The outgoing webhooks of a worker process: a `WebhookWorker` woken by PostgreSQL notifications
 * (events recorded for a church with an endpoint, a delivery due now) on a connection of its own,
 * which reconnects when lost; the worker's sweep covers what came meanwhile.
 */
export async function startWebhookWorker(
  config: Config,
  deps: { db: Db; email: EmailTransport; emailFrom: string; databaseUrl: string },
  log: JobLog,
): Promise<WebhookRunner> {
  const defaults = defaultSenderOptions();
  const worker = new WebhookWorker(
    {
      db: deps.db,
      email: deps.email,
      emailFrom: deps.emailFrom,
      publicUrl: config.publicUrl,
      log: (msg, fields) => log(msg, { err: fields.err }),
    },
    {
      ...defaults,
      reach: config.webhookReach,
      concurrency: config.webhookConcurrency,
      sweepMs: 1000,
      ...(config.webhookLeaseSeconds ? { leaseSeconds: config.webhookLeaseSeconds } : {}),
      ...(config.webhookRetryDelaysMs ? { retryDelaysMs: config.webhookRetryDelaysMs } : {}),
    },
  );
  let stopped = false;
  let client: pg.Client | null = null;
  const listen = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: deps.databaseUrl, application_name: 'lampstand-webhooks' });
    c.on('notification', (n) => worker.wake(n.channel === EVENTS_CHANNEL ? 'events' : 'deliveries'));
    c.on('error', (err) => {
      log('webhook listener lost its connection (reconnecting)', { err });
      client = null;
      c.end().catch(() => {});
      if (!stopped) setTimeout(() => void listen().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`listen ${EVENTS_CHANNEL}; listen ${WEBHOOKS_CHANNEL}`);
    client = c;
    worker.wake('events');
  };
  await listen();
  worker.start();
  return {
    worker,
    async stop() {
      stopped = true;
      await worker.stop();
      await client?.end().catch(() => {});
    },
  };
}
