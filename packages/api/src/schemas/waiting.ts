import { z } from 'zod';
import { isoTimestamp } from './common.js';

/** What waits for the church, counted for the sidebar's badges and the bell (polled every minute). */
export const waitingCountsSchema = z.object({
  /** Profile updates confirmed by the person and waiting for staff to approve. */
  profileUpdates: z.number().int(),
  /** Unread texts in open conversations. */
  conversations: z.number().int(),
  /** Open tasks of the church account due today or earlier (in the church's time zone). */
  tasksDue: z.number().int(),
  /** Items in the bell this person has not read. */
  bellUnread: z.number().int(),
});
export type WaitingCounts = z.output<typeof waitingCountsSchema>;

export const BELL_KINDS = ['task', 'reply', 'approval', 'webhook'] as const;
export type BellKind = (typeof BELL_KINDS)[number];

export const bellItemSchema = z.object({
  kind: z.enum(BELL_KINDS),
  /** The task, conversation, proposal or webhook delivery. */
  id: z.number().int(),
  title: z.string(),
  detail: z.string(),
  /** When it started waiting: a task made, the latest text, an update confirmed, a delivery given up. */
  at: isoTimestamp,
  /** A task's due day ('2026-12-06'). */
  dueOn: z.string().nullable(),
  unread: z.boolean(),
});
export type BellItem = z.output<typeof bellItemSchema>;
/** A bell item as the service hands it over (its time a Date, made ISO text by the output schema). */
export type BellRow = z.input<typeof bellItemSchema>;

export const bellSchema = z.object({ items: z.array(bellItemSchema), unread: z.number().int() });
