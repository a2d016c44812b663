import { churchSettingsSchema, updateChurchSettingsSchema } from '../../schemas/settings.js';
import { getChurchSettings, updateChurchSettings } from '../../services/settings/church-settings.js';
import { churchProfileSchema, updateChurchProfileSchema } from '../../schemas/church-profile.js';
import { getChurchProfile, updateChurchProfile } from '../../services/church-profile/profile.js';
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
  publicProfile: protectedProcedure
    .meta(
      rest.get(
        '/api/settings/public-profile',
        "The church's public home (/c/{handle}): its handle (suggested from the name until saved) and what it shows",
      ),
    )
    .output(churchProfileSchema)
    .query(({ ctx }) => getChurchProfile(ctx.db, ctx.tenantId, ctx.services.qr.publicUrl)),
  updatePublicProfile: protectedProcedure
    .meta(
      rest.put(
        '/api/settings/public-profile',
        "Save the church's public home; a new handle must be free, and the old one redirects for a year",
        { errors: [409] },
      ),
    )
    .input(updateChurchProfileSchema)
    .output(churchProfileSchema)
    .mutation(({ ctx, input }) => updateChurchProfile(ctx.db, ctx.tenantId, input, ctx.services.qr.publicUrl)),
});
