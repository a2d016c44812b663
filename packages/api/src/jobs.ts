/** Background jobs the services can ask for; the server backs this with pg-boss on the same PostgreSQL. */
export const JOB_NAMES = ['contact-import'] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface JobPayloads {
  'contact-import': { importId: number };
}

export interface JobQueue {
  send<N extends JobName>(name: N, data: JobPayloads[N], options?: { startAfter?: Date; singletonKey?: string }): Promise<string | null>;
}
