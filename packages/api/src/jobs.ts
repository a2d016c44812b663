import { z } from 'zod';
import { MAX_ID } from './schemas/common.js';

/** A row id in a job's payload: a number as the sender wrote it (a numeric string is a bad payload). */
const rowId = z.number().int().positive().max(MAX_ID);
const channel = z.enum(['email', 'sms']);

/**
 * Background jobs the services can ask for, and the one schema of each job's payload; the server
 * backs this with pg-boss on the same PostgreSQL. A payload is checked when it is sent and again
 * when a worker starts the job (`parseJobPayload`): a bad one fails once, naming the job and the
 * field, and its handler never runs. Strict objects: a misspelt key is an error, not a default.
 */
export const jobPayloadSchemas = {
  'contact-import': z.strictObject({ importId: rowId }),
  /** Commit a confirmed move-in import (people or gifts from another system), resuming where it stopped. */
  'move-in-import': z.strictObject({ importId: rowId }),
  /** A scheduled campaign's time has come (ignored if it was rescheduled or sent meanwhile). */
  'campaign-start': z.strictObject({ channel, campaignId: rowId, scheduledFor: z.iso.datetime() }),
  /** Send a campaign's pending deliveries; several may run at once for one campaign. */
  'campaign-deliver': z.strictObject({ channel, campaignId: rowId }),
  /** Every minute: resume campaigns left sending by a dead worker, start overdue scheduled ones. */
  'campaign-sweep': z.strictObject({}),
  /**
   * Publish a social post whose time has come (nothing if it was moved, deleted or published), then
   * every other due post; without `postId`, every due post.
   */
  'social-post-publish': z.strictObject({ postId: rowId.optional() }),
  /**
   * Publish every due post: the few jobs the sweep queues for due posts with no job coming. One
   * waiting per key is enough (its run takes every due post), so a sweep while one waits adds none.
   */
  'social-post-drain': z.strictObject({}),
  /** Every minute: queue due social posts that have no job coming (lost jobs, dead workers); `force` takes every due one now. */
  'social-post-sweep': z.strictObject({ force: z.boolean().optional() }),
  /** Email a completed gift's receipt (once; retried by pg-boss while the mail server refuses). */
  'donation-receipt': z.strictObject({ donationId: rowId }),
  /** Send a service plan's pending requests to serve (deliveries of kind 'planner-request'). */
  'planner-request-deliver': z.strictObject({ planId: rowId }),
  /** Charge the recurring gifts that are due: every few minutes, and when a card is saved. */
  'giving-charge-due': z.strictObject({}),
  /** Email about a recurring gift: the card failed (to the donor), it is failing (to staff), 3-D Secure asked. */
  'giving-notice': z.strictObject({
    kind: z.enum(['card-failed', 'schedule-failing', 'action-required']),
    scheduleId: rowId,
    giftId: rowId.optional(),
  }),
  /** Send a service plan's reminders, cover offers and leader notices (deliveries of kind 'planner-notice'). */
  'planner-notice-deliver': z.strictObject({ planId: rowId }),
  /** Every 5 minutes: reminders whose time has come, cover offers nobody took in time. */
  'planner-due': z.strictObject({}),
  /** Build a giving statement run's PDFs, then queue its emails and the PDF to print. */
  'giving-statements-build': z.strictObject({ runId: rowId }),
  /** Email a run's giving statements (deliveries of kind 'giving-statement'), each with its PDF. */
  'giving-statement-deliver': z.strictObject({ runId: rowId }),
  /** Every five minutes: the staff email digests of unread conversations that are due (one per login and period). */
  'conversation-digest': z.strictObject({}),
  /** Send a login's pending digest (a delivery of kind 'conversation-digest'). */
  'conversation-digest-deliver': z.strictObject({ userId: rowId }),
  /** Send a church's pending follow-up task emails (deliveries of kind 'task-notice'). */
  'task-notice-deliver': z.strictObject({ userId: rowId }),
  /** Send a church's pending members' portal messages (deliveries of kind 'portal': sign-in links and codes). */
  'portal-deliver': z.strictObject({ userId: rowId }),
  /** Send a church's pending messages of group leaders to their groups (deliveries of kind 'group-message'). */
  'group-message-deliver': z.strictObject({ userId: rowId }),
  /**
   * Process the incoming texts the webhook stored (their conversations, events, keyword actions), in
   * batches, until none is left: asked for when texts come in, and every minute (nothing waits forever).
   */
  'sms-inbound-process': z.strictObject({}),
  /** Send a conversation's pending replies (deliveries of kind 'conversation-reply'). */
  'conversation-reply-deliver': z.strictObject({ conversationId: rowId }),
  /** Daily: delete each church's events older than its retention (Settings → 'Keep activity for'). */
  'events-retention': z.strictObject({}),
  /** Send a journey's pending messages (deliveries of kind 'journey'), email and SMS. */
  'journey-deliver': z.strictObject({ journeyId: rowId }),
  /** Every 15 minutes: people whose birthday it is (9:00 or later in the church's time zone) enter birthday journeys. */
  'journey-birthdays': z.strictObject({}),
  /** Send a church's pending registration messages (deliveries of kind 'registration'). */
  'registration-deliver': z.strictObject({ userId: rowId }),
  /**
   * Every minute: seat holds and waitlist offers that ran out (their seats offered to the next
   * person waiting), and registration refunds due.
   */
  'calendar-due': z.strictObject({}),
  /** Build a church's "Export everything" ZIP, store it and email its link. */
  'church-export': z.strictObject({ exportId: rowId }),
} satisfies Record<string, z.ZodType<object>>;

export type JobName = keyof typeof jobPayloadSchemas;
export const JOB_NAMES = Object.keys(jobPayloadSchemas) as JobName[];
export type JobPayloads = { [N in JobName]: z.output<(typeof jobPayloadSchemas)[N]> };

/** A job's payload that does not match its schema: not worth a retry, the same payload fails again. */
export class BadJobPayloadError extends Error {
  constructor(
    readonly job: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    const where = issues.map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`).join('; ');
    super(`Job ${job} has a bad payload: ${where}`);
    this.name = 'BadJobPayloadError';
  }
}

/** `data` as job `name`'s payload, or a `BadJobPayloadError` naming the job and each bad field. */
export function parseJobPayload<N extends JobName>(name: N, data: unknown): JobPayloads[N] {
  const schemas: { [M in JobName]: z.ZodType<JobPayloads[M]> } = jobPayloadSchemas;
  const result = schemas[name].safeParse(data);
  if (!result.success) throw new BadJobPayloadError(name, result.error.issues);
  return result.data;
}

export interface JobQueue {
  /** Sends `data` after checking it against the job's schema (a `BadJobPayloadError` otherwise). */
  send<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options?: { startAfter?: Date; singletonKey?: string; singletonSeconds?: number; retryLimit?: number },
  ): Promise<string | null>;
  /** Cancel a job that has not run yet (nothing happens if it already ran or is unknown). */
  cancel(name: JobName, id: string): Promise<void>;
}
