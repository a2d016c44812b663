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
    .meta({
      rest: {
        method: 'GET',
        path: '/api/email-campaigns',
        summary: 'Email campaigns, newest first; ?status=draft|scheduled|sent filters',
        tag: 'Email campaigns',
      },
    })
    .input(listEmailCampaignsSchema)
    .output(z.array(emailCampaignSchema))
    .query(({ ctx, input }) => listEmailCampaigns(ctx.db, ctx.tenantId, input)),
  ...campaignProcedures('email', {
    fields: createEmailCampaignSchema,
    update: updateEmailCampaignSchema,
    output: emailCampaignSchema,
    get: getEmailCampaign,
    save: saveEmailCampaign,
    rest: {
      create: {
        method: 'POST',
        path: '/api/email-campaigns',
        summary: 'Create an email campaign (draft, or scheduled with scheduledFor)',
        tag: 'Email campaigns',
        status: 201,
      },
      recipientCount: {
        method: 'POST',
        path: '/api/email-campaigns/recipient-count',
        summary: 'How many people a send to these lists reaches (subscribed, with an email address), and the lists',
        tag: 'Email campaigns',
        errors: [404],
      },
      get: {
        method: 'GET',
        path: '/api/email-campaigns/{id}',
        summary: 'One email campaign, with sending progress',
        tag: 'Email campaigns',
      },
      update: {
        method: 'PUT',
        path: '/api/email-campaigns/{id}',
        summary: 'Replace a draft or scheduled campaign (PUT: the whole record; 409 once sending or sent)',
        tag: 'Email campaigns',
        errors: [409],
      },
      delete: {
        method: 'DELETE',
        path: '/api/email-campaigns/{id}',
        summary: 'Delete a campaign',
        tag: 'Email campaigns',
        errors: [409],
      },
      send: {
        method: 'POST',
        path: '/api/email-campaigns/{id}/send',
        summary:
          "Send now: snapshot the recipients and deliver in the background (409 if already sent; 429 past the church's daily recipient limit)",
        tag: 'Email campaigns',
        errors: [409, 429],
      },
    },
  }),
  stats: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/email/campaigns/{id}/stats',
        summary: 'Sent, opened, clicked, bounced and unsubscribed counts',
        tag: 'Email campaigns',
      },
    })
    .input(emailCampaignIdSchema)
    .output(emailStatsSchema)
    .query(({ ctx, input }) => emailCampaignStats(ctx.db, ctx.tenantId, input.id)),
  preview: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/email-campaigns/preview',
        summary: 'The message as a recipient sees it (subject, content, optional listId for the sample contact)',
        tag: 'Email campaigns',
      },
    })
    .input(previewEmailSchema)
    .output(previewEmailResultSchema)
    .mutation(({ ctx, input }) => previewEmail({ db: ctx.db, config: ctx.services.delivery }, ctx.tenantId, input)),
  sendTest: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/email-campaigns/test',
        summary: 'Send a test email of the given subject and content to testEmail',
        tag: 'Email campaigns',
      },
    })
    .input(testEmailSchema)
    .output(z.object({ ok: z.literal(true), to: z.string(), message: z.string() }))
    .mutation(({ ctx, input }) =>
      sendTestEmail({ db: ctx.db, email: ctx.services.email, config: ctx.services.delivery }, ctx.tenantId, input),
    ),
});
