import { churchSettingsSchema, updateChurchSettingsSchema } from '../../schemas/settings.js';
import { getChurchSettings, updateChurchSettings } from '../../services/settings/church-settings.js';
import { churchProfileSchema, updateChurchProfileSchema } from '../../schemas/church-profile.js';
import { getChurchProfile, updateChurchProfile } from '../../services/church-profile/profile.js';
import { smsNumberSchema, updateSmsNumberSchema } from '../../schemas/sms-number.js';
import {
  getSmsNumber,
  removeSmsNumber,
  saveSmsNumber,
  type SmsNumberDeps,
} from '../../services/settings/sms-number.js';
import type { Context } from '../../context.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Settings');

const smsNumberDeps = (ctx: Pick<Context, 'db' | 'services'>): SmsNumberDeps => ({
  db: ctx.db,
  sharedNumber: ctx.services.delivery.smsFromNumber,
  publicUrl: ctx.services.delivery.publicUrl,
  twilioApiBaseUrl: ctx.services.delivery.twilioApiBaseUrl ?? 'https://api.twilio.com',
});

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
  texting: protectedProcedure
    .meta(
      rest.get(
        '/api/settings/texting',
        "The church's texting number: its own (a Twilio number or Messaging Service) or the shared one",
      ),
    )
    .output(smsNumberSchema)
    .query(({ ctx }) => getSmsNumber(smsNumberDeps(ctx), ctx.tenantId)),
  updateTexting: protectedProcedure
    .meta(
      rest.put(
        '/api/settings/texting',
        "Save the church's own number or Messaging Service with its Twilio Account SID and Auth Token, once Twilio confirms them",
        { errors: [409] },
      ),
    )
    .input(updateSmsNumberSchema)
    .output(smsNumberSchema)
    .mutation(({ ctx, input }) => saveSmsNumber(smsNumberDeps(ctx), ctx.tenantId, input)),
  removeTexting: protectedProcedure
    .meta(
      rest.delete(
        '/api/settings/texting',
        'Go back to the shared number (the own number and its credentials are forgotten)',
      ),
    )
    .output(smsNumberSchema)
    .mutation(({ ctx }) => removeSmsNumber(smsNumberDeps(ctx), ctx.tenantId)),
});
