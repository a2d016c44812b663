import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventActor } from '../../schemas/events.js';

/**
 * Who is acting, for the events the services record: set once where a request or a job starts
 * (the tRPC procedures from their context; public routes as the public), so no service passes it
 * along. Outside any of these, the system acts (a job, a sweep).
 */
const actors = new AsyncLocalStorage<EventActor>();

const SYSTEM: EventActor = { kind: 'system', id: null };
/** A visitor of a public page or link (an unsubscribe, an open, a serving answer): nobody signed in. */
export const PUBLIC_ACTOR: EventActor = { kind: 'public', id: null };

/** A member signed in to the portal, acting for a person of their session: that person, through the portal. */
export const portalActor = (contactId: number): EventActor => ({ kind: 'portal', id: contactId });

export const currentActor = (): EventActor => actors.getStore() ?? SYSTEM;

/** Runs `fn` as `actor`: the events it records name them. */
export function withActor<T>(actor: EventActor, fn: () => T): T {
  return actors.run(actor, fn);
}

/** A request's actor: the account signed in (the administrator, while impersonating), its API key, a paired station, or the public. */
export function requestActor(ctx: {
  user: { id: number } | null;
  authMethod?: 'session' | 'apiKey';
  apiKeyId?: number;
  station?: { id: number } | null;
}): EventActor {
  if (ctx.authMethod === 'apiKey' && ctx.user) return { kind: 'api_key', id: ctx.apiKeyId ?? null };
  if (ctx.user) return { kind: 'user', id: ctx.user.id };
  if (ctx.station) return { kind: 'station', id: ctx.station.id };
  return PUBLIC_ACTOR;
}
