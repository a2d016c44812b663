import { z } from 'zod';
import { outboxMessageSchema, outboxQuerySchema } from '../../schemas/outbox.js';
import { listOutbox } from '../../services/email-campaigns/outbox.js';
import { router, sessionProcedure } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Email campaigns');

export const outboxRouter = router({
  // Staff signed in only, never an API key: the outbox holds live sign-in, verification, confirm,
  // manage, unsubscribe and serve links, and SMS sign-in codes (docs/decisions.md).
  list: sessionProcedure
    .meta(
      rest.get(
        '/api/outbox',
        'Messages kept in the local outbox (no SMTP or SMS provider configured); ?channel=email|sms&campaignId=',
      ),
    )
    .input(outboxQuerySchema)
    .output(z.array(outboxMessageSchema))
    .query(({ ctx, input }) => listOutbox(ctx.db, ctx.tenantId, input)),
});
