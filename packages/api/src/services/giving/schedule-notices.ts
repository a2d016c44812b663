import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import { escapeHtml } from '../../render/html.js';
import { formatCents } from '../../shared/giving.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';
import { RETRY_DAYS } from './charge-due.js';
import { frequencyLabel } from './gifts.js';

// Emails about a recurring gift: a declined card, a failing gift, a payment the bank asks about.

export interface NoticeDeps {
  db: Db;
  email: EmailTransport;
  emailFrom: string;
  publicUrl: string;
}

/**
 * The 'giving-notice' job: the donor's 'your card was declined' (with the link to update the card)
 * or 'confirm this payment with your bank', or staff's 'a recurring gift is failing'. Transactional
 * mail to one person about their own payment, like the gift receipts: through the email transport
 * from a pg-boss job that retries it.
 */
export async function sendGivingNotice(
  deps: NoticeDeps,
  input: { kind: 'card-failed' | 'schedule-failing' | 'action-required'; scheduleId: number; giftId?: number },
): Promise<void> {
  const s = await deps.db
    .selectFrom('giftSchedules as gs')
    .innerJoin('users as u', 'u.id', 'gs.userId')
    .leftJoin('churchProfiles as cp', 'cp.userId', 'gs.userId')
    .select(['gs.id', 'gs.userId', 'gs.donorName', 'gs.donorEmail', 'gs.amountCents', 'gs.feeCents', 'gs.frequency'])
    .select(['gs.manageToken', 'gs.lastFailure', 'u.churchName', 'u.email as churchEmail', 'cp.handle'])
    .where('gs.id', '=', input.scheduleId)
    .executeTakeFirst();
  if (!s) return;
  const amount = formatCents(s.amountCents + s.feeCents);
  const what = `${frequencyLabel(s.frequency).toLowerCase()} gift of ${amount} to ${s.churchName}`;
  const manage = `${deps.publicUrl}/give/manage/${s.manageToken}`;
  let to: string;
  let subject: string;
  let lines: string[];
  if (input.kind === 'schedule-failing') {
    to = s.churchEmail;
    subject = `A recurring gift is failing: ${s.donorName}`;
    lines = [
      `The ${what} from ${s.donorName} (${s.donorEmail}) was declined ${RETRY_DAYS.length + 1} times.`,
      `Last reason: ${s.lastFailure ?? 'declined'}.`,
      'It is marked failing and will not be charged until the donor updates their card. Giving → Recurring lists it.',
    ];
  } else if (input.kind === 'card-failed') {
    to = s.donorEmail;
    subject = `Your ${frequencyLabel(s.frequency).toLowerCase()} gift to ${s.churchName} did not go through`;
    lines = [
      `Hello ${s.donorName},`,
      `Your ${what} was declined (${s.lastFailure ?? 'declined'}). We will try again in ${RETRY_DAYS[0]} day.`,
      `Update your card here: ${manage}`,
    ];
  } else {
    to = s.donorEmail;
    subject = `Please confirm your gift to ${s.churchName}`;
    lines = [`Hello ${s.donorName},`, `Your bank asks you to confirm your ${what}.`, `Confirm it here: ${manage}`];
  }
  const rule = DIRECT_SEND_RULES[input.kind === 'schedule-failing' ? 'staff-account' : 'donor-payment'];
  if (!(await mayContact(deps.db, s.userId, { channel: 'email', address: to, ...rule }))) return;
  const html = lines.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/\S+)/g, '<a href="$1">$1</a>')}</p>`).join('');
  await deps.email.send({
    from: deps.emailFrom,
    onBehalfOf: s.userId,
    to,
    subject,
    html,
    text: `${lines.join('\n\n')}\n`,
    headers: {},
    messageId: `giving-${input.kind}-${s.id}-${crypto.randomBytes(6).toString('hex')}@lampstand`,
    meta: { userId: s.userId },
  });
}
