import { actingDb, actorOf as handleActor, type Db } from '@lampstand/db';
import type { EventActor } from '../../schemas/events.js';

/*
 * Who is acting, for the events the services record: named once where a request starts, on its
 * database handle (the tRPC procedures from their context; public routes as the public), and read
 * from the handle (or transaction) the service records through, so no service passes it along.
 * A handle that names nobody acts for the system (a job, a sweep). How the handle carries it, and
 * why not an AsyncLocalStorage: packages/db/src/acting.ts.
 */

/** A job, a sweep, a provider's callback: nobody of a church. */
export const SYSTEM_ACTOR: EventActor = { kind: 'system', id: null };

/** `db` acting for `actor`: the events recorded through it, its transactions and the handles made from it name `actor`. */
export const actingAs = (db: Db, actor: EventActor): Db => actingDb(db, actor);

/** Who `db` acts for (`actingAs`; the system when nobody was named). */
export const actorOf = (db: Db): EventActor => (handleActor(db) as EventActor | undefined) ?? SYSTEM_ACTOR;

/** A visitor of a public page or link (an unsubscribe, an open, a serving answer): nobody signed in. */
export const PUBLIC_ACTOR: EventActor = { kind: 'public', id: null };

/** A member signed in to the portal, acting for a person of their session: that person, through the portal. */
export const portalActor = (contactId: number): EventActor => ({ kind: 'portal', id: contactId });

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
