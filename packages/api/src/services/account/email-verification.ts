import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { badRequest, notFound } from '../../errors.js';
import { throttle } from '../rate-limit/buckets.js';
import { escapeHtml } from '../../render/html.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';

/** How long a verification link works. */
export const VERIFICATION_LINK_HOURS = 24;
/** Verification emails a church may ask for in an hour. */
export const VERIFICATION_EMAILS_PER_HOUR = 5;
export const VERIFICATION_EMAIL_SUBJECT = 'Verify your email address';
export const TOO_MANY_VERIFICATION_EMAILS = `At most ${VERIFICATION_EMAILS_PER_HOUR} verification emails an hour. Please try again later.`;
/** The account's address is on the church's suppression list (it bounced): a link would not arrive. */
export const ACCOUNT_EMAIL_SUPPRESSED =
  'Your account email address bounced, so no link was sent. Please change it in Settings → Account first.';
export const ALREADY_VERIFIED = 'Your email address is already verified';

export interface VerificationDeps {
  db: Db;
  email: EmailTransport;
  config: Pick<DeliveryConfig, 'publicUrl' | 'emailFrom'>;
}

const hashToken = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

/** The address of the link in a verification email. */
export const verificationLink = (publicUrl: string, token: string) => `${publicUrl}/verify-email/${token}`;

/**
 * Send a single-use link to the account's current email (at most VERIFICATION_EMAILS_PER_HOUR an
 * hour per church). Earlier links keep working until they expire or the email changes. Without
 * SMTP the local adapter keeps the message in the church's outbox, where the Account page shows it.
 */
export async function sendVerificationEmail(
  deps: VerificationDeps,
  tenantId: number,
): Promise<{ ok: true; to: string; outbox: boolean }> {
  const user = await deps.db
    .selectFrom('users')
    .select(['email', 'churchName', 'emailVerifiedAt'])
    .where('id', '=', tenantId)
    .executeTakeFirst();
  if (!user) throw notFound('Account not found');
  if (user.emailVerifiedAt) throw badRequest(ALREADY_VERIFIED);
  await throttle(
    deps.db,
    `verify-email:${tenantId}`,
    { limit: VERIFICATION_EMAILS_PER_HOUR, windowSeconds: 3600 },
    TOO_MANY_VERIFICATION_EMAILS,
  );
  const rule = { channel: 'email' as const, address: user.email, ...DIRECT_SEND_RULES['staff-account'] };
  if (!(await mayContact(deps.db, tenantId, rule))) throw badRequest(ACCOUNT_EMAIL_SUPPRESSED, 'email');
  const token = crypto.randomBytes(32).toString('base64url');
  await deps.db
    .insertInto('emailVerificationTokens')
    .values({
      userId: tenantId,
      email: user.email,
      tokenHash: hashToken(token),
      expiresAt: sql<Date>`now() + make_interval(hours => ${VERIFICATION_LINK_HOURS})`,
    })
    .execute();
  const link = verificationLink(deps.config.publicUrl, token);
  const host = new URL(deps.config.publicUrl).hostname || 'lampstand.local';
  const address = /<([^>]+)>/.exec(deps.config.emailFrom)?.[1] ?? deps.config.emailFrom;
  // Outside the delivery engine: transactional mail from the platform to the account owner,
  // throttled above, not subject to church allowances.
  await deps.email.send({
    from: `"Lampstand" <${address}>`,
    to: user.email,
    subject: VERIFICATION_EMAIL_SUBJECT,
    text:
      `Please confirm that ${user.email} is the email address of ${user.churchName}.\n\n` +
      `Open this link to verify it (it works once, for ${VERIFICATION_LINK_HOURS} hours):\n${link}\n\n` +
      'Until your email is verified, your campaigns reach at most a limited number of people a day.\n' +
      'If you did not create this account, you can ignore this email.',
    html:
      `<p>Please confirm that ${escapeHtml(user.email)} is the email address of ${escapeHtml(user.churchName)}.</p>` +
      `<p><a href="${escapeHtml(link)}">Verify my email address</a></p>` +
      `<p>The link works once, for ${VERIFICATION_LINK_HOURS} hours. Until your email is verified, your campaigns ` +
      'reach at most a limited number of people a day.</p>' +
      '<p>If you did not create this account, you can ignore this email.</p>',
    headers: {},
    messageId: `verify-${crypto.randomUUID()}@${host}`,
    meta: { userId: tenantId },
  });
  return { ok: true, to: user.email, outbox: deps.email.kind === 'outbox' };
}

export type VerificationOutcome =
  { status: 'verified'; email: string; churchName: string } | { status: 'used' | 'expired' | 'invalid' };

/** What a link would do, without using it (the page a mail scanner may open). */
export async function describeVerificationLink(db: Db, token: string): Promise<VerificationOutcome> {
  return checkToken(db, token, false);
}

/**
 * Use a link: once, before it expires, and only while the account email is still the address it
 * was sent to. Verifies the account email.
 */
export async function verifyEmailToken(db: Db, token: string): Promise<VerificationOutcome> {
  return db.transaction().execute((trx) => checkToken(trx, token, true));
}

async function checkToken(db: Db, token: string, use: boolean): Promise<VerificationOutcome> {
  if (!/^[\w-]{20,100}$/.test(token)) return { status: 'invalid' };
  const row = await db
    .selectFrom('emailVerificationTokens as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .select([
      't.id',
      't.userId',
      't.email',
      't.usedAt',
      'u.email as currentEmail',
      'u.churchName',
      sql<boolean>`t.expires_at <= now()`.as('expired'),
    ])
    .where('t.tokenHash', '=', hashToken(token))
    .$if(use, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row || row.email.toLowerCase() !== row.currentEmail.toLowerCase()) return { status: 'invalid' };
  if (row.usedAt) return { status: 'used' };
  if (row.expired) return { status: 'expired' };
  if (use) {
    await db
      .updateTable('emailVerificationTokens')
      .set({ usedAt: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
    await db
      .updateTable('users')
      .set({ emailVerifiedAt: sql<Date>`coalesce(email_verified_at, now())` })
      .where('id', '=', row.userId)
      .execute();
  }
  return { status: 'verified', email: row.currentEmail, churchName: row.churchName };
}
