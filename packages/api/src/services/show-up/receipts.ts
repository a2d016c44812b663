import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { notFound } from '../../errors.js';
import type { EmailTransport } from '../../providers/email.js';
import type { donationReceiptInfoSchema } from '../../schemas/show-up.js';
import { escapeHtml } from '../../render/html.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';
import { formatDate } from '../../shared/format.js';
import { churchLocale, effectiveCountry } from '../../shared/locale.js';
import { projectGifts } from './project-gifts.js';

/** What sending a receipt needs: the email engine's transport and sender. */
export interface ReceiptDeps {
  db: Db;
  email: EmailTransport;
  emailFrom: string;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

const NO_GOODS_STATEMENT = 'No goods or services were provided in exchange for this contribution.';

/**
 * The receipt's facts: church name and postal address, amount, date, project. Its number is the
 * gift's Show Up id when it was made before the ledger, else the gift's id.
 */
export async function receiptFacts(db: Db, where: { token: string } | { donationId: number }) {
  let q = projectGifts(db)
    .innerJoin('users as u', 'u.id', 'g.userId')
    .leftJoin('churchSettings as s', 's.userId', 'g.userId')
    .select(['g.id', 'g.donorName', 'g.donorEmail', 'g.isAnonymous', 'g.status', 'g.completedAt'])
    .select(['g.receiptUrl', 'g.receiptSentAt', 'g.userId', 'g.stripePaymentId', 'g.showUpDonationId'])
    .select(['l.amountCents', 'p.id as projectId', 'p.title as projectTitle', 'u.churchName', 's.postalAddress'])
    .select(['s.country', 's.timeZone'])
    .where('g.status', 'in', ['completed', 'refunded']);
  q = 'token' in where ? q.where('g.receiptToken', '=', where.token) : q.where('g.id', '=', where.donationId);
  const row = await q.executeTakeFirst();
  return row ? { ...row, amount: row.amountCents / 100, receiptNumber: row.showUpDonationId ?? row.id } : null;
}

export function receiptText(f: NonNullable<Awaited<ReturnType<typeof receiptFacts>>>) {
  // The day of the gift in the church's time zone, written as the church writes dates.
  const date = formatDate(f.completedAt ?? new Date(), {
    locale: churchLocale(effectiveCountry(f)),
    timeZone: f.timeZone ?? 'UTC',
  });
  const lines = [
    `Donation receipt from ${f.churchName}`,
    f.postalAddress ?? '',
    '',
    `Donor: ${f.isAnonymous || !f.donorName ? 'Anonymous' : f.donorName}`,
    `Amount: ${usd.format(f.amount)}`,
    `Date: ${date}`,
    `Project: ${f.projectTitle}`,
    `Receipt number: ${f.receiptNumber}`,
    '',
    NO_GOODS_STATEMENT,
  ];
  return { date, lines };
}

/**
 * The 'donation-receipt' job: the donor's receipt through the email engine's transport, sent once
 * (claimed before sending). A gift whose completing transaction has not committed yet, or a mail
 * server that refuses, throws, so pg-boss tries again with backoff; the gift counts either way and
 * the receipt page works meanwhile.
 */
export async function sendDonationReceipt(deps: ReceiptDeps, donationId: number): Promise<void> {
  const gift = await deps.db.selectFrom('gifts').select('status').where('id', '=', donationId).executeTakeFirst();
  if (gift?.status === 'pending') throw new Error(`Donation ${donationId} is not completed yet`);
  const claimed = await deps.db
    .updateTable('gifts')
    .set({ receiptSentAt: new Date() })
    .where('id', '=', donationId)
    .where('status', '=', 'completed')
    .where('receiptSentAt', 'is', null)
    .where('donorEmail', 'is not', null)
    .where('isAnonymous', '=', false)
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return;
  const f = await receiptFacts(deps.db, { donationId });
  if (!f || !f.donorEmail) return;
  if (
    !(await mayContact(deps.db, f.userId, {
      channel: 'email',
      address: f.donorEmail,
      ...DIRECT_SEND_RULES['donor-payment'],
    }))
  )
    return;
  const { lines } = receiptText(f);
  const html =
    `<h1 style="font-size:20px">Thank you for your gift to ${escapeHtml(f.projectTitle)}</h1>` +
    lines.map((l) => `<p style="margin:4px 0">${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(f.receiptUrl ?? '')}">View your receipt</a></p>`;
  try {
    // Outside the delivery engine on purpose: a receipt is transactional mail to the donor who just
    // paid (no church allowance applies), sent once by the claim above from a pg-boss job that
    // retries it.
    await deps.email.send({
      from: deps.emailFrom,
      onBehalfOf: f.userId,
      to: f.donorEmail,
      subject: `Your receipt: ${usd.format(f.amount)} to ${f.projectTitle}`,
      html,
      text: `${lines.join('\n')}\n\nView your receipt: ${f.receiptUrl ?? ''}\n`,
      headers: {},
      messageId: `receipt-${f.id}-${crypto.randomBytes(6).toString('hex')}@lampstand`,
      meta: { userId: f.userId },
    });
  } catch (err) {
    // Not sent: release the claim (receipt_sent_at stays empty); pg-boss tries again.
    await deps.db.updateTable('gifts').set({ receiptSentAt: null }).where('id', '=', donationId).execute();
    throw err;
  }
}

/** Public: what the thank-you page shows for one payment (never the email). */
export async function donationByPayment(
  db: Db,
  { paymentIntent }: { paymentIntent: string },
): Promise<z.input<typeof donationReceiptInfoSchema>> {
  const row = await projectGifts(db)
    .select(['l.amountCents', 'g.createdAt', 'g.donorName', 'g.isAnonymous', 'g.status', 'g.receiptUrl'])
    .select(['p.id as projectId', 'p.title as projectTitle'])
    .where('g.stripePaymentId', '=', paymentIntent)
    .executeTakeFirst();
  if (!row) throw notFound('Donation not found');
  return {
    amount: row.amountCents / 100,
    createdAt: row.createdAt,
    donorName: row.isAnonymous ? null : row.donorName,
    isAnonymous: row.isAnonymous,
    projectId: row.projectId,
    projectTitle: row.projectTitle,
    status: row.status,
    receiptUrl: row.status === 'completed' ? row.receiptUrl : null,
  };
}
