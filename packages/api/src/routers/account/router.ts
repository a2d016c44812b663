import { changePasswordResultSchema, changePasswordSchema, updateAccountSchema } from '../../schemas/account.js';
import { sessionUserSchema } from '../../schemas/auth.js';
import { changePassword, updateAccount } from '../../services/account/account.js';
import { router, sessionProcedure } from '../../trpc.js';

/** The signed-in church's own account (the impersonated church while impersonating); never with an API key. */
export const accountRouter = router({
  update: sessionProcedure
    .input(updateAccountSchema)
    .output(sessionUserSchema)
    .mutation(({ ctx, input }) => updateAccount(ctx.db, ctx.tenantId, input)),
  changePassword: sessionProcedure
    .input(changePasswordSchema)
    .output(changePasswordResultSchema)
    .mutation(({ ctx, input }) => changePassword(ctx.db, ctx.tenantId, { ...input, keepSessionId: ctx.session.id() })),
});
