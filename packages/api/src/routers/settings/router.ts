import { churchSettingsSchema, updateChurchSettingsSchema } from '../../schemas/settings.js';
import { getChurchSettings, updateChurchSettings } from '../../services/settings/church-settings.js';
import { protectedProcedure, router } from '../../trpc.js';

export const settingsRouter = router({
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/settings',
        summary: "The church's settings (postal address for campaign footers)",
        tag: 'Settings',
      },
    })
    .output(churchSettingsSchema)
    .query(({ ctx }) => getChurchSettings(ctx.db, ctx.tenantId)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/settings',
        summary: "Replace the church's settings (PUT: unsent fields are cleared)",
        tag: 'Settings',
      },
    })
    .input(updateChurchSettingsSchema)
    .output(churchSettingsSchema)
    .mutation(({ ctx, input }) => updateChurchSettings(ctx.db, ctx.tenantId, input)),
});
