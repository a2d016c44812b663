import { churchSettingsSchema, updateChurchSettingsSchema } from '../../schemas/settings.js';
import { getChurchSettings, updateChurchSettings } from '../../services/settings/church-settings.js';
import { protectedProcedure, router } from '../../trpc.js';

export const settingsRouter = router({
  get: protectedProcedure.output(churchSettingsSchema).query(({ ctx }) => getChurchSettings(ctx.db, ctx.tenantId)),
  update: protectedProcedure
    .input(updateChurchSettingsSchema)
    .output(churchSettingsSchema)
    .mutation(({ ctx, input }) => updateChurchSettings(ctx.db, ctx.tenantId, input)),
});
