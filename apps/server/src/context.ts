import type { FastifyRequest } from 'fastify';
import {
  AppError,
  resolveApiKeyUsers,
  resolveStation,
  STATION_COOKIE,
  resolveSessionUsers,
  type Context,
  type SessionControl,
  type SessionData,
} from '@lampstand/api/server';
import type { SessionUser } from '@lampstand/api';
import type { AppDeps } from './app-deps.js';
import { bearerToken } from './bearer-token.js';

declare module 'fastify' {
  interface Session extends SessionData {}
  interface FastifyRequest {
    /** The users the session names, read with the session by PgSessionStore (session-store.ts). */
    sessionUsers?: SessionUser[];
  }
}

/** The procedures' view of @fastify/session. */
export function sessionControl(req: FastifyRequest): SessionControl {
  return {
    data: () => ({
      userId: req.session.get('userId'),
      impersonatingUserId: req.session.get('impersonatingUserId'),
      impersonationStartedAt: req.session.get('impersonationStartedAt'),
    }),
    id: () => req.session.sessionId,
    async signIn(userId) {
      await req.session.regenerate();
      req.session.set('userId', userId);
      await req.session.save();
    },
    async signOut() {
      await req.session.destroy();
    },
    async setImpersonating(targetUserId) {
      if (targetUserId !== undefined) {
        // A new session id when the session gains a church's rights (as at sign-in).
        const userId = req.session.get('userId');
        await req.session.regenerate();
        req.session.set('userId', userId);
        req.session.set('impersonatingUserId', targetUserId);
        req.session.set('impersonationStartedAt', Date.now());
      } else {
        req.session.set('impersonatingUserId', undefined);
        req.session.set('impersonationStartedAt', undefined);
      }
      await req.session.save();
    },
  };
}

const noSessionWithKey = () => new AppError('FORBIDDEN', 'Not available with an API key');

const servicesByDeps = new WeakMap<AppDeps, Context['services']>();

/** The services a procedure may use: the same for every request of an app, so made once. */
function servicesOf(deps: AppDeps): Context['services'] {
  let services = servicesByDeps.get(deps);
  if (!services) {
    services = {
      jobs: deps.jobs,
      email: deps.email,
      sms: deps.sms,
      delivery: deps.delivery,
      ai: deps.ai,
      aiGenerationsPerHour: deps.aiGenerationsPerHour,
      limits: deps.limits,
      landingPageChanged: (slugs) => deps.pages.cache.invalidate(slugs),
      qr: deps.qr,
      storage: deps.storage,
      showUp: deps.showUp,
      accounts: deps.accounts,
      moveInUploads: (tenantId, { csv, ...input }) =>
        deps.previews.upload(tenantId, { ...input, data: Buffer.from(csv, 'utf8') }),
    };
    servicesByDeps.set(deps, services);
  }
  return services;
}

/** A request with an API key has no session: the cookie is ignored and nothing signs in or out. */
const keySession: SessionControl = {
  data: () => ({}),
  id: () => undefined,
  signIn: () => Promise.reject(noSessionWithKey()),
  signOut: () => Promise.reject(noSessionWithKey()),
  setImpersonating: () => Promise.reject(noSessionWithKey()),
};

export type ContextDeps = AppDeps;

export async function createContext(deps: AppDeps, req: FastifyRequest): Promise<Context> {
  const token = bearerToken(req);
  const session = token === undefined ? sessionControl(req) : keySession;
  const { user, effectiveUser, apiKey } =
    token === undefined
      ? { ...(await resolveSessionUsers(deps.db, session.data(), { users: req.sessionUsers })), apiKey: null }
      : await resolveApiKeyUsers(deps.db, token);
  // A paired check-in station's cookie counts only when no account is signed in and no key is sent.
  const station =
    user === null && token === undefined ? await resolveStation(deps.db, req.cookies?.[STATION_COOKIE]) : null;
  return {
    db: deps.db,
    station,
    // Reads that may be a second behind: a replica's handle, unless this session or key just wrote.
    readDb: deps.reads.handleFor(req),
    session,
    authMethod: token === undefined ? 'session' : 'apiKey',
    ...(apiKey ? { apiKeyId: apiKey.id, apiKeyScope: apiKey.scope } : {}),
    ip: req.ip,
    user,
    effectiveUser,
    services: servicesOf(deps),
  };
}
