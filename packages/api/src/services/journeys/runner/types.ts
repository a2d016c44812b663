import type { NewRow } from '@lampstand/db';
import type { NewEvent } from '../../../schemas/events.js';
import type { Lease } from '../../background/claim.js';
import type { Pacer } from '../../delivery/pacer.js';
import type { DeliveryIds } from './delivery-ids.js';

/** The types the runner's parts share: its options, what it reads and what a group of visits writes. */

export interface RunnerOptions {
  now: Date;
  /** Enrolments claimed at once. */
  batchSize?: number;
  /** A claim older than this belongs to a dead worker. */
  leaseSeconds?: number;
  /** Enrolments moved at once by this call. */
  concurrency?: number;
  unverifiedDailyRecipients?: number;
  /**
   * Called after each transaction that queued messages, with its journeys: the caller can start
   * their delivery jobs at once, so sending starts while the runner is still moving the rest.
   */
  onQueued?: (journeyIds: Set<number>) => Promise<void>;
  /** The process's pacer (delivery/pacer.ts): a group of visits takes a turn for each visit. */
  pacer?: Pacer;
}

export interface RunResult {
  /** Enrolments moved. */
  moved: number;
  /** Journeys that got new deliveries (the caller starts their delivery jobs). */
  journeysToDeliver: Set<number>;
}

export interface Enrollment {
  id: number;
  userId: number;
  journeyId: number;
  version: number;
  contactId: number | null;
  status: string;
  currentStepId: string | null;
  nextRunAt: Date | null;
  enteredAt: Date;
  test: boolean;
  testEmail: string | null;
  /** What started it, when it says ('group:12:…' for a group trigger, `registration:{id}` for a registration). */
  triggerKey: string | null;
  lastEmailDeliveryId: number | null;
  waitUntil: Date | null;
  leaseUntil: Date | null;
  attempts: number;
}

export interface Church {
  timeZone: string;
  churchName: string;
  accountEmail: string;
  unlimited: boolean;
}

export interface Person {
  contactId: number | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phoneE164: string | null;
  emailConsent: string;
  smsConsent: string;
  tags: string[];
}

/** An enrolment this worker claimed, with the lease it holds. */
export type Claim = { id: number; journeyId: number; version: number; userId: number; lease: Lease };

/** Another worker holds the enrolment or ran the step: this visit changes nothing. */
export class LostClaim extends Error {}

/**
 * The group's addresses that must not get a channel's messages: for email, those that unsubscribed
 * (any of the church's contacts with the address) or are on the church's suppression list; for
 * texts, the numbers that unsubscribed. One read each, and only for a channel the group sends on.
 */
export type Blocked = { unsubscribed: Set<string>; suppressed: Set<string> };

export /** What the visits of one transaction add up: their events (recorded last) and messages counted. */
interface GroupOut {
  events: NewEvent[];
  usage: { email: number; sms: number };
  /** The contacts of the group's enrolments, read at once. */
  people: Map<number, Person>;
  /**
   * The group's addresses that must not get a channel's messages (emails in lower case): read at
   * once for the group, when its first step on that channel needs them (a group of waits and tags
   * never does, a group of emails never reads the numbers).
   */
  blocked: (channel: 'email' | 'sms', o?: { welcome?: boolean }) => Promise<Blocked>;
  /** Ids for the group's deliveries, taken from their sequence ahead of the insert. */
  deliveryIds: DeliveryIds;
  /** Deliveries queued, by (enrolment, step, address): inserted at once at the end. */
  deliveries: Map<string, QueuedDelivery>;
  /** Tags to add: written at once at the end; a contact whose tags changed gets its event then. */
  tagAdds: { person: Person & { contactId: number }; tag: string }[];
  /** Step runs and enrolment changes, written at once at the end. */
  runs: NewRow<'journeyStepRuns'>[];
  updates: {
    id: number;
    status: string;
    endedAt: Date | null;
    exitReason: string | null;
    nextRunAt: Date | null;
    waitUntil: Date | null;
    currentStepId: string | null;
    lastEmailDeliveryId: number | null;
  }[];
}

export interface QueuedDelivery {
  id: number;
  userId: number;
  channel: 'email' | 'sms';
  journeyId: number;
  enrollmentId: number;
  stepId: string;
  contactId: number | null;
  address: string;
  firstName: string;
  lastName: string;
  /** The welcome to a first-time family: asked of the contact rule as `CHECKIN_WELCOME_RULE`. */
  givenAtCheckin: boolean;
}
