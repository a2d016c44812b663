import { z } from 'zod';
import { createSmsCampaignSchema, smsCampaignSchema, updateSmsCampaignSchema } from '../../schemas/sms-campaigns.js';
import { saveSmsCampaign, getSmsCampaign, listSmsCampaigns } from '../../services/sms-campaigns/campaigns.js';
import { protectedProcedure, router } from '../../trpc.js';
import { campaignProcedures } from '../campaign-procedures.js';

export const smsCampaignsRouter = router({
  list: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/sms-campaigns', summary: 'SMS campaigns, newest first', tag: 'SMS campaigns' },
    })
    .output(z.array(smsCampaignSchema))
    .query(({ ctx }) => listSmsCampaigns(ctx.db, ctx.tenantId)),
  ...campaignProcedures('sms', {
    fields: createSmsCampaignSchema,
    update: updateSmsCampaignSchema,
    output: smsCampaignSchema,
    get: getSmsCampaign,
    save: saveSmsCampaign,
    rest: {
      create: {
        method: 'POST',
        path: '/api/sms-campaigns',
        summary: 'Create an SMS campaign (draft, scheduled with scheduledFor, or ready)',
        tag: 'SMS campaigns',
        status: 201,
      },
      recipientCount: {
        method: 'POST',
        path: '/api/sms-campaigns/recipient-count',
        summary: 'How many people a send to these lists reaches (a mobile number, not opted out), and the lists',
        tag: 'SMS campaigns',
        errors: [404],
      },
      get: {
        method: 'GET',
        path: '/api/sms-campaigns/{id}',
        summary: 'One SMS campaign, with delivery progress',
        tag: 'SMS campaigns',
      },
      update: {
        method: 'PUT',
        path: '/api/sms-campaigns/{id}',
        summary: 'Replace a campaign that has not been sent (PUT: the whole record; 409 after)',
        tag: 'SMS campaigns',
        errors: [409],
      },
      delete: {
        method: 'DELETE',
        path: '/api/sms-campaigns/{id}',
        summary: 'Delete an SMS campaign',
        tag: 'SMS campaigns',
        errors: [409],
      },
      send: {
        method: 'POST',
        path: '/api/sms-campaigns/{id}/send',
        summary:
          "Send now: snapshot the recipients and deliver in the background (429 past the church's daily recipient limit)",
        tag: 'SMS campaigns',
        errors: [409, 429],
      },
    },
  }),
});
