import type { FastifyRequest } from 'fastify';
import { resolveSessionUsers, type Context, type SessionControl, type SessionData } from '@lampstand/api/server';
import type { AppDeps } from './app-deps.js';

declare module 'fastify' {
  interface Session extends SessionData {}
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

export type ContextDeps = AppDeps;

export async function createContext(deps: AppDeps, req: FastifyRequest): Promise<Context> {
  const session = sessionControl(req);
  const { user, effectiveUser } = await resolveSessionUsers(deps.db, session.data());
  return {
    db: deps.db,
    session,
    ip: req.ip,
    user,
    effectiveUser,
    services: {
      now: () => new Date(),
      jobs: deps.jobs,
      email: deps.email,
      sms: deps.sms,
      delivery: deps.delivery,
      ai: deps.ai,
      aiGenerationsPerHour: deps.aiGenerationsPerHour,
      landingPageChanged: (slugs) => deps.pages.cache.invalidate(slugs),
      qr: deps.qr,
      storage: deps.storage,
      showUp: deps.showUp,
      accounts: deps.accounts,
    },
  };
}
