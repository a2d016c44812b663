import { churchSettingsSchema, updateChurchSettingsSchema } from '../../schemas/settings.js';
import { getChurchSettings, updateChurchSettings } from '../../services/settings/church-settings.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Settings');

export const settingsRouter = router({
  get: protectedProcedure
    .meta(rest.get('/api/settings', "The church's settings (postal address for campaign footers)"))
    .output(churchSettingsSchema)
    .query(({ ctx }) => getChurchSettings(ctx.db, ctx.tenantId)),
  update: protectedProcedure
    .meta(rest.put('/api/settings', "Replace the church's settings (PUT: unsent fields are cleared)"))
    .input(updateChurchSettingsSchema)
    .output(churchSettingsSchema)
    .mutation(({ ctx, input }) => updateChurchSettings(ctx.db, ctx.tenantId, input)),
});
