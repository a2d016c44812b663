import { initTRPC, TRPCError } from '@trpc/server';
import { churchTurns, type ChurchTurns } from './services/limits/church-turns.js';
import { ZodError } from 'zod';
import { bypassDb, databaseKey, tenantDb } from '@lampstand/db';
import type { Context } from './context.js';
import { AppError, isBadInputDbError } from './errors.js';
import type { Meta } from './rest-meta.js';
import { actingAs, requestActor } from './services/events/actor.js';
import { READ_ONLY_KEY_REFUSED } from './schemas/api-keys.js';

export interface FieldIssue {
  path: string;
  message: string;
}

export function zodIssues(err: ZodError): FieldIssue[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Every procedure's meta is typed (rest-meta.ts): its access and REST route. */
const init = initTRPC.context<Context>().meta<Meta>();

const t = init.create({
  errorFormatter({ shape, error }) {
    const zodError = error.cause instanceof ZodError ? error.cause : null;
    const appError = error.cause instanceof AppError ? error.cause : null;
    const issues = zodError
      ? zodIssues(zodError)
      : appError?.field
        ? [{ path: appError.field, message: appError.message }]
        : undefined;
    return {
      ...shape,
      // A validation error reads as its first field's message, e.g. 'Username is required'.
      message:
        issues?.[0]?.message ?? (error.code === 'INTERNAL_SERVER_ERROR' ? 'Internal server error' : shape.message),
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, issues },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** A call's database handles acting for who made it (`requestActor`): the events it records name them. */
function actingCtx(ctx: Context): Pick<Context, 'db' | 'readDb'> {
  const actor = requestActor(ctx);
  // (A test's context may have no database: its procedures touch none.)
  return { db: ctx.db && actingAs(ctx.db, actor), readDb: ctx.readDb && actingAs(ctx.readDb, actor) };
}

/** A service's `AppError` becomes the tRPC error of the same code (and so the same HTTP status). */
function withAppErrors<R extends { ok: boolean; error?: TRPCError }>(result: R): R {
  if (result.ok || !result.error) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) throw new TRPCError({ code: cause.code, message: cause.message, cause });
  if (isBadInputDbError(cause)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause });
  return result;
}

/**
 * Every public call's one step: its database handles act for who made the call
 * (services/events/actor.ts), and a service's error is answered as its code. The signed-in
 * builders do the same in their own single step (`churchCall`): each step of tRPC's chain copies
 * the call's options and context, so a builder takes one.
 */
const callerAndErrors = t.middleware(async ({ ctx, next }) => withAppErrors(await next({ ctx: actingCtx(ctx) })));

/**
 * The builders are the auth layer, and each names its access in the procedure's meta (`access`,
 * which the REST shim documents); a procedure adds only its REST route (`.meta({ rest })`, which
 * tRPC merges over the builder's meta).
 */
export const publicProcedure = t.procedure.meta({ access: 'public' }).use(callerAndErrors);

/**
 * One church must not stall the others: a process runs at most this many of a
 * church's calls at once (a tRPC batch of 10, a script's parallel requests); the rest wait their
 * turn in order. Each call may hold a connection of the church pool (10 by default) and a share of
 * PostgreSQL's CPU: with 4, another church's p95 was 4.3× its baseline during batches of searches
 * over 200,000 contacts; with 2, 2.0× (`pnpm bench:fairness`). Past CHURCH_CALLS_WAITING waiting,
 * a call is refused (429).
 */
export const CHURCH_CALLS_AT_ONCE = 2;
export const CHURCH_CALLS_WAITING = 200;
/**
 * The turns of one database's churches. A process serves one database, but tests run several apps
 * (each on its own database, with church ids that repeat) in one process: turns kept per process
 * would let a call left hanging in one app's church hold up the same church id in the next app.
 */
const callTurnsOf = new WeakMap<object, ChurchTurns>();
function callTurns(db: Context['db']): ChurchTurns {
  const key = databaseKey(db);
  let turns = callTurnsOf.get(key);
  if (!turns)
    callTurnsOf.set(
      key,
      (turns = churchTurns({
        atOnce: CHURCH_CALLS_AT_ONCE,
        waiting: CHURCH_CALLS_WAITING,
        refuse: () =>
          new TRPCError({ code: 'TOO_MANY_REQUESTS', message: 'Too many requests at once. Please try again.' }),
      })),
    );
  return turns;
}

/**
 * A church's call turn, as `protectedProcedure` takes it, for a REST route the shim answers without
 * calling its procedure (a `jsonText` route, rest-meta.ts). Call what it returns when done.
 */
export function takeChurchTurn(db: Context['db'], tenantId: number): Promise<() => void> {
  return callTurns(db).take(tenantId);
}

/**
 * A write, which a read-only API key may not call: a mutation, or a procedure served over REST by
 * any method but GET (a POST that only counts is still refused: the scope is the HTTP method's).
 */
function isWrite(type: string, meta: Meta | undefined): boolean {
  const routes = meta?.rest === undefined ? [] : Array.isArray(meta.rest) ? meta.rest : [meta.rest];
  return type === 'mutation' || routes.some((r) => r.method !== 'GET');
}

/** Who a signed-in call is from, or the error that refuses it (not signed in; a read-only key's write). */
function signedIn(ctx: Context, type: string, meta: Meta | undefined) {
  const { user, effectiveUser } = ctx;
  if (!user || !effectiveUser) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
  }
  if (ctx.apiKeyScope === 'read' && isWrite(type, meta)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: READ_ONLY_KEY_REFUSED });
  }
  return { user, effectiveUser, tenantId: effectiveUser.id };
}

