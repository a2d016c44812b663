import { startCampaign } from '../../services/delivery/campaigns.js';
import { deleteCampaign } from '../../services/delivery/campaign-common.js';
import { z } from 'zod';
import { recipientCountInputSchema, recipientCountSchema } from '../../schemas/campaigns.js';
import { countRecipients } from '../../services/delivery/recipients.js';
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
  createEmailCampaign,
  emailCampaignStats,
  getEmailCampaign,
  listEmailCampaigns,
  updateEmailCampaign,
} from '../../services/email-campaigns/campaigns.js';
import { previewEmail, sendTestEmail } from '../../services/email-campaigns/test-email.js';
import { protectedProcedure, router } from '../../trpc.js';

export const emailCampaignsRouter = router({
  list: protectedProcedure
    .input(listEmailCampaignsSchema)
    .output(z.array(emailCampaignSchema))
    .query(({ ctx, input }) => listEmailCampaigns(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(emailCampaignIdSchema)
    .output(emailCampaignSchema)
    .query(({ ctx, input }) => getEmailCampaign(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .input(createEmailCampaignSchema)
    .output(emailCampaignSchema)
    .mutation(({ ctx, input }) => createEmailCampaign(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateEmailCampaignSchema)
    .output(emailCampaignSchema)
    .mutation(({ ctx, input }) => updateEmailCampaign(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(emailCampaignIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteCampaign(ctx.db, 'email', ctx.tenantId, input.id)),
  send: protectedProcedure
    .input(emailCampaignIdSchema)
    .output(emailCampaignSchema)
    .mutation(({ ctx, input }) =>
      startCampaign(ctx.db, ctx.services.jobs, 'email', ctx.tenantId, { id: input.id }).then(() =>
        getEmailCampaign(ctx.db, ctx.tenantId, input.id),
      ),
    ),
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
  recipientCount: protectedProcedure
    .input(recipientCountInputSchema)
    .output(recipientCountSchema)
    .query(({ ctx, input }) => countRecipients(ctx.db, ctx.tenantId, { channel: 'email', listIds: input.listIds })),
});
