import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import {
  TRPCError,
  getErrorShape,
  getHTTPStatusCode,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  isAsyncIterable,
  isObject,
  isPromise,
  transformTRPCResponse,
  type AnyRouter,
} from '@trpc/server/unstable-core-do-not-import';

type TrpcOptions<R extends AnyRouter> = FastifyTRPCPluginOptions<R>['trpcOptions'];

/** Calls one tRPC batch may hold (apps/web's httpBatchLink `maxItems` is the same). */
export const MAX_BATCH_CALLS = 10;
export const BATCH_TOO_LARGE_MESSAGE = `A request may batch at most ${MAX_BATCH_CALLS} calls`;

/** How many calls a `?batch=1` request names (its path is the procedures, comma-separated); 1 otherwise. */
function batchCalls(req: FastifyRequest, rawPath: string): number {
  const q = req.url.indexOf('?');
  if (q === -1 || new URLSearchParams(req.url.slice(q + 1)).get('batch') !== '1') return 1;
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // tRPC's handler answers a malformed path.
  }
  return path.split(',').length;
}

/**
 * tRPC on Fastify, as `fastifyTRPCPlugin` of `@trpc/server/adapters/fastify` (same route, same body
 * parsers), with one difference: a GET of queries or a JSON POST of mutations (one or a batch, not
 * streamed) is answered directly from Fastify's request, without turning it into a Fetch `Request`
 * and the answer into a Fetch `Response` (undici objects, an AbortController per call, a web stream
 * piped into the socket). The wire format is tRPC's own: the same steps as tRPC's `resolveResponse`
 * for that case (input parsing and its errors, context, calls, `getErrorShape`, `getHTTPStatusCode`,
 * `transformTRPCResponse`, the `vary` header). Everything else — subscriptions, an empty or
 * non-JSON body, `application/jsonl` streaming, unknown procedures, HEAD — goes to tRPC's own
 * handler. Worth it: a quarter less CPU per GET query than `fastifyTRPCPlugin`, about half per
 * mutation (docs/benchmarks.md). Held to tRPC's adapter by test/api/trpc-adapter.test.ts (39
 * requests answered alike, and a mutation) and to the internal module it builds on by
 * trpc-plugin.test.ts (fails when a part it uses changes shape).
 *
 * A batch of more than `MAX_BATCH_CALLS` calls (GET or POST) is refused before anything runs: a
 * 400 in the API's error shape `{ message, code }` (the web client's httpBatchLink sends at most
 * that many, `maxItems`), so one request cannot queue hundreds of procedures.
 */
export function trpcPlugin<R extends AnyRouter>(
  fastify: FastifyInstance,
  opts: { trpcOptions: TrpcOptions<R> },
  done: (err?: Error) => void,
): void {
  // As fastifyTRPCPlugin: tRPC reads the raw bodies itself.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, next) => next(null, body));
  fastify.removeContentTypeParser('multipart/form-data');
  fastify.addContentTypeParser('multipart/form-data', {}, (_req, body, next) => next(null, body));

  const { trpcOptions } = opts;
  // Under the prefix the plugin is registered with (`/trpc`), as fastifyTRPCPlugin's route.
  fastify.all<{ Params: { path: string } }>('/:path', async (req, reply) => {
    const path = req.params.path;
    if (batchCalls(req, path) > MAX_BATCH_CALLS)
      return reply.code(400).send({ message: BATCH_TOO_LARGE_MESSAGE, code: 'BAD_REQUEST' });
    if ((req.method === 'GET' || jsonPost(req)) && !streamed(req)) {
      const answered = await answerCalls(trpcOptions, req, reply, path);
      if (answered) return;
    }
    await fastifyRequestHandler({ ...trpcOptions, req, res: reply, path } as unknown as Parameters<
      typeof fastifyRequestHandler
    >[0]);
  });
  done();
}

/** tRPC's `getAcceptHeader`: a jsonl (httpBatchStreamLink) request. */
function streamed(req: FastifyRequest): boolean {
  const trpcAccept = req.headers['trpc-accept'];
  if (trpcAccept !== undefined) return true; // whatever it says, tRPC's handler reads it
  const accept = req.headers.accept;
  return accept !== undefined && accept.split(',').some((t) => t.trim() === 'application/jsonl');
}

/** A POST of mutations whose JSON body tRPC would read (its json content-type handler); not empty. */
function jsonPost(req: FastifyRequest): boolean {
  return (
    req.method === 'POST' &&
    (req.headers['content-type']?.startsWith('application/json') ?? false) &&
    typeof req.body === 'string' &&
    req.body !== ''
  );
}

/** resolveResponse's `isDataStream`: a value the non-streaming answer cannot carry. */
function isDataStream(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (isAsyncIterable(v)) return true;
  return Object.values(v).some(isPromise) || Object.values(v).some(isAsyncIterable);
}

type CallResult = [TRPCError, undefined] | [undefined, { data: unknown }];

/**
 * Answer a GET of queries or a JSON POST of mutations as tRPC's resolveResponse would; false
 * (nothing sent, nothing run) when the request is neither and tRPC's own handler should take it.
 */
