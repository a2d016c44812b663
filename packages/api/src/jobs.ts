/** Background jobs the services can ask for; the server backs this with pg-boss on the same PostgreSQL. */
export const JOB_NAMES = [
  'contact-import',
  'campaign-start',
  'campaign-deliver',
  'campaign-sweep',
  'social-post-publish',
  'social-post-sweep',
  'donation-receipt',
  'planner-request-deliver',
] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface JobPayloads {
  'contact-import': { importId: number };
  /** A scheduled campaign's time has come (ignored if it was rescheduled or sent meanwhile). */
  'campaign-start': { channel: 'email' | 'sms'; campaignId: number; scheduledFor: string };
  /** Send a campaign's pending deliveries; several may run at once for one campaign. */
  'campaign-deliver': { channel: 'email' | 'sms'; campaignId: number };
  /** Every minute: resume campaigns left sending by a dead worker, start overdue scheduled ones. */
  'campaign-sweep': Record<string, never>;
  /**
   * Publish a social post whose time has come (nothing if it was moved, deleted or published), then
   * every other due post; without `postId`, every due post.
   */
  'social-post-publish': { postId?: number };
  /** Every minute: queue due social posts that have no job coming (lost jobs, dead workers); `force` takes every due one now. */
  'social-post-sweep': { force?: boolean };
  /** Email a completed gift's receipt (once; retried by pg-boss while the mail server refuses). */
  'donation-receipt': { donationId: number };
  /** Send a service plan's pending requests to serve (deliveries of kind 'planner-request'). */
  'planner-request-deliver': { planId: number };
}

export interface JobQueue {
  send<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    options?: { startAfter?: Date; singletonKey?: string; singletonSeconds?: number; retryLimit?: number },
  ): Promise<string | null>;
  /** Cancel a job that has not run yet (nothing happens if it already ran or is unknown). */
  cancel(name: JobName, id: string): Promise<void>;
}
