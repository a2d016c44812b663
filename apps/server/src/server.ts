import crypto from 'node:crypto';
import { startBounceReceiver, type BounceReceiver } from './bounces.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import fastifyCompress from '@fastify/compress';
import type { FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { appRouter } from '@lampstand/api/server';
import type { AppDeps } from './app-deps.js';
import { publicRoutes } from './public-routes.js';
import { providerWebhookRoutes } from './provider-webhooks.js';
import { servicePlannerPublicRoutes } from './public/service-planner.js';
import { qrShortLinkRoutes } from './public/qr-codes.js';
import { showUpPublic } from './public/show-up.js';
import { uploadRoutes } from './public/uploads.js';
import { importUploadRoutes } from './public/imports-upload.js';
import { exportDownloadRoutes } from './public/exports.js';
import { socialPostsPublicRoutes } from './public/social-posts.js';
import { calendarPublicRoutes } from './public/calendar.js';
import { portalRoutes } from './public/portal.js';
import { landingPageRoutes } from './public/landing-pages.js';
import { givingPublicRoutes } from './public/giving.js';
import { groupsPublicRoutes } from './public/groups.js';
import { eventsPublicRoutes } from './public/events.js';
import type { AppRouter } from '@lampstand/api';
import { getOrCreateSetting, pendingMigrations, randomSecret, sql } from '@lampstand/db';
import { checkExactOutputs, issueSetupToken, retryAfterOf } from '@lampstand/api/server';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { trpcPlugin } from './trpc-plugin.js';
import { createLogStream, OneLineRequestLog } from './logger.js';
import { PgSessionStore, sessionRefreshHook } from './session-store.js';
import { restPlugin } from './rest/plugin.js';
import { codeForStatus, toErrorResponse } from './rest/errors.js';
import { apiCompression, isAppRoute, serveWebApp } from './static.js';
import { registerSecurity } from './security/index.js';
import { DEFAULT_BODY_LIMIT } from './security/body-limits.js';
import { checkinPairingRoutes } from './public/checkin-pairing.js';
import { SESSION_COOKIE } from './session-cookie.js';

export { SESSION_COOKIE };

/** What /trpc runs (also what the adapter equivalence test mounts tRPC's own adapter with). */
export function trpcOptionsFor(
  deps: AppDeps,
  log: FastifyBaseLogger,
): FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] {
  return {
    router: appRouter,
    createContext: ({ req }) => createContext(deps, req),
    // A throttled call answers `Retry-After` (the longest wait of a batch's refused calls).
    responseMeta: ({ errors }) => {
      const waits = errors.map((e) => retryAfterOf(e) ?? 0);
      const wait = Math.max(0, ...waits);
      return wait > 0 ? { headers: new Headers({ 'retry-after': String(wait) }) } : {};
    },
    onError: ({ error, path: procPath }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') log.error({ err: error, procedure: procPath }, 'procedure failed');
    },
  };
}
const SESSION_MAX_AGE_MS = 1000 * 60 * 60 * 24 * 14;

export interface ServerHandle {
  app: FastifyInstance;
  /** Listen on config.port (0 = a free one); resolves to the base URL. */
  start(): Promise<string>;
  /** Stop taking connections and finish the requests under way. */
  stop(): Promise<void>;
  /** The bounce receiver's SMTP port once started (BOUNCE_SMTP_PORT set), else null. */
  bouncePort(): number | null;
  /** The one-time setup token issued at start when there is no administrator yet (else null). */
  setupToken: string | null;
}