async function answerCalls<R extends AnyRouter>(
  o: TrpcOptions<R>,
  req: FastifyRequest,
  reply: FastifyReply,
  rawPath: string,
): Promise<boolean> {
  const router = o.router;
  const config = router._def._config;
  const q = req.url.indexOf('?');
  const search = new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1));
  if (search.has('connectionParams')) return false;
  const isBatchCall = search.get('batch') === '1';
  if (isBatchCall && (o.allowBatching === false || o.batching?.enabled === false)) return false;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return false;
  }
  const paths = isBatchCall ? path.split(',') : [path];
  if (isBatchCall && typeof o.maxBatchSize === 'number' && paths.length > o.maxBatchSize) return false;
  const type = req.method === 'GET' ? ('query' as const) : ('mutation' as const);
  const procedures = await Promise.all(paths.map((p) => getProcedureAtPath(router, p)));
  if (!procedures.every((p) => p?._def.type === type)) return false;

  // Inputs: parsed once, on the first call that asks (tRPC's memo), a parse error → BAD_REQUEST.
  let inputs: Promise<Record<number, unknown>> | undefined;
  let parsed: Record<number, unknown> | undefined;
  const readInputs = () =>
    (inputs ??= (async () => {
      const queryInput = search.get('input');
      // A mutation's inputs are the body (tRPC's `req.json()`); a query's the `input` parameter.
      const raw: unknown =
        type === 'mutation' ? JSON.parse(req.body as string) : queryInput ? JSON.parse(queryInput) : undefined;
      const acc: Record<number, unknown> = Object.create(null) as Record<number, unknown>;
      if (raw === undefined) return acc;
      if (!isBatchCall) {
        acc[0] = config.transformer.input.deserialize(raw);
        return acc;
      }
      if (!isObject(raw))
        throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
      for (const index of paths.keys()) {
        const input = (raw as Record<number, unknown>)[index];
        if (input !== undefined) acc[index] = config.transformer.input.deserialize(input);
      }
      return acc;
    })().then(
      (v) => (parsed = v),
      (cause: unknown) => {
        if (cause instanceof TRPCError) throw cause;
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: cause instanceof Error ? cause.message : 'Invalid input',
          cause,
        });
      },
    ));

  // As node-http's incomingMessageToRequest: aborted when the client goes. Not once the answer is
  // written: every response closes, and an abort then (a DOMException with its stack, the signal's
  // event) would only cost time, with every call already finished.
  const ac = new AbortController();
  const onAbort = () => {
    reply.raw.off('close', onAbort);
    req.raw.off('aborted', onAbort);
    if (!reply.raw.writableEnded) ac.abort();
  };
  reply.raw.once('close', onAbort);
  req.raw.once('aborted', onAbort);

  let ctx: unknown;
  let ctxError: TRPCError | undefined;
  try {
    ctx = await o.createContext?.({ req, res: reply, info: undefined } as never);
  } catch (cause) {
    ctxError = getTRPCErrorFromUnknown(cause);
  }

  const calls = await Promise.all(
    paths.map(async (callPath, index): Promise<CallResult> => {
      try {
        if (ctxError) throw ctxError;
        const data: unknown = await procedures[index]!({
          path: callPath,
          getRawInput: async () => (await readInputs())[index],
          ctx,
          type,
          signal: ac.signal,
          batchIndex: index,
        });
        return [undefined, { data }];
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        o.onError?.({ error, path: callPath, input: parsed?.[index], ctx, type, req });
        return [error, undefined];
      }
    }),
  );

  // The shape tRPC answers for an error (the router's errorFormatter applied); no index: the request's.
  const shape = (error: TRPCError, index?: number): { error: unknown } => {
    const args = {
      config,
      ctx,
      error,
      input: index === undefined ? undefined : parsed?.[index],
      path: index === undefined ? undefined : paths[index],
      type,
    };
    return { error: getErrorShape(args as never) as unknown };
  };
  let body: unknown;
  let untransformed: unknown;
  if (!isBatchCall) {
    const [error, result] = calls[0]!;
    if (!error && isDataStream(result.data)) {
      // resolveResponse throws this one and answers it as a request error (onError, type 'query').
      const streamError = new TRPCError({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
      });
      o.onError?.({ error: streamError, path: undefined, input: undefined, ctx, type, req });
      untransformed = shape(streamError);
    } else {
      untransformed = error ? shape(error, 0) : { result: { data: result.data } };
    }
    body = transformTRPCResponse(config as never, untransformed as never);
    untransformed = [untransformed];
  } else {
    const responses = calls.map(([error, result], index) => {
      if (error) return shape(error, index);
      if (isDataStream(result.data))
        return shape(
          new TRPCError({
            code: 'UNSUPPORTED_MEDIA_TYPE',
            message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
          }),
          index,
        );
      return { result: { data: result.data } };
    });
    untransformed = responses;
    body = transformTRPCResponse(config as never, responses as never);
  }
  // responseMeta (e.g. a throttled call's Retry-After), as resolveResponse applies it.
  const errors = calls.flatMap(([error]) => (error ? [error] : []));
  const meta = o.responseMeta?.({
    ctx,
    info: undefined,
    paths,
    type,
    data: untransformed,
    errors,
    eagerGeneration: false,
  } as never);
  const headers = meta?.headers instanceof Headers ? [...meta.headers.entries()] : Object.entries(meta?.headers ?? {});
  for (const [name, value] of headers) if (value !== undefined) reply.header(name, value);
  const status = meta?.status ?? getHTTPStatusCode(untransformed as never);
  await reply
    .code(status)
    .header('vary', 'trpc-accept, accept')
    .header('content-type', 'application/json')
    // A serializer of its own: Fastify leaves the type as set (tRPC's answer has no charset), and
    // the text goes to the socket as it is, not copied into a Buffer first.
    .serializer(JSON.stringify)
    .send(body);
  return true;
}
