import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AnyRouter } from '@trpc/server';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';

/** Calls one tRPC batch may hold (apps/web's httpBatchLink `maxItems` is the same). */
export const MAX_BATCH_CALLS = 10;
export const BATCH_TOO_LARGE_MESSAGE = `A request may batch at most ${MAX_BATCH_CALLS} calls`;

/** How many calls a `?batch=1` request names (its path is the procedures, comma-separated); 1 otherwise. */
function batchCalls(req: FastifyRequest<{ Params: { path?: string } }>): number {
  const q = req.url.indexOf('?');
  if (q === -1 || new URLSearchParams(req.url.slice(q + 1)).get('batch') !== '1') return 1;
  let path = req.params.path ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // tRPC's handler answers a malformed path.
  }
  return path.split(',').length;
}

/**
 * A batch of more than `MAX_BATCH_CALLS` calls (GET or POST) is refused before its body is read or
 * anything runs: a 400 in the API's error shape `{ message, code }` (the web client's httpBatchLink
 * sends at most that many, `maxItems`), so one request cannot queue hundreds of procedures.
 */
function refuseLargeBatch(
  req: FastifyRequest<{ Params: { path?: string } }>,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (batchCalls(req) > MAX_BATCH_CALLS) {
    void reply.code(400).send({ message: BATCH_TOO_LARGE_MESSAGE, code: 'BAD_REQUEST' });
    return;
  }
  done();
}

/**
 * tRPC on Fastify: tRPC's own `fastifyTRPCPlugin` (its route `/:path` under the prefix this plugin is
 * registered with, its body parsers), behind the batch limit above.
 */
export async function trpcPlugin<R extends AnyRouter>(
  fastify: FastifyInstance,
  opts: { trpcOptions: FastifyTRPCPluginOptions<R>['trpcOptions'] },
): Promise<void> {
  fastify.addHook('onRequest', refuseLargeBatch);
  await fastify.register(fastifyTRPCPlugin, { trpcOptions: opts.trpcOptions });
}
