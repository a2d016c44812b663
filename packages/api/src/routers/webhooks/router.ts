import { z } from 'zod';
import {
  createWebhookSchema,
  createdWebhookSchema,
  listDeliveriesInput,
  listDeliveriesOutput,
  redeliverInput,
  rotatedSecretSchema,
  updateWebhookSchema,
  webhookDeliverySchema,
  webhookIdSchema,
  webhookSchema,
} from '../../schemas/webhooks.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookPolicy,
} from '../../services/webhooks/endpoints.js';
import { listWebhookDeliveries, redeliverWebhook, sendTestWebhook } from '../../services/webhooks/deliveries.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';
import type { Context } from '../../context.js';

const rest = restTag('Webhooks');

/** https only and public addresses only, unless the server's configuration says otherwise. */
const policyOf = (ctx: Context): WebhookPolicy =>
  ctx.services.delivery.webhooks ?? { allowHttp: false, reach: 'public' };

export const webhooksRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/webhooks', "The church's webhook endpoints (never their secrets)"))
    .output(z.array(webhookSchema))
    .query(({ ctx }) => listWebhooks(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(
      rest.post('/api/webhooks', 'Add an endpoint; the answer holds its signing secret, shown this once only', {
        status: 201,
      }),
    )
    .input(createWebhookSchema)
    .output(createdWebhookSchema)
    .mutation(({ ctx, input }) => createWebhook({ db: ctx.db, policy: policyOf(ctx) }, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/webhooks/{id}', 'One endpoint'))
    .input(webhookIdSchema)
    .output(webhookSchema)
    .query(({ ctx, input }) => getWebhook(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch('/api/webhooks/{id}', 'Change an endpoint (only the fields sent); `enabled: true` turns it back on'),
    )
    .input(updateWebhookSchema)
    .output(webhookSchema)
    .mutation(({ ctx, input }) => updateWebhook({ db: ctx.db, policy: policyOf(ctx) }, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/webhooks/{id}', 'Delete an endpoint and its delivery log'))
    .input(webhookIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteWebhook(ctx.db, ctx.tenantId, input)),
  rotateSecret: protectedProcedure
    .meta(
      rest.post(
        '/api/webhooks/{id}/rotate-secret',
        'A new signing secret, shown once; the previous one keeps signing beside it for 24 hours',
      ),
    )
    .input(webhookIdSchema)
    .output(rotatedSecretSchema)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.db, ctx.tenantId, input)),
  test: protectedProcedure
    .meta(rest.post('/api/webhooks/{id}/test', 'Send a `webhook.test` event to the endpoint', { status: 201 }))
    .input(webhookIdSchema)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => sendTestWebhook(ctx.db, ctx.tenantId, input)),
  deliveries: protectedProcedure
    .meta(rest.get('/api/webhooks/{id}/deliveries', "The endpoint's delivery log, newest first"))
    .input(listDeliveriesInput)
    .output(listDeliveriesOutput)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, ctx.tenantId, input)),
  redeliver: protectedProcedure
    .meta(
      rest.post(
        '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
        'Send a delivery again now, with the same webhook-id',
      ),
    )
    .input(redeliverInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => redeliverWebhook(ctx.db, ctx.tenantId, input)),
});
