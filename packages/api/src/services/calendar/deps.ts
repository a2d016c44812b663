import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import type { PaymentsProvider } from '../../providers/payments.js';

/** What the calendar's services need: the database, payments, the job queue, the public address, the clock. */
export interface CalendarDeps {
  db: Db;
  payments: PaymentsProvider;
  jobs: JobQueue;
  publicUrl: string;
  /** The clock (tests drive it); the real time by default. */
  now?: () => Date;
}

export const nowOf = (deps: { now?: () => Date }) => deps.now?.() ?? new Date();

/** A token for a link or a ticket (URL-safe, 192 bits). */
export const newToken = () => crypto.randomBytes(24).toString('base64url');

export type RegistrationNotice =
  'confirmed' | 'waitlisted' | 'pending_approval' | 'offered' | 'late_refund' | 'cancelled' | 'declined';

/**
 * A message to the registrant, as a delivery of kind 'registration' of the one engine, in the
 * caller's transaction; the 'registration-deliver' job sends it (`wakeRegistrationMessages`).
 */
export async function queueRegistrationNotice(
  trx: Db,
  reg: { id: number; userId: number; email: string; contactId: number | null; name: string },
  notice: RegistrationNotice,
): Promise<void> {
  await trx
    .insertInto('deliveries')
    .values({
      userId: reg.userId,
      kind: 'registration',
      channel: 'email',
      address: reg.email,
      contactId: reg.contactId,
      firstName: reg.name.split(' ')[0] ?? '',
      token: crypto.randomBytes(24).toString('hex'),
      registrationId: reg.id,
      registrationNotice: notice,
    })
    .execute();
}

/** Asks for the church's registration messages to be sent (after the commit that queued them). */
export async function wakeRegistrationMessages(deps: Pick<CalendarDeps, 'jobs'>, tenantId: number, delayMs = 0) {
  await deps.jobs.send(
    'registration-deliver',
    { userId: tenantId },
    delayMs > 0 ? { startAfter: new Date(Date.now() + delayMs) } : undefined,
  );
}
