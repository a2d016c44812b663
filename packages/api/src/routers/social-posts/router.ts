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
import { restTag } from '../../rest-meta.js';

const rest = restTag('Social posts');

export const socialPostsRouter = router({
  list: protectedProcedure
    .meta(
      rest.get(
        '/api/social-posts',
        'Social posts by scheduled time; ?from=&to= (ISO 8601) keep those from `from` up to before `to`',
      ),
    )
    .input(listSocialPostsSchema)
    .output(z.array(socialPostSchema))
    .query(({ ctx, input }) => listSocialPosts(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/social-posts/{id}', 'One social post, with why publishing failed'))
    .input(socialPostIdSchema)
    .output(socialPostSchema)
    .query(({ ctx, input }) => getSocialPost(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/social-posts',
        'Schedule a social post (content, scheduledFor, platforms, status, imageUrl, linkUrl, tags)',
        { status: 201 },
      ),
    )
    .input(createSocialPostSchema)
    .output(socialPostSchema)
    .mutation(({ ctx, input }) => createSocialPost({ db: ctx.db, jobs: ctx.services.jobs }, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.put(
        '/api/social-posts/{id}',
        'Replace a post; a new time reschedules its publishing (409 while it is being published)',
      ),
    )
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
    .meta(
      rest.delete(
        '/api/social-posts/{id}',
        'Delete a post; it will not be published (409 while it is being published)',
      ),
    )
    .input(socialPostIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) =>
      deleteSocialPost(
        { db: ctx.db, jobs: ctx.services.jobs, claimLeaseSeconds: ctx.services.delivery.claimLeaseSeconds },
        ctx.tenantId,
        input.id,
      ),
    ),
  settings: protectedProcedure
    .meta(
      rest.get(
        '/api/social-settings',
        'The publishing webhook (whether a signing secret exists) and the calendar feed path',
      ),
    )
    .output(socialSettingsSchema)
    .query(({ ctx }) => getSocialSettings(ctx.db, ctx.tenantId)),
  updateSettings: protectedProcedure
    .meta(
      rest.put(
        '/api/social-settings',
        'Set or clear (null) the publishing webhook URL; the first time, the signing secret is returned once',
      ),
    )
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
    .meta(rest.post('/api/social-settings/webhook-secret', 'A new webhook signing secret, shown once'))
    .output(webhookSecretSchema)
    .mutation(({ ctx }) => regenerateWebhookSecret(ctx.db, ctx.tenantId)),
  regenerateFeedToken: protectedProcedure
    .meta(rest.post('/api/social-settings/feed-token', 'A new calendar feed address (the old one stops working)'))
    .output(socialSettingsSchema)
    .mutation(({ ctx }) => regenerateFeedToken(ctx.db, ctx.tenantId)),
});
