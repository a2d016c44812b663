import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { getChurchSettings } from '../settings/church-settings.js';
import { formatFrom } from './channel.js';
import { renderEmail } from './render.js';
import { sanitizeEmailHtml } from './sanitize.js';
import { badRequest, tooManyRequests } from '../../errors.js';
import { takeAttempt } from '../rate-limit/buckets.js';
import { DIRECT_SEND_RULES, contactVerdict } from '../delivery/contact-rule.js';

/** Test emails a church may send in an hour. */
const TEST_EMAILS_PER_HOUR = 20;
const TEST_EMAIL_RECIPIENT_MESSAGE = 'Test emails go to your account email or to one of your contacts';
const TOO_MANY_TEST_EMAILS = `At most ${TEST_EMAILS_PER_HOUR} test emails an hour. Please try again later.`;

/** The account's own email address or one of the church's contacts: a test email is no open relay. */
async function isOwnAddress(db: Db, tenantId: number, address: string): Promise<boolean> {
  const email = address.trim().toLowerCase();
  const own = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  if (own) return true;
  const contact = await db
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', tenantId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .limit(1)
    .executeTakeFirst();
  return !!contact;
}

/** A contact to fill merge tags in previews and tests: the first of the list, else of the church. */
async function sampleContact(db: Db, tenantId: number, listId?: number) {
  let q = db
    .selectFrom('contacts')
    .select(['contacts.firstName', 'contacts.lastName'])
    .where('contacts.userId', '=', tenantId);
  if (listId) q = q.innerJoin('contactsInLists as m', 'm.contactId', 'contacts.id').where('m.listId', '=', listId);
  return (await q.orderBy('contacts.id').limit(1).executeTakeFirst()) ?? { firstName: 'Friend', lastName: '' };
}

/** Exactly what a recipient would see (no tracking), merge tags filled from a sample contact. */
export async function previewEmail(
  deps: { db: Db; config: DeliveryConfig },
  tenantId: number,
  input: { subject: string; content: string; listId?: number },
): Promise<{ subject: string; html: string; sample: { firstName: string; lastName: string } }> {
  const settings = await getChurchSettings(deps.db, tenantId);
  const sample = await sampleContact(deps.db, tenantId, input.listId);
  const message = renderEmail({
    subject: input.subject,
    html: sanitizeEmailHtml(input.content),
    churchName: settings.churchName,
    postalAddress: settings.postalAddress,
    recipient: sample,
    publicUrl: deps.config.publicUrl,
  });
  return { subject: message.subject, html: message.html, sample };
}

/** Really send the campaign as it stands to one address, merge tags filled from a sample contact. */
export async function sendTestEmail(
  deps: { db: Db; email: EmailTransport; config: DeliveryConfig },
  tenantId: number,
  input: { testEmail: string; subject: string; content: string },
): Promise<{ ok: true; to: string; message: string }> {
  if (!(await isOwnAddress(deps.db, tenantId, input.testEmail)))
    throw badRequest(TEST_EMAIL_RECIPIENT_MESSAGE, 'testEmail');
  const quota = await takeAttempt(deps.db, `test-email:${tenantId}`, {
    limit: TEST_EMAILS_PER_HOUR,
    windowSeconds: 3600,
  });
  if (!quota.allowed) throw tooManyRequests(TOO_MANY_TEST_EMAILS, quota.retryAfterSeconds);
  const rule = { channel: 'email' as const, address: input.testEmail, ...DIRECT_SEND_RULES['test-email'] };
  const verdict = await contactVerdict(deps.db, tenantId, rule);
  if (!verdict.send) throw badRequest(`Not sent: this address is ${verdict.detail}`, 'testEmail');
  const settings = await getChurchSettings(deps.db, tenantId);
  const sample = await sampleContact(deps.db, tenantId);
  const message = renderEmail({
    subject: `[Test] ${input.subject || '(no subject)'}`,
    html: sanitizeEmailHtml(input.content),
    churchName: settings.churchName,
    postalAddress: settings.postalAddress,
    recipient: sample,
    publicUrl: deps.config.publicUrl,
  });
  const host = new URL(deps.config.publicUrl).hostname || 'lampstand.local';
  // Outside the delivery engine: one test message to the church's own address, limited by the
  // attempts quota above, answered inline so the wizard can show the result.
  await deps.email.send({
    from: formatFrom(settings.churchName, deps.config.emailFrom),
    to: input.testEmail,
    ...message,
    messageId: `test-${crypto.randomUUID()}@${host}`,
    meta: { userId: tenantId },
  });
  return {
    ok: true,
    to: input.testEmail,
    message:
      deps.email.kind === 'outbox'
        ? `Saved to your outbox for ${input.testEmail} (email sending is not set up on this server yet).`
        : `Sent to ${input.testEmail}.`,
  };
}
