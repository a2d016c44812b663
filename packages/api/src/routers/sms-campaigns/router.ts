import { startCampaign } from '../../services/delivery/campaigns.js';
import { deleteCampaign } from '../../services/delivery/campaign-common.js';
import { z } from 'zod';
import { recipientCountInputSchema, recipientCountSchema } from '../../schemas/campaigns.js';
import { countRecipients } from '../../services/delivery/recipients.js';
import {
  createSmsCampaignSchema,
  smsCampaignIdSchema,
  smsCampaignSchema,
  updateSmsCampaignSchema,
} from '../../schemas/sms-campaigns.js';
import {
  createSmsCampaign,
  getSmsCampaign,
  listSmsCampaigns,
  updateSmsCampaign,
} from '../../services/sms-campaigns/campaigns.js';
import { protectedProcedure, router } from '../../trpc.js';

export const smsCampaignsRouter = router({
  list: protectedProcedure
    .output(z.array(smsCampaignSchema))
    .query(({ ctx }) => listSmsCampaigns(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .input(smsCampaignIdSchema)
    .output(smsCampaignSchema)
    .query(({ ctx, input }) => getSmsCampaign(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .input(createSmsCampaignSchema)
    .output(smsCampaignSchema)
    .mutation(({ ctx, input }) => createSmsCampaign(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateSmsCampaignSchema)
    .output(smsCampaignSchema)
    .mutation(({ ctx, input }) => updateSmsCampaign(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(smsCampaignIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteCampaign(ctx.db, 'sms', ctx.tenantId, input.id)),
  send: protectedProcedure
    .input(smsCampaignIdSchema)
    .output(smsCampaignSchema)
    .mutation(({ ctx, input }) =>
      startCampaign(ctx.db, ctx.services.jobs, 'sms', ctx.tenantId, { id: input.id }).then(() =>
        getSmsCampaign(ctx.db, ctx.tenantId, input.id),
      ),
    ),
  recipientCount: protectedProcedure
    .input(recipientCountInputSchema)
    .output(recipientCountSchema)
    .query(({ ctx, input }) => countRecipients(ctx.db, ctx.tenantId, { channel: 'sms', listIds: input.listIds })),
});
