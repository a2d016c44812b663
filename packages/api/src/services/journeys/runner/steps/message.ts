import type { Db } from '@lampstand/db';
import type { JourneyStep } from '../../../../schemas/journeys.js';
import { AppError } from '../../../../errors.js';
import { takeDailyAllowance, UNVERIFIED_DAILY_RECIPIENTS } from '../../../delivery/daily-limit.js';
import { fillStepTags, queueDelivery, type StepContext, type StepResult } from '../step-context.js';

/** An email step: one email to the person, unless they have no address, unsubscribed or are suppressed. */
export async function runEmailStep(
  trx: Db,
  x: StepContext,
  step: Extract<JourneyStep, { kind: 'email' }>,
): Promise<StepResult | 'later'> {
  const { person } = x;
  const address = person.email?.trim();
  if (!address) return { outcome: 'skipped', detail: 'No email address', next: step.next };
  if (await unsubscribed(x, 'email', address))
    return { outcome: 'skipped', detail: 'Unsubscribed from email', next: step.next };
  // An address on the church's suppression list (bounced or complained) is skipped.
  if ((await x.out.blocked('email', { welcome: x.welcome })).suppressed.has(address.toLowerCase()))
    return { outcome: 'skipped', detail: 'The address is suppressed (bounced or complained)', next: step.next };
  if (!(await takeAllowance(trx, x, 'email'))) return 'later';
  const deliveryId = await queueDelivery(x, {
    channel: 'email',
    address,
    contactId: person.contactId,
    firstName: person.firstName,
    lastName: person.lastName,
  });
  return { outcome: 'done', detail: `Sent “${fillStepTags(x, step.subject)}”`, next: step.next, deliveryId };
}

/** A text step: one text to the person's mobile number, unless they have none or unsubscribed. */
export async function runSmsStep(
  trx: Db,
  x: StepContext,
  step: Extract<JourneyStep, { kind: 'sms' }>,
): Promise<StepResult | 'later'> {
  const { person } = x;
  const address = person.phoneE164;
  if (!address) return { outcome: 'skipped', detail: 'No mobile number', next: step.next };
  if (await unsubscribed(x, 'sms', address))
    return { outcome: 'skipped', detail: 'Unsubscribed from texts', next: step.next };
  if (!(await takeAllowance(trx, x, 'sms'))) return 'later';
  const deliveryId = await queueDelivery(x, {
    channel: 'sms',
    address,
    contactId: person.contactId,
    firstName: person.firstName,
    lastName: person.lastName,
  });
  return { outcome: 'done', detail: 'Text sent', next: step.next, deliveryId };
}

/**
 * The church's daily limit for a message to a person (staff emails are not counted): true when it
 * was taken, false when the church is over its limit (the step is tried again later).
 */
async function takeAllowance(trx: Db, x: StepContext, channel: 'email' | 'sms'): Promise<boolean> {
  if (x.church.unlimited) {
    // Recorded once for the transaction's visits (moveGroup).
    x.out.usage[channel]++;
    return true;
  }
  try {
    await takeDailyAllowance(trx, x.e.userId, {
      channel,
      kind: 'journey',
      campaignId: null,
      recipients: 1,
      unverifiedLimit: x.opts.unverifiedDailyRecipients ?? UNVERIFIED_DAILY_RECIPIENTS,
    });
    return true;
  } catch (err) {
    // Refused before writing anything: the transaction goes on.
    if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') return false;
    throw err;
  }
}

/**
 * Whether any of the church's contacts with this address unsubscribed from the channel. A welcome
 * to a first-time family asks the contact rule's check-in question: the station's 'not given'
 * does not stop it, an opt-out does.
 */
async function unsubscribed(x: StepContext, channel: 'email' | 'sms', address: string): Promise<boolean> {
  const p = x.person;
  if (p.contactId === null) return false;
  if (!x.welcome && (channel === 'email' ? p.emailConsent : p.smsConsent) === 'unsubscribed') return true;
  const blocked = await x.out.blocked(channel, { welcome: x.welcome });
  return blocked.unsubscribed.has(channel === 'email' ? address.toLowerCase() : address);
}
