import { z } from 'zod';
import { addSendingDomainInput, sendingDomainIdSchema, sendingDomainSchema } from '../../schemas/sending-domains.js';
import {
  addSendingDomain,
  deleteSendingDomain,
  listSendingDomains,
  verifySendingDomain,
} from '../../services/deliverability/sending-domains.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Sending domains');

export const sendingDomainsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/sending-domains', "The church's own sending domains, with the DNS records to add"))
    .output(z.array(sendingDomainSchema))
    .query(({ ctx }) => listSendingDomains(ctx.db, ctx.tenantId, ctx.services.delivery)),
  add: protectedProcedure
    .meta(
      rest.post('/api/sending-domains', 'Add a domain: Lampstand makes its DKIM key and shows the DNS records', {
        status: 201,
        errors: [409],
      }),
    )
    .input(addSendingDomainInput)
    .output(sendingDomainSchema)
    .mutation(({ ctx, input }) => addSendingDomain(ctx.db, ctx.tenantId, input, ctx.services.delivery)),
  delete: protectedProcedure
    .meta(rest.delete('/api/sending-domains/{id}', "Remove a domain: the church's mail goes From the platform again"))
    .input(sendingDomainIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteSendingDomain(ctx.db, ctx.tenantId, input)),
  verify: protectedProcedure
    .meta(rest.post('/api/sending-domains/{id}/verify', 'Look the DNS records up and say which is missing or wrong'))
    .input(sendingDomainIdSchema)
    .output(sendingDomainSchema)
    .mutation(({ ctx, input }) => verifySendingDomain(ctx.db, ctx.tenantId, input, ctx.services.delivery)),
});
