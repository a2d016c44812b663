import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import fastifyCompress from '@fastify/compress';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { appRouter } from '@lampstand/api/server';
import type { AppDeps } from './app-deps.js';
import { publicRoutes } from './public-routes.js';
import { servicePlannerPublicRoutes } from './public/service-planner.js';
import { qrShortLinkRoutes } from './public/qr-codes.js';
import { showUpPublic } from './public/show-up.js';
import { uploadRoutes } from './public/uploads.js';
import { socialPostsPublicRoutes } from './public/social-posts.js';
import { landingPageRoutes } from './public/landing-pages.js';
import type { AppRouter } from '@lampstand/api';
import { getOrCreateSetting, randomSecret, sql } from '@lampstand/db';
import type { Config } from './config.js';
import { createContext } from './context.js';
import { PgSessionStore } from './session-store.js';
import { restPlugin } from './rest/plugin.js';
import { toErrorResponse } from './rest/errors.js';
import { apiCompression, isAppRoute, serveWebApp } from './static.js';

export const SESSION_COOKIE = 'lampstand.sid';
const SESSION_MAX_AGE_MS = 1000 * 60 * 60 * 24 * 14;

export interface ServerHandle {
  app: FastifyInstance;
  /** Listen on config.port (0 = a free one); resolves to the base URL. */
  start(): Promise<string>;
  /** Stop taking connections and finish the requests under way. */
  stop(): Promise<void>;
}

export async function createServer(config: Config, deps: AppDeps): Promise<ServerHandle> {
  const { db } = deps;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    // CSV imports arrive as JSON of up to 20 MiB.
    bodyLimit: 25 * 1024 * 1024,
    // A batched tRPC GET names its procedures in one path parameter (`/trpc/a,b,c?input=…`); Fastify's
    // default of 100 characters answered 414 once the names passed it. The web client splits
    // batches at 2,000 characters of URL; Node's 16 KiB header limit stays the outer bound.
    routerOptions: { maxParamLength: 8 * 1024 },
  });

  // Before the cookie and session plugins: short-link redirects answer without a session.
  await app.register(qrShortLinkRoutes, { deps, scanFlushMs: config.qrScanFlushMs });

  const secret = config.sessionSecret ?? (await getOrCreateSetting(db, 'session_secret', () => randomSecret()));
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret,
    cookieName: SESSION_COOKIE,
    store: new PgSessionStore(db),
    saveUninitialized: false,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.nodeEnv === 'production',
      maxAge: SESSION_MAX_AGE_MS,
    },
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body } = toErrorResponse(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    return reply.code(status).send(body);
  });

  // /trpc and /api answer JSON: compressed above 1 KiB (their scope only; assets come pre-compressed).
  await app.register(async (api) => {
    await api.register(fastifyCompress, apiCompression);
    await api.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        createContext: ({ req }) => createContext(deps, req),
        onError: ({ error, path: procPath }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR')
            app.log.error({ err: error, procedure: procPath }, 'procedure failed');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });

    await api.register(restPlugin, { deps, publicUrl: config.publicUrl });
  });
  await app.register(publicRoutes, { deps });
  await app.register(servicePlannerPublicRoutes, { deps });
  await app.register(showUpPublic, { deps, config });
  await app.register(uploadRoutes, { deps });
  await app.register(socialPostsPublicRoutes, { deps });
  await app.register(landingPageRoutes, { deps, publicUrl: config.publicUrl });

  app.get('/healthz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok', database: 'up' };
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

  return {
    app,
    async start() {
      const address = await app.listen({ port: config.port, host: config.host });
      const port = (app.server.address() as { port: number }).port;
      app.log.info(`Lampstand is listening on ${address}`);
      return `http://127.0.0.1:${port}`;
    },
    async stop() {
      await app.close();
    },
  };
}
