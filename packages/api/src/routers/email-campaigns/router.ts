import { z } from 'zod';
import {
  createEmailCampaignSchema,
  emailCampaignIdSchema,
  emailCampaignSchema,
  emailStatsSchema,
  listEmailCampaignsSchema,
  previewEmailResultSchema,
  previewEmailSchema,
  testEmailSchema,
  updateEmailCampaignSchema,
} from '../../schemas/email-campaigns.js';
import {
  saveEmailCampaign,
  emailCampaignStats,
  getEmailCampaign,
  listEmailCampaigns,
} from '../../services/email-campaigns/campaigns.js';
import { previewEmail, sendTestEmail } from '../../services/email-campaigns/test-email.js';
import { protectedProcedure, router } from '../../trpc.js';
import { campaignProcedures } from '../campaign-procedures.js';

export const emailCampaignsRouter = router({
  list: protectedProcedure
    .input(listEmailCampaignsSchema)
    .output(z.array(emailCampaignSchema))
    .query(({ ctx, input }) => listEmailCampaigns(ctx.db, ctx.tenantId, input)),
  ...campaignProcedures('email', {
    fields: createEmailCampaignSchema,
    update: updateEmailCampaignSchema,
    output: emailCampaignSchema,
    get: getEmailCampaign,
    save: saveEmailCampaign,
  }),
  stats: protectedProcedure
    .input(emailCampaignIdSchema)
    .output(emailStatsSchema)
    .query(({ ctx, input }) => emailCampaignStats(ctx.db, ctx.tenantId, input.id)),
  preview: protectedProcedure
    .input(previewEmailSchema)
    .output(previewEmailResultSchema)
    .mutation(({ ctx, input }) => previewEmail({ db: ctx.db, config: ctx.services.delivery }, ctx.tenantId, input)),
  sendTest: protectedProcedure
    .input(testEmailSchema)
    .output(z.object({ ok: z.literal(true), to: z.string(), message: z.string() }))
    .mutation(({ ctx, input }) =>
      sendTestEmail({ db: ctx.db, email: ctx.services.email, config: ctx.services.delivery }, ctx.tenantId, input),
    ),
});
