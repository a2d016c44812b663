import { z } from 'zod';
import { createSmsCampaignSchema, smsCampaignSchema, updateSmsCampaignSchema } from '../../schemas/sms-campaigns.js';
import { saveSmsCampaign, getSmsCampaign, listSmsCampaigns } from '../../services/sms-campaigns/campaigns.js';
import { protectedProcedure, router } from '../../trpc.js';
import { campaignProcedures } from '../campaign-procedures.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('SMS campaigns');

export const smsCampaignsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/sms-campaigns', 'SMS campaigns, newest first'))
    .output(z.array(smsCampaignSchema))
    .query(({ ctx }) => listSmsCampaigns(ctx.db, ctx.tenantId)),
  ...campaignProcedures('sms', {
    fields: createSmsCampaignSchema,
    update: updateSmsCampaignSchema,
    output: smsCampaignSchema,
    get: getSmsCampaign,
    save: saveSmsCampaign,
    rest: {
      path: '/api/sms-campaigns',
      tag: 'SMS campaigns',
      summaries: {
        create: 'Create an SMS campaign (draft, scheduled with scheduledFor, or ready)',
        recipientCount: 'How many people a send to these lists reaches (a mobile number, not opted out), and the lists',
        get: 'One SMS campaign, with delivery progress',
        update: 'Replace a campaign that has not been sent (PUT: the whole record; 409 after)',
        delete: 'Delete an SMS campaign',
        send: "Send now: snapshot the recipients and deliver in the background (429 past the church's daily recipient limit)",
      },
    },
  }),
});