export async function createServer(config: Config, deps: AppDeps): Promise<ServerHandle> {
  const { db } = deps;
  // Answers built in their output form are checked against their schemas except in production
  // (every test checks them; production skips the second parse they exist to save).
  checkExactOutputs(config.nodeEnv !== 'production');
  const logStream = config.logLevel !== 'silent' && config.nodeEnv === 'production' ? createLogStream() : null;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // JSON lines with the request id; never credentials, cookies or bodies.
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'res.headers["set-cookie"]',
                '*.password',
                '*.passwordHash',
                '*.token',
              ],
              censor: '[redacted]',
            },
            // In production, lines go to stdout in writes of up to 4 KiB rather than one system call
            // per request, within a second, and warnings and errors at once (logger.ts).
            ...(logStream ? { stream: logStream } : {}),
          },
    // A request id per request (a sane incoming X-Request-Id is kept), in every log line and
    // echoed in the X-Request-Id response header.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.:-]{1,100}$/.test(incoming) ? incoming : crypto.randomUUID();
    },
    // A hop count becomes "the nearest n hops"; never trust-all.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (() => {
            const hops = config.trustProxy;
            return (_address: string, hop: number) => hop < hops;
          })()
        : config.trustProxy,
    logController: new OneLineRequestLog(config.accessLog),
    // 1 MiB unless a route sets more (the CSV import); see security/body-limits.ts.
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Slow clients: the whole request within requestTimeoutMs, the body within bodyTimeoutMs.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs * 2,
    // A batched tRPC GET names its procedures in one path parameter (`/trpc/a,b,c?input=…`); Fastify's
    // default of 100 characters answered 414 once the names passed it. The web client splits
    // batches at 2,000 characters of URL; Node's 16 KiB header limit stays the outer bound.
    routerOptions: { maxParamLength: 8 * 1024 },
    // Errors Fastify answers before any route runs (an address that does not decode, a path
    // parameter past maxParamLength) answer in the app's error shape too.
    frameworkErrors: (err, _req, reply) => {
      const status = err.statusCode ?? 400;
      const message =
        err.code === 'FST_ERR_BAD_URL'
          ? 'The address is not valid'
          : status === 414
            ? 'The address is too long'
            : status >= 500
              ? 'Internal server error'
              : 'Bad request';
      void (reply as FastifyReply).code(status).send({ message, code: codeForStatus(status) });
    },
    // Requests Node's parser refuses (an address or headers past 16 KiB, malformed HTTP) answer in
    // the app's error shape too, `{ message, code }`, not Fastify's `{ error, statusCode }`.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const body = JSON.stringify(
        tooLarge
          ? { message: 'The address or headers are too long', code: 'HEADERS_TOO_LARGE' }
          : { message: 'Malformed request', code: 'BAD_REQUEST' },
      );
      socket.end(
        `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    },
  });
  await registerSecurity(app, config, SESSION_COOKIE);
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body } = toErrorResponse(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    const retryAfter = retryAfterOf(err);
    if (status === 429 && retryAfter) reply.header('retry-after', String(retryAfter));
    return reply.code(status).send(body);
  });

  // Outside the cookie and session scope below: short-link redirects, public landing pages and the
  // providers' webhooks answer without a session (no cookie parsing, no session object per request).
  await app.register(qrShortLinkRoutes, { deps, scanFlushMs: config.qrScanFlushMs });
  await app.register(landingPageRoutes, { deps, publicUrl: config.publicUrl });
  await app.register(portalRoutes, { deps, publicUrl: config.publicUrl });
  await app.register(givingPublicRoutes, { deps, publicUrl: config.publicUrl });
  await app.register(groupsPublicRoutes, { deps });
  await app.register(eventsPublicRoutes, { deps });
  await app.register(providerWebhookRoutes, { deps });

  const secret = config.sessionSecret ?? (await getOrCreateSetting(db, 'session_secret', () => randomSecret()));
  // The routes that may read or write a session, in one scope: the cookie and session plugins hoist
  // their hooks to the instance they are registered on, and here that is this scope, not the root.
  const sessionStore = new PgSessionStore(db);
  await app.register(async (withSession) => {
    await withSession.register(fastifyCookie);
    await withSession.register(fastifySession, {
      secret,
      cookieName: SESSION_COOKIE,
      store: sessionStore,
      saveUninitialized: false,
      // Write only when the data changed; the expiry is pushed forward by sessionRefreshHook below.
      rolling: false,
      cookie: {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.nodeEnv === 'production',
        maxAge: SESSION_MAX_AGE_MS,
      },
    });

    // A destroyed session (logout) also clears the browser's cookie.
    withSession.addHook('onSend', (req, reply, payload, done) => {
      if (req.session === null && (req.headers.cookie ?? '').includes(`${SESSION_COOKIE}=`)) {
        reply.clearCookie(SESSION_COOKIE, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: config.nodeEnv === 'production',
        });
      }
      done(null, payload);
    });

    withSession.addHook('onRequest', sessionRefreshHook(SESSION_MAX_AGE_MS));
    // The users the session names, read with it (one statement): createContext uses them.
    withSession.decorateRequest('sessionUsers', undefined);
    withSession.addHook('onRequest', (req, _reply, done) => {
      req.sessionUsers = sessionStore.takeUsers(req.session?.sessionId);
      done();
    });
    // With replicas: a write's author reads from the primary for a few seconds (read-routing.ts).
    deps.reads.register(withSession);

    // /trpc and /api answer JSON: compressed above 1 KiB (their scope only; assets come pre-compressed).
    await withSession.register(async (api) => {
      await api.register(fastifyCompress, apiCompression);
      await api.register(trpcPlugin, { prefix: '/trpc', trpcOptions: trpcOptionsFor(deps, app.log) });

      await api.register(restPlugin, { deps, publicUrl: config.publicUrl });
    });
    await withSession.register(publicRoutes, { deps });
    await withSession.register(servicePlannerPublicRoutes, { deps });
    await withSession.register(showUpPublic, { deps, config });
    await withSession.register(uploadRoutes, { deps });
    await withSession.register(importUploadRoutes, { deps });
    await withSession.register(exportDownloadRoutes, { deps });
    await withSession.register(socialPostsPublicRoutes, { deps });
    await withSession.register(checkinPairingRoutes, { deps, secureCookies: config.nodeEnv === 'production' });
    await withSession.register(calendarPublicRoutes, { deps });
  });

  // Health checks, the built web app and the 404 answer need no session either.
  app.get('/healthz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok', database: 'up' };
    } catch {
      return reply.code(503).send({ status: 'error', database: 'down' });
    }
  });

  // Readiness (for a load balancer): the database answers, every migration is applied, and the
  // server is not shutting down. /healthz stays the liveness check.
  let stopping = false;
  app.get('/readyz', async (_req, reply) => {
    if (stopping) return reply.code(503).send({ status: 'stopping' });
    try {
      const pending = await pendingMigrations(db);
      if (pending > 0) return reply.code(503).send({ status: 'migrating', pendingMigrations: pending });
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'error', database: 'down' });
    }
  });

  const hasWeb = await serveWebApp(app, config.webDist);
  if (!hasWeb) app.log.warn(`No built web app at ${config.webDist}; run 'pnpm build' to serve it.`);
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (hasWeb && (req.method === 'GET' || req.method === 'HEAD') && isAppRoute(url)) {
      // An app route (e.g. /contacts): the web app's router takes it from here.
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
  });

  // Outside the embedded development database nobody becomes admin by registering first: a
  // one-time setup token (printed here, kept hashed) makes the first administrator.
  const setupToken = config.firstAccountIsAdmin ? null : await issueSetupToken(db);
  if (setupToken) {
    console.log(
      `[lampstand] No administrator yet. Register the first one at ${config.publicUrl}/auth?setup=${setupToken} ` +
        `(or POST /api/register with "setupToken"), or run pnpm admin:create. The token works once.`,
    );
  }

  let bounces: BounceReceiver | null = null;
  return {
    app,
    setupToken,
    bouncePort: () => bounces?.port ?? null,
    async start() {
      if (config.bounceSmtpPort !== undefined)
        bounces = await startBounceReceiver({
          db,
          port: config.bounceSmtpPort,
          host: config.host,
          log: (msg, fields) => app.log.info(fields ?? {}, msg),
          feedbackLoop: { senders: config.feedbackLoopSenders, dnsServer: config.dnsServer },
        });
      const address = await app.listen({ port: config.port, host: config.host });
      const port = (app.server.address() as { port: number }).port;
      app.log.info(`Lampstand is listening on ${address}`);
      return `http://127.0.0.1:${port}`;
    },
    async stop() {
      stopping = true;
      await bounces?.close();
      await app.close();
      logStream?.flush();
      logStream?.close();
    },
  };
}
