import { z } from 'zod';
import {
  adminUserSchema,
  impersonateSchema,
  impersonationResultSchema,
  setDailyLimitSchema,
} from '../../schemas/admin.js';
import { badRequest, forbidden } from '../../errors.js';
import { listUsers, setDailyLimit } from '../../services/admin/users.js';
import { recordImpersonationStop, startImpersonation } from '../../services/admin/impersonation.js';
import { adminProcedure, protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Admin');

export const adminRouter = router({
  users: adminProcedure
    .meta(rest.get('/api/admin/users', 'All church accounts'))
    .output(z.array(adminUserSchema))
    .query(({ ctx }) => listUsers(ctx.db)),

  /** Lift or lower a church's daily recipient limit (null: the default rule). */
  setDailyLimit: adminProcedure
    .meta(
      rest.put(
        '/api/admin/users/{id}/daily-limit',
        "Lift or lower a church's daily recipient limit: dailyRecipientLimit (people a day) or null for the default rule",
      ),
    )
    .input(setDailyLimitSchema)
    .output(adminUserSchema)
    .mutation(({ ctx, input }) => setDailyLimit(ctx.db, input)),

  impersonate: adminProcedure
    .meta(rest.post('/api/admin/impersonate/{id}', 'Act as a church account'))
    .input(impersonateSchema)
    .output(impersonationResultSchema)
    .mutation(async ({ ctx, input }) => {
      const target = await startImpersonation(ctx.db, ctx.user, input.id);
      await ctx.session.setImpersonating(target.id);
      return {
        message: `You are now impersonating ${target.churchName}`,
        user: { ...target, _impersonatedBy: { id: ctx.user.id, username: ctx.user.username } },
      };
    }),

  /** Allowed while impersonating: it is the signed-in admin, not the church, who stops. */
  stopImpersonating: protectedProcedure
    .meta(rest.post('/api/admin/stop-impersonating', 'Return to the administrator account'))
    .output(impersonationResultSchema)
    .mutation(async ({ ctx }) => {
      if (ctx.user.role !== 'admin') throw forbidden('Administrator access required');
      const targetId = ctx.session.data().impersonatingUserId;
      if (!targetId) throw badRequest('You are not impersonating anyone');
      await ctx.session.setImpersonating(undefined);
      await recordImpersonationStop(ctx.db, { adminId: ctx.user.id, targetId });
      return { message: 'Impersonation ended', user: ctx.user };
    }),
});
