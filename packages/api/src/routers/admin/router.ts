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

export const adminRouter = router({
  users: adminProcedure
    .meta({ rest: { method: 'GET', path: '/api/admin/users', summary: 'All church accounts', tag: 'Admin' } })
    .output(z.array(adminUserSchema))
    .query(({ ctx }) => listUsers(ctx.db)),

  /** Lift or lower a church's daily recipient limit (null: the default rule). */
  setDailyLimit: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/users/{id}/daily-limit',
        summary:
          "Lift or lower a church's daily recipient limit: dailyRecipientLimit (people a day) or null for the default rule",
        tag: 'Admin',
      },
    })
    .input(setDailyLimitSchema)
    .output(adminUserSchema)
    .mutation(({ ctx, input }) => setDailyLimit(ctx.db, input)),

  impersonate: adminProcedure
    .meta({
      rest: { method: 'POST', path: '/api/admin/impersonate/{id}', summary: 'Act as a church account', tag: 'Admin' },
    })
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
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/stop-impersonating',
        summary: 'Return to the administrator account',
        tag: 'Admin',
      },
    })
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
