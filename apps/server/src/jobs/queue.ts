import PgBoss from 'pg-boss';
import type { JobLog } from '../logger.js';
import { buildStatementsInThread } from './statements-thread.js';
import { withStartupLock, type Db } from '@lampstand/db';
import {
  BadJobPayloadError,
  JOB_NAMES,
  deliverCampaign,
  parseJobPayload,
  deliverPlannerRequests,
  deliverPlannerNotices,
  runPlannerDue,
  deliverConversationReplies,
  processInboundTexts,
  deliverConversationDigest,
  deliverTaskNotices,
  deliverPortalMessages,
  runConversationDigests,
  runContactImport,
  startScheduledCampaign,
  sweepCampaigns,
  type DeliveryDeps,
  createWebhookPublisher,
  publishDueSocialPosts,
  sweepSocialPosts,
  sendDonationReceipt,
  chargeDueSchedules,
  sendGivingNotice,
  deliverStatements,
  failStatementRun,
  type ShowUpServices,
  compactContactCounts,
  deleteExpiredEvents,
  deliverJourney,
  runBirthdayTriggers,
  type SmsTransport,
  type DeliveryConfig,
  type EmailTransport,
  type JobName,
  type JobPayloads,
  type JobQueue,
} from '@lampstand/api/server';

type Handler<N extends JobName> = (data: JobPayloads[N]) => Promise<void>;

export interface JobDeps {
  db: Db;
  email: EmailTransport;
  sms: SmsTransport;
  delivery: DeliveryConfig;
  /** Payments and the card fee: recurring gifts are charged by a job (issue 30). */
  showUp: ShowUpServices;
}

/** What social publishing needs: the signed outgoing webhook as its publisher. */
const socialDepsOf = (d: JobDeps, queue: JobQueue, log: JobLog) => ({
  db: d.db,
  jobs: queue,
  config: d.delivery,
  publisher: createWebhookPublisher({
    reach: d.delivery.socialWebhookAllowPrivate ? 'private' : 'public',
    // The church sees only "The address could not be reached"; the reason goes to the log.
    log: (msg, fields) => log(msg, { err: fields }),
  }),
});

/** What each job does; the logic lives in the api package's services. */
function handlers(d: JobDeps, queue: JobQueue, log: JobLog, databaseUrl: string): { [N in JobName]: Handler<N> } {
  const deps: DeliveryDeps = { db: d.db, email: d.email, sms: d.sms, jobs: queue, config: d.delivery };
  const socialDeps = socialDepsOf(d, queue, log);
  return {
    'contact-import': ({ importId }) => runContactImport(d.db, importId),
    'campaign-start': ({ channel, campaignId, scheduledFor }) =>
      startScheduledCampaign(deps, channel, campaignId, scheduledFor),
    'campaign-deliver': async ({ channel, campaignId }) => {
      await deliverCampaign(deps, channel, campaignId);
    },
    'campaign-sweep': () => sweepCampaigns(deps),
    'social-post-publish': async ({ postId }) => {
      await publishDueSocialPosts(socialDeps, { postId });
    },
    'social-post-sweep': ({ force }) => sweepSocialPosts(socialDeps, { force }),
    'donation-receipt': ({ donationId }) =>
      sendDonationReceipt({ db: d.db, email: d.email, emailFrom: d.delivery.emailFrom }, donationId),
    'planner-request-deliver': async ({ planId }) => {
      await deliverPlannerRequests(deps, planId);
    },
    'planner-notice-deliver': async ({ planId }) => {
      await deliverPlannerNotices(deps, planId);
    },
    'planner-due': async () => {
      await runPlannerDue(deps, { now: new Date() });
    },
    'sms-inbound-process': async () => {
      await processInboundTexts({ db: d.db, jobs: queue, sms: d.sms }, d.delivery.smsFromNumber);
    },
    'conversation-reply-deliver': async ({ conversationId }) => {
      await deliverConversationReplies(deps, conversationId);
    },
    'conversation-digest': async () => {
      await runConversationDigests(deps, new Date());
    },
    'conversation-digest-deliver': async ({ userId }) => {
      await deliverConversationDigest(deps, userId);
    },
    'task-notice-deliver': async ({ userId }) => {
      await deliverTaskNotices(deps, userId);
    },
    'portal-deliver': async ({ userId }) => {
      await deliverPortalMessages(deps, userId);
    },
    'events-retention': async () => {
      await deleteExpiredEvents(d.db);
      // The same nightly maintenance: each church's contact counts of past days, one row a day.
      await compactContactCounts(d.db);
    },
    'journey-deliver': async ({ journeyId }) => {
      await deliverJourney(deps, journeyId);
    },
    'journey-birthdays': async () => {
      await runBirthdayTriggers(d.db, new Date());
    },
    'giving-charge-due': async () => {
      await chargeDueSchedules(
        { db: d.db, payments: d.showUp.payments, cardFee: d.showUp.cardFee, jobs: queue },
        { now: new Date() },
      );
    },
    'giving-statements-build': async ({ runId }) => {
      // An error marks the run failed (the screen shows it; staff start another); a worker that
      // died mid-run leaves it building, and the job run again goes on where it stopped.
      await buildStatementsInThread({ databaseUrl, jobs: queue }, runId).catch(async (err: unknown) => {
        await failStatementRun(d.db, runId, err instanceof Error ? err.message : String(err));
        throw err;
      });
    },
    'giving-statement-deliver': async ({ runId }) => {
      await deliverStatements(deps, runId);
    },
    'giving-notice': (input) =>
      sendGivingNotice(
        { db: d.db, email: d.email, emailFrom: d.delivery.emailFrom, publicUrl: d.delivery.publicUrl },
        input,
      ),
  };
}

