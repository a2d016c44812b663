import type { Db } from '@lampstand/db';
import type { AccountStatus } from '../../schemas/account.js';
import type { EmailTransport } from '../../providers/email.js';
import { getSendingLimit } from '../delivery/daily-limit.js';
import { getEmailWarmup } from '../delivery/warmup.js';
import { VERIFICATION_EMAIL_SUBJECT } from './email-verification.js';

/**
 * The Account page's verification state and daily limit. Without SMTP, the latest verification
 * email kept in the church's outbox is returned too, so the link can be opened from the app. With
 * the platform's email warm-up, today's warm-up number too.
 */
export async function getAccountStatus(
  deps: { db: Db; email: EmailTransport; unverifiedDailyRecipients?: number; emailWarmup?: boolean; now?: Date },
  tenantId: number,
): Promise<AccountStatus> {
  const limit = await getSendingLimit(deps.db, tenantId, deps.unverifiedDailyRecipients);
  const outbox = deps.email.kind === 'outbox';
  const kept =
    outbox && !limit.emailVerified
      ? await deps.db
          .selectFrom('outboxMessages')
          .select(['toAddress', 'subject', 'text', 'createdAt'])
          .where('userId', '=', tenantId)
          .where('channel', '=', 'email')
          .where('campaignId', 'is', null)
          .where('messageId', 'like', 'verify-%')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined;
  const link = kept?.text?.match(/https?:\/\/\S+\/verify-email\/[\w-]+/)?.[0];
  return {
    ...limit,
    emailWarmup: deps.emailWarmup ? await getEmailWarmup(deps.db, tenantId, deps.now) : null,
    outbox,
    verificationEmail:
      kept && link
        ? {
            to: kept.toAddress,
            subject: kept.subject ?? VERIFICATION_EMAIL_SUBJECT,
            createdAt: kept.createdAt.toISOString(),
            link,
          }
        : null,
  };
}
