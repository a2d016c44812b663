import { z } from 'zod';
import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { Channel, Db } from '@lampstand/db';
import { campaignIdSchema, recipientCountInputSchema, recipientCountSchema } from '../schemas/campaigns.js';
import type { JobQueue } from '../jobs.js';
import { startCampaign } from '../services/delivery/campaigns.js';
import { deleteCampaign } from '../services/delivery/campaign-common.js';
import { countRecipients } from '../services/delivery/recipients.js';
import { restTag, type Meta } from '../rest-meta.js';
import { protectedProcedure } from '../trpc.js';

/**
 * tRPC cannot relate a generic output schema to its resolver's answer; `c.get` and `c.save` are
 * checked against the schema where a channel passes them (their types above), so this only
 * hands tRPC what it already is.
 */
const answer = <T>(p: Promise<T>) => p as Promise<never>;

/**
 * The same for a generic input schema: tRPC types the parsed input through its own parser
 * inference (not among its public exports), which TypeScript cannot match to zod's `z.output` of
 * the same schema until the schema is known. The input was parsed by `schema`, so it is that
 * schema's output.
 */
const parsedBy = <S extends z.ZodType>(_schema: S, input: unknown) => input as z.output<S>;

/** A procedure as the client sees it: its input before parsing, its output after. */
type Def<In extends z.ZodType, Out extends z.ZodType> = { input: z.input<In>; output: z.output<Out>; meta: Meta };

/**
 * The procedures' types, written with tRPC's public procedure types and zod's inference: left to
 * TypeScript, they would be named through tRPC's internal module (its parser inference), which a
 * declaration cannot refer to without importing that module.
 */
export interface CampaignProcedures<Fields extends z.ZodType, Update extends z.ZodType, Out extends z.ZodType> {
  get: TRPCQueryProcedure<Def<typeof campaignIdSchema, Out>>;
  create: TRPCMutationProcedure<Def<Fields, Out>>;
  update: TRPCMutationProcedure<Def<Update, Out>>;
  delete: TRPCMutationProcedure<{ input: z.input<typeof campaignIdSchema>; output: { id: number }; meta: Meta }>;
  send: TRPCMutationProcedure<Def<typeof campaignIdSchema, Out>>;
  recipientCount: TRPCQueryProcedure<Def<typeof recipientCountInputSchema, typeof recipientCountSchema>>;
}

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
    get: (db: Db, tenantId: number, id: number) => Promise<z.input<Out>>;
    save: (
      db: Db,
      jobs: JobQueue,
      tenantId: number,
      input: z.output<Fields> | z.output<Update>,
    ) => Promise<z.input<Out>>;
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
): CampaignProcedures<Fields, Update, Out> {
  const rest = restTag(c.rest.tag);
  const { path, summaries } = c.rest;
  const procedures = {
    get: protectedProcedure
      .meta(rest.get(`${path}/{id}`, summaries.get))
      .input(campaignIdSchema)
      .output(c.output)
      .query(({ ctx, input }) => answer(c.get(ctx.db, ctx.tenantId, input.id))),
    create: protectedProcedure
      .meta(rest.post(path, summaries.create, { status: 201 }))
      .input(c.fields)
      .output(c.output)
      .mutation(({ ctx, input }) => answer(c.save(ctx.db, ctx.services.jobs, ctx.tenantId, parsedBy(c.fields, input)))),
    update: protectedProcedure
      .meta(rest.put(`${path}/{id}`, summaries.update, { errors: [409] }))
      .input(c.update)
      .output(c.output)
      .mutation(({ ctx, input }) => answer(c.save(ctx.db, ctx.services.jobs, ctx.tenantId, parsedBy(c.update, input)))),
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
  return procedures as CampaignProcedures<Fields, Update, Out>;
}