export interface JobRunner {
  queue: JobQueue;
  /** Resume every sending campaign and start overdue scheduled ones (at start: what a stopped process left). */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  connectionString: string;
  deps: JobDeps;
  /** Run workers in this process (the web process by default; `pnpm worker` alone for scaling out). */
  work: boolean;
  pollingIntervalSeconds?: number;
  log?: JobLog;
  /** The queue's connections (default 6; DB_POOL_MAX caps it). */
  poolMax?: number;
}

/** How many jobs of each kind one process works on at once. */
const CONCURRENCY: Record<JobName, number> = {
  'contact-import': 1,
  'campaign-start': 2,
  'campaign-deliver': 4,
  'campaign-sweep': 1,
  'social-post-publish': 2,
  'social-post-sweep': 1,
  'donation-receipt': 2,
  'planner-request-deliver': 2,
  'events-retention': 1,
  'journey-deliver': 4,
  'journey-birthdays': 1,
  'giving-charge-due': 1,
  'giving-notice': 2,
  'giving-statements-build': 1,
  'giving-statement-deliver': 2,
  'conversation-reply-deliver': 2,
  'sms-inbound-process': 2,
  'planner-notice-deliver': 2,
  'planner-due': 1,
  'conversation-digest': 1,
  'conversation-digest-deliver': 2,
  'task-notice-deliver': 2,
  'portal-deliver': 2,
};

/**
 * Queues where one job waiting is enough (pg-boss's 'short' policy: a send while one waits is
 * dropped): each run does all there is, so asking again while one waits adds nothing.
 */
const ONE_WAITING: ReadonlySet<JobName> = new Set(['sms-inbound-process']);

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

/**
 * pg-boss on the same PostgreSQL: jobs survive restarts, and any number of processes on any
 * number of machines share the work (each job is fetched by one worker with SKIP LOCKED).
 */