/**
 * Signed in, in one step with the public builder's (acting handles, errors by code).
 * `ctx.tenantId` is the church every query is scoped to, and `ctx.db` works as that church:
 * row-level security hides and refuses other churches' rows even where a query forgets its
 * `user_id` filter (docs/security.md). With `turn`, the call also waits for its church's turn.
 */
function churchCall(turn: boolean) {
  return t.middleware(async ({ ctx, type, meta, next }) => {
    const who = signedIn(ctx, type, meta);
    const tenantId = who.tenantId;
    const { db, readDb } = actingCtx(ctx);
    const done = turn ? await callTurns(ctx.db).take(tenantId) : undefined;
    try {
      return withAppErrors(
        await next({
          ctx: {
            ...ctx,
            ...who,
            db: tenantDb(db, tenantId),
            readDb: tenantDb(readDb ?? db, tenantId),
          },
        }),
      );
    } finally {
      done?.();
    }
  });
}

export const protectedProcedure = t.procedure.meta({ access: 'signed-in' }).use(churchCall(true));

/**
 * Signed in, like protectedProcedure, but outside the church's call turns: QR pictures, which take
 * turns in the render pool's own per-church limit (services/qr-codes/images.ts) and hold no
 * database connection while drawn, so a page of twenty thumbnails never holds up the church's
 * other calls.
 */
export const renderProcedure = t.procedure.meta({ access: 'signed-in' }).use(churchCall(false));

/**
 * A church's whole-table read that only the REST shim answers, streamed under the church's export
 * slots (the `stream` of its `.meta({ rest })`, beside the procedure in its router). The procedure
 * names the route's input and output (the OpenAPI document reads them); over tRPC it answers 405
 * instead of building every row in memory. Pages of the same rows: `contacts.find`.
 */
export const streamedProcedure = protectedProcedure.use(() => {
  throw new TRPCError({
    code: 'METHOD_NOT_SUPPORTED',
    message: 'This list is streamed over REST only (see /api/openapi.json); use contacts.find for pages of contacts',
  });
});

/**
 * The check-in routes a paired station uses: a signed-in church (staff, or an API key) as
 * `protectedProcedure`, or a station by its cookie (`ctx.station`), scoped to the station's church.
 * `ctx.checkin` says which: `station` is null for staff. Every other builder refuses a station (it
 * has no user), so its cookie reaches nothing else.
 */
export const checkinProcedure = publicProcedure.meta({ access: 'station' }).use(async ({ ctx, type, meta, next }) => {
  let tenantId: number;
  if (ctx.user && ctx.effectiveUser) {
    tenantId = signedIn(ctx, type, meta).tenantId;
  } else if (ctx.station) {
    tenantId = ctx.station.userId;
  } else {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
  }
  const station = ctx.user ? null : (ctx.station ?? null);
  const done = await callTurns(ctx.db).take(tenantId);
  try {
    return await next({
      ctx: {
        ...ctx,
        tenantId,
        db: tenantDb(ctx.db, tenantId),
        checkin: { tenantId, station, userId: station ? null : (ctx.user?.id ?? null), now: new Date() },
      },
    });
  } finally {
    done();
  }
});

/** Signed in with the session cookie, not an API key (managing API keys, for one). */
export const sessionProcedure = protectedProcedure.meta({ access: 'session' }).use(({ ctx, next }) => {
  if (ctx.authMethod === 'apiKey') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Not available with an API key' });
  }
  return next();
});

/**
 * A platform administrator acting as themself (while impersonating, they act as the church).
 * Never with an API key, even an administrator's: keys act as their church only.
 */
export const adminProcedure = protectedProcedure.meta({ access: 'admin' }).use(({ ctx, next }) => {
  if (ctx.authMethod === 'apiKey') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Administrator access required' });
  }
  if (ctx.effectiveUser.role !== 'admin') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Administrator access required' });
  }
  // Row-level security bypass: administrators work across churches (docs/security.md).
  return next({ ctx: { ...ctx, db: bypassDb(ctx.db), readDb: bypassDb(ctx.readDb ?? ctx.db) } });
});
