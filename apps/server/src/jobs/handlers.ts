import type { JobLog } from '../logger.js';
import { buildStatementsInThread } from './statements-thread.js';
import type { Db } from '@lampstand/db';
import {
  deliverCampaign,
  deliverPlannerRequests,
  deliverPlannerNotices,
  runPlannerDue,
  deliverConversationReplies,
  processInboundTexts,
  deliverConversationDigest,
  deliverTaskNotices,
  deliverPortalMessages,
  deliverGroupMessages,
  runConversationDigests,
  runContactImport,
  runMoveInImport,
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
  maintainOwnSearchIndexes,
  deleteExpiredEvents,
  deliverJourney,
  runBirthdayTriggers,
  runMissedEventTriggers,
  runChurchExport,
  deliverRegistrationMessages,
  runCalendarDue,
  expireExports,
  type FileStorage,
  type SmsTransport,
  type DeliveryConfig,
  type EmailTransport,
  type JobName,
  type JobPayloads,
  type JobQueue,
} from '@lampstand/api/server';

// The queued jobs (pg-boss): what each kind does and how many of it one process works on at once.
// A new kind of job is a payload schema in the api package's jobs.ts and one entry in each table
// here; the one runner (runner.ts) fetches and works them.

export type Handler<N extends JobName> = (data: JobPayloads[N]) => Promise<void>;

export interface JobDeps {
  db: Db;
  email: EmailTransport;
  sms: SmsTransport;
  delivery: DeliveryConfig;
  /** Payments and the card fee: recurring gifts are charged by a job. */
  showUp: ShowUpServices;
  /** Uploaded files, and where a church's "Export everything" ZIP is kept. */
  storage: FileStorage;
}

/** What social publishing needs: the signed outgoing webhook as its publisher. */
export const socialDepsOf = (d: JobDeps, queue: JobQueue, log: JobLog) => ({
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
export function jobHandlers(
  d: JobDeps,
  queue: JobQueue,
  log: JobLog,
  databaseUrl: string,
): { [N in JobName]: Handler<N> } {
  const deps: DeliveryDeps = { db: d.db, email: d.email, sms: d.sms, jobs: queue, config: d.delivery };
  const socialDeps = socialDepsOf(d, queue, log);
  return {
    'contact-import': ({ importId }) => runContactImport(d.db, importId),
    'move-in-import': ({ importId }) =>
      runMoveInImport(d.db, importId, { storage: d.storage, pacer: d.delivery.pacer }),
    'campaign-start': ({ channel, campaignId, scheduledFor }) =>
      startScheduledCampaign(deps, channel, campaignId, scheduledFor),
    'campaign-deliver': async ({ channel, campaignId }) => {
      await deliverCampaign(deps, channel, campaignId);
    },
    'campaign-sweep': () => sweepCampaigns(deps),
    'social-post-publish': async ({ postId }) => {
      await publishDueSocialPosts(socialDeps, { postId });
    },
    'social-post-drain': async () => {
      await publishDueSocialPosts(socialDeps);
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
    'group-message-deliver': async ({ userId }) => {
      await deliverGroupMessages(deps, userId);
    },
    'events-retention': async () => {
      await deleteExpiredEvents(d.db);
      // The same nightly maintenance: each church's contact counts of past days, one row a day.
      await compactContactCounts(d.db);
      // And the large churches' own contact search indexes (made, or dropped once not needed).
      await maintainOwnSearchIndexes(d.db);
      // And the export ZIPs whose 24 hours are over.
      await expireExports({ db: d.db, storage: d.storage });
    },
    'journey-deliver': async ({ journeyId }) => {
      await deliverJourney(deps, journeyId);
    },
    'journey-birthdays': async () => {
      await runBirthdayTriggers(d.db, new Date());
      // The same clock: registrations whose event ended without a check-in ('did not attend').
      await runMissedEventTriggers(d.db, new Date());
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
    'registration-deliver': async ({ userId }) => {
      await deliverRegistrationMessages(deps, userId);
    },
    'calendar-due': async () => {
      await runCalendarDue({ db: d.db, payments: d.showUp.payments, jobs: queue, publicUrl: d.delivery.publicUrl });
    },
    'church-export': ({ exportId }) =>
      runChurchExport({ db: d.db, storage: d.storage, email: d.email, config: d.delivery }, exportId),
    'giving-notice': (input) =>
      sendGivingNotice(
        { db: d.db, email: d.email, emailFrom: d.delivery.emailFrom, publicUrl: d.delivery.publicUrl },
        input,
      ),
  };
}

/** How many jobs of each kind one process works on at once. */
export const CONCURRENCY: Record<JobName, number> = {
  'contact-import': 1,
  'move-in-import': 1,
  'campaign-start': 2,
  'campaign-deliver': 4,
  'campaign-sweep': 1,
  'social-post-publish': 2,
  'social-post-drain': 2,
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
  'group-message-deliver': 2,
  'church-export': 1,
  'registration-deliver': 2,
  'calendar-due': 1,
};

/** Jobs queued on a clock (cron, UTC), by whichever process's pg-boss keeps the schedule. */
export const SCHEDULES: readonly { name: JobName; cron: string; key: string }[] = [
  { name: 'campaign-sweep', cron: '* * * * *', key: 'sweep' },
  { name: 'social-post-sweep', cron: '* * * * *', key: 'social-sweep' },
  // Daily, at a quiet hour: the events past each church's retention.
  { name: 'events-retention', cron: '17 3 * * *', key: 'events-retention' },
  // Birthdays fire at 9:00 in each church's time zone: every quarter hour, each church whose 9:00 has come.
  { name: 'journey-birthdays', cron: '*/15 * * * *', key: 'journey-birthdays' },
  // Recurring gifts whose date (or retry) has come.
  { name: 'giving-charge-due', cron: '*/5 * * * *', key: 'giving-charge-due' },
  // The planner's reminders and cover offers that ran out.
  { name: 'planner-due', cron: '*/5 * * * *', key: 'planner-due' },
  // Incoming texts stored while no worker was asked (a web process that stopped).
  { name: 'sms-inbound-process', cron: '* * * * *', key: 'sms-inbound' },
  // Staff email digests of unread conversations that are due.
  { name: 'conversation-digest', cron: '*/5 * * * *', key: 'conversation-digest' },
  // Seat holds and waitlist offers that ran out, and registration refunds due.
  { name: 'calendar-due', cron: '* * * * *', key: 'calendar-due' },
];