export async function startJobs(opts: StartJobsOptions): Promise<JobRunner> {
  const log = opts.log ?? (() => {});
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    max: Math.min(6, opts.poolMax ?? 6),
    schema: 'pgboss',
    application_name: 'lampstand-jobs',
  });
  boss.on('error', (err) => log('job queue error', { err }));
  // pg-boss creates its schema and the queues on first start: one process at a time (see withStartupLock).
  await withStartupLock(opts.deps.db, async () => {
    await boss.start();
    await createQueues(boss);
  });
  const workerIds = new Map<JobName, string[]>();
  const queue: JobQueue = {
    async send(name, data, options) {
      const id = await boss.send(name, parseJobPayload(name, data), {
        ...(options?.startAfter ? { startAfter: options.startAfter } : {}),
        ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options?.singletonSeconds ? { singletonSeconds: options.singletonSeconds } : {}),
        ...(options?.retryLimit !== undefined ? { retryLimit: options.retryLimit } : {}),
      });
      // A worker in this process picks it up now instead of at its next poll.
      if (!options?.startAfter || options.startAfter.getTime() <= Date.now()) {
        for (const w of workerIds.get(name) ?? []) boss.notifyWorker(w);
      }
      return id;
    },
    async cancel(name, id) {
      await boss.cancel(name, id);
    },
  };
  const h = handlers(opts.deps, queue, log, opts.connectionString);
  if (opts.work) {
    for (const name of JOB_NAMES) {
      const ids: string[] = [];
      for (let i = 0; i < CONCURRENCY[name]; i++) {
        ids.push(
          await boss.work<JobPayloads[typeof name]>(
            name,
            { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 },
            async (jobs) => {
              for (const job of jobs) {
                try {
                  await (h[name] as Handler<typeof name>)(parseJobPayload(name, job.data));
                } catch (err) {
                  if (err instanceof BadJobPayloadError) {
                    // The same payload would fail again: this failure is the job's last (its retry
                    // limit brought down to the tries it has had), and the handler never ran.
                    await boss
                      .getDb()
                      .executeSql('update pgboss.job set retry_limit = retry_count where name = $1 and id = $2', [
                        name,
                        job.id,
                      ]);
                    log('job refused: bad payload (not retried)', { err, job: name, jobId: job.id });
                  } else log('job failed (pg-boss retries it)', { err, job: name, jobId: job.id });
                  throw err;
                }
              }
            },
          ),
        );
      }
      workerIds.set(name, ids);
    }
    await boss.schedule('campaign-sweep', '* * * * *', {}, { singletonKey: 'sweep' });
    await boss.schedule('social-post-sweep', '* * * * *', {}, { singletonKey: 'social-sweep' });
    // Daily, at a quiet hour (UTC): the events past each church's retention.
    await boss.schedule('events-retention', '17 3 * * *', {}, { singletonKey: 'events-retention' });
    // Birthdays fire at 9:00 in each church's time zone: every quarter hour, each church whose 9:00 has come.
    await boss.schedule('journey-birthdays', '*/15 * * * *', {}, { singletonKey: 'journey-birthdays' });
    // Every 5 minutes: recurring gifts whose date (or retry) has come (issue 30 §4).
    await boss.schedule('giving-charge-due', '*/5 * * * *', {}, { singletonKey: 'giving-charge-due' });
    // Every 5 minutes: the planner's reminders and cover offers that ran out (issue 31 §6–7).
    await boss.schedule('planner-due', '*/5 * * * *', {}, { singletonKey: 'planner-due' });
    // Every minute: incoming texts stored while no worker was asked (a web process that stopped).
    await boss.schedule('sms-inbound-process', '* * * * *', {}, { singletonKey: 'sms-inbound' });
    // Every 5 minutes: staff email digests of unread conversations that are due (issue 32 §2).
    await boss.schedule('conversation-digest', '*/5 * * * *', {}, { singletonKey: 'conversation-digest' });
  }
  return {
    queue,
    async sweep() {
      const d = opts.deps;
      await sweepCampaigns({ db: d.db, email: d.email, sms: d.sms, jobs: queue, config: d.delivery }, { force: true });
      await sweepSocialPosts(socialDepsOf(opts.deps, queue, log), { force: true });
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
}
