import { z } from 'zod';
import {
  createSocialPostSchema,
  listSocialPostsSchema,
  socialPostIdSchema,
  socialPostSchema,
  socialSettingsSchema,
  updateSocialPostSchema,
  updateSocialSettingsSchema,
  webhookSecretSchema,
} from '../../schemas/social-posts.js';
import {
  createSocialPost,
  deleteSocialPost,
  getSocialPost,
  listSocialPosts,
  updateSocialPost,
} from '../../services/social-posts/posts.js';
import {
  getSocialSettings,
  regenerateFeedToken,
  regenerateWebhookSecret,
  updateSocialSettings,
} from '../../services/social-posts/settings.js';
import { protectedProcedure, router } from '../../trpc.js';

export const socialPostsRouter = router({
  list: protectedProcedure
    .input(listSocialPostsSchema)
    .output(z.array(socialPostSchema))
    .query(({ ctx, input }) => listSocialPosts(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(socialPostIdSchema)
    .output(socialPostSchema)
    .query(({ ctx, input }) => getSocialPost(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .input(createSocialPostSchema)
    .output(socialPostSchema)
    .mutation(({ ctx, input }) => createSocialPost({ db: ctx.db, jobs: ctx.services.jobs }, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateSocialPostSchema)
    .output(socialPostSchema)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      updateSocialPost(
        { db: ctx.db, jobs: ctx.services.jobs, claimLeaseSeconds: ctx.services.delivery.claimLeaseSeconds },
        ctx.tenantId,
        { id, fields },
      ),
    ),
  delete: protectedProcedure
    .input(socialPostIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) =>
      deleteSocialPost(
        { db: ctx.db, jobs: ctx.services.jobs, claimLeaseSeconds: ctx.services.delivery.claimLeaseSeconds },
        ctx.tenantId,
        input.id,
      ),
    ),
  settings: protectedProcedure.output(socialSettingsSchema).query(({ ctx }) => getSocialSettings(ctx.db, ctx.tenantId)),
  updateSettings: protectedProcedure
    .input(updateSocialSettingsSchema)
    .output(socialSettingsSchema.extend({ webhookSecret: z.string().nullable() }))
    .mutation(({ ctx, input }) =>
      updateSocialSettings(
        {
          db: ctx.db,
          jobs: ctx.services.jobs,
          allowPrivate: ctx.services.delivery.socialWebhookAllowPrivate,
        },
        ctx.tenantId,
        {
          webhookUrl: input.webhookUrl ?? null,
        },
      ),
    ),
  regenerateWebhookSecret: protectedProcedure
    .output(webhookSecretSchema)
    .mutation(({ ctx }) => regenerateWebhookSecret(ctx.db, ctx.tenantId)),
  regenerateFeedToken: protectedProcedure
    .output(socialSettingsSchema)
    .mutation(({ ctx }) => regenerateFeedToken(ctx.db, ctx.tenantId)),
});
