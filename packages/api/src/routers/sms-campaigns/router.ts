import { z } from 'zod';
import { createSmsCampaignSchema, smsCampaignSchema, updateSmsCampaignSchema } from '../../schemas/sms-campaigns.js';
import { saveSmsCampaign, getSmsCampaign, listSmsCampaigns } from '../../services/sms-campaigns/campaigns.js';
import { protectedProcedure, router } from '../../trpc.js';
import { campaignProcedures } from '../campaign-procedures.js';

export const smsCampaignsRouter = router({
  list: protectedProcedure
    .output(z.array(smsCampaignSchema))
    .query(({ ctx }) => listSmsCampaigns(ctx.db, ctx.tenantId)),
  ...campaignProcedures('sms', {
    fields: createSmsCampaignSchema,
    update: updateSmsCampaignSchema,
    output: smsCampaignSchema,
    get: getSmsCampaign,
    save: saveSmsCampaign,
  }),
});
