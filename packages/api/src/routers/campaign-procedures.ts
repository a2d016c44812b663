import { z } from 'zod';
import type { inferParser } from '@trpc/server/unstable-core-do-not-import';
import type { Channel, Db } from '@lampstand/db';
import { campaignIdSchema, recipientCountInputSchema, recipientCountSchema } from '../schemas/campaigns.js';
import type { JobQueue } from '../jobs.js';
import { startCampaign } from '../services/delivery/campaigns.js';
import { deleteCampaign } from '../services/delivery/campaign-common.js';
import { countRecipients } from '../services/delivery/recipients.js';
import { restTag } from '../rest-meta.js';
import { protectedProcedure } from '../trpc.js';

/**
 * tRPC cannot relate a generic output schema to its resolver's answer; `c.get` and `c.save` are
 * checked against the schema where a channel passes them (their types above), so this only
 * hands tRPC what it already is.
 */
const answer = <T>(p: Promise<T>) => p as Promise<never>;

/**
 * The procedures every campaign channel has, in one place: get, create, update, delete, send and
 * the recipient count. A channel's router spreads them and adds its own (list, stats, previews).
 */
export function campaignProcedures<Fields extends z.ZodType, Update extends z.ZodType, Out extends z.ZodType>(
  channel: Channel,
  c: {
    fields: Fields;
    update: Update;
    output: Out;
    get: (db: Db, tenantId: number, id: number) => Promise<inferParser<Out>['in']>;
    save: (
      db: Db,
      jobs: JobQueue,
      tenantId: number,
      input: inferParser<Fields>['out'] | inferParser<Update>['out'],
    ) => Promise<inferParser<Out>['in']>;
    /**
     * The REST routes, under the channel's own path (`/api/email-campaigns`) and tag, with each
     * procedure's summary in the channel's words; methods, paths below it, statuses and errors are
     * the same for every channel.
     */
    rest: {
      path: string;
      tag: string;
      summaries: Record<'get' | 'create' | 'update' | 'delete' | 'send' | 'recipientCount', string>;
    };
  },
) {
  const rest = restTag(c.rest.tag);
  const { path, summaries } = c.rest;
  return {
    get: protectedProcedure
      .meta(rest.get(`${path}/{id}`, summaries.get))
      .input(campaignIdSchema)
      .output(c.output)
      .query(({ ctx, input }) => answer(c.get(ctx.db, ctx.tenantId, input.id))),
    create: protectedProcedure
      .meta(rest.post(path, summaries.create, { status: 201 }))
      .input(c.fields)
      .output(c.output)
      .mutation(({ ctx, input }) => answer(c.save(ctx.db, ctx.services.jobs, ctx.tenantId, input))),
    update: protectedProcedure
      .meta(rest.put(`${path}/{id}`, summaries.update, { errors: [409] }))
      .input(c.update)
      .output(c.output)
      .mutation(({ ctx, input }) => answer(c.save(ctx.db, ctx.services.jobs, ctx.tenantId, input))),
    delete: protectedProcedure
      .meta(rest.delete(`${path}/{id}`, summaries.delete, { errors: [409] }))
      .input(campaignIdSchema)
      .output(z.object({ id: z.number().int() }))
      .mutation(({ ctx, input }) => deleteCampaign(ctx.db, channel, ctx.tenantId, input.id)),
    send: protectedProcedure
      .meta(rest.post(`${path}/{id}/send`, summaries.send, { errors: [409, 429] }))
      .input(campaignIdSchema)
      .output(c.output)
      .mutation(async ({ ctx, input }) => {
        await startCampaign(ctx.db, ctx.services.jobs, channel, ctx.tenantId, {
          id: input.id,
          unverifiedDailyRecipients: ctx.services.delivery.unverifiedDailyRecipients,
        });
        return answer(c.get(ctx.db, ctx.tenantId, input.id));
      }),
    recipientCount: protectedProcedure
      .meta(rest.post(`${path}/recipient-count`, summaries.recipientCount, { errors: [404] }))
      .input(recipientCountInputSchema)
      .output(recipientCountSchema)
      .query(({ ctx, input }) => countRecipients(ctx.db, ctx.tenantId, { channel, listIds: input.listIds })),
  };
}
