import type { FastifyRequest } from 'fastify';
import type { Db } from '@lampstand/db';
import { resolveSessionUsers, type Context, type JobQueue, type SessionControl, type SessionData } from '@lampstand/api/server';

declare module 'fastify' {
  interface Session extends SessionData {}
}

/** The procedures' view of @fastify/session. */
export function sessionControl(req: FastifyRequest): SessionControl {
  return {
    data: () => ({ userId: req.session.get('userId'), impersonatingUserId: req.session.get('impersonatingUserId') }),
    async signIn(userId) {
      await req.session.regenerate();
      req.session.set('userId', userId);
      await req.session.save();
    },
    async signOut() {
      await req.session.destroy();
    },
    async setImpersonating(targetUserId) {
      req.session.set('impersonatingUserId', targetUserId);
      await req.session.save();
    },
  };
}

export interface ContextDeps {
  db: Db;
  jobs: JobQueue;
}

export async function createContext(deps: ContextDeps, req: FastifyRequest): Promise<Context> {
  const session = sessionControl(req);
  const { user, effectiveUser } = await resolveSessionUsers(deps.db, session.data());
  return { db: deps.db, session, ip: req.ip, user, effectiveUser, services: { now: () => new Date(), jobs: deps.jobs } };
}
