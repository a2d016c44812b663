import { changePasswordResultSchema, changePasswordSchema, updateAccountSchema } from '../../schemas/account.js';
import { sessionUserSchema } from '../../schemas/auth.js';
import { changePassword, updateAccount } from '../../services/account/account.js';
import { protectedProcedure, router } from '../../trpc.js';

/** The signed-in church's own account (the impersonated church while impersonating). */
export const accountRouter = router({
  update: protectedProcedure
    .input(updateAccountSchema)
    .output(sessionUserSchema)
    .mutation(({ ctx, input }) => updateAccount(ctx.db, ctx.tenantId, input)),
  changePassword: protectedProcedure
    .input(changePasswordSchema)
    .output(changePasswordResultSchema)
    .mutation(({ ctx, input }) => changePassword(ctx.db, ctx.tenantId, { ...input, keepSessionId: ctx.session.id() })),
});
