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
import { restTag } from '../../rest-meta.js';

const rest = restTag('Email campaigns');

export const emailCampaignsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/email-campaigns', 'Email campaigns, newest first; ?status=draft|scheduled|sent filters'))
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
      path: '/api/email-campaigns',
      tag: 'Email campaigns',
      summaries: {
        create: 'Create an email campaign (draft, or scheduled with scheduledFor)',
        recipientCount:
          'How many people a send to these lists reaches (subscribed, with an email address), and the lists',
        get: 'One email campaign, with sending progress',
        update: 'Replace a draft or scheduled campaign (PUT: the whole record; 409 once sending or sent)',
        delete: 'Delete a campaign',
        send: "Send now: snapshot the recipients and deliver in the background (409 if already sent; 429 past the church's daily recipient limit)",
      },
    },
  }),
  stats: protectedProcedure
    .meta(rest.get('/api/email/campaigns/{id}/stats', 'Sent, opened, clicked, bounced and unsubscribed counts'))
    .input(emailCampaignIdSchema)
    .output(emailStatsSchema)
    .query(({ ctx, input }) => emailCampaignStats(ctx.db, ctx.tenantId, input.id)),
  preview: protectedProcedure
    .meta(
      rest.post(
        '/api/email-campaigns/preview',
        'The message as a recipient sees it (subject, content, optional listId for the sample contact)',
      ),
    )
    .input(previewEmailSchema)
    .output(previewEmailResultSchema)
    .mutation(({ ctx, input }) => previewEmail({ db: ctx.db, config: ctx.services.delivery }, ctx.tenantId, input)),
  sendTest: protectedProcedure
    .meta(rest.post('/api/email-campaigns/test', 'Send a test email of the given subject and content to testEmail'))
    .input(testEmailSchema)
    .output(z.object({ ok: z.literal(true), to: z.string(), message: z.string() }))
    .mutation(({ ctx, input }) =>
      sendTestEmail({ db: ctx.db, email: ctx.services.email, config: ctx.services.delivery }, ctx.tenantId, input),
    ),
});
