import {
  accountStatusSchema,
  changePasswordResultSchema,
  changePasswordSchema,
  updateAccountSchema,
  verificationSentSchema,
} from '../../schemas/account.js';
import { sessionUserSchema } from '../../schemas/auth.js';
import { changePassword, updateAccount } from '../../services/account/account.js';
import { getAccountStatus } from '../../services/account/account-status.js';
import { sendVerificationEmail, type VerificationDeps } from '../../services/account/email-verification.js';
import type { Context } from '../../context.js';
import { protectedProcedure, router, sessionProcedure } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Accounts');

export const verificationDeps = (ctx: Pick<Context, 'db' | 'services'>): VerificationDeps => ({
  db: ctx.db,
  email: ctx.services.email,
  config: ctx.services.delivery,
});

/** The signed-in church's own account (the impersonated church while impersonating); never with an API key. */
export const accountRouter = router({
  update: sessionProcedure
    .meta(
      rest.patch('/api/account', 'Change the church name and/or email (a new email needs currentPassword)', {
        errors: [409],
      }),
    )
    .input(updateAccountSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      const before = ctx.effectiveUser.email;
      const updated = await updateAccount(ctx.db, ctx.tenantId, input);
      // A new address gets its own link (not counted against a failure: the change is saved).
      if (updated.email.toLowerCase() !== before.toLowerCase())
        await sendVerificationEmail(verificationDeps(ctx), ctx.tenantId).catch(() => undefined);
      return updated;
    }),
  changePassword: sessionProcedure
    .meta(
      rest.post(
        '/api/account/password',
        "Change the password (currentPassword required); the account's other sessions are signed out",
      ),
    )
    .input(changePasswordSchema)
    .output(changePasswordResultSchema)
    .mutation(({ ctx, input }) => changePassword(ctx.db, ctx.tenantId, { ...input, keepSessionId: ctx.session.id() })),
  /** Whether the account email is verified, and the church's daily recipient limit. */
  status: protectedProcedure
    .meta(
      rest.get(
        '/api/account/status',
        'Whether the account email is verified, the daily recipient limit of campaigns (limit, source, usedLast24h, remaining), and the email warm-up of a new church (emailWarmup)',
      ),
    )
    .output(accountStatusSchema)
    .query(({ ctx }) =>
      getAccountStatus(
        {
          db: ctx.db,
          email: ctx.services.email,
          unverifiedDailyRecipients: ctx.services.delivery.unverifiedDailyRecipients,
          emailWarmup: ctx.services.delivery.emailWarmup,
          now: ctx.services.delivery.clock?.(),
        },
        ctx.tenantId,
      ),
    ),
  sendVerificationEmail: sessionProcedure
    .meta(
      rest.post(
        '/api/account/verification-email',
        'Send a single-use link (24 hours) that verifies the account email; at most 5 an hour',
        { errors: [429] },
      ),
    )
    .output(verificationSentSchema)
    .mutation(async ({ ctx }) => {
      const sent = await sendVerificationEmail(verificationDeps(ctx), ctx.tenantId);
      return {
        ...sent,
        message: sent.outbox
          ? 'Email sending is not set up on this server yet: the email is in your outbox, shown on the Account page.'
          : `We sent a link to ${sent.to}. It works once, for 24 hours.`,
      };
    }),
});
