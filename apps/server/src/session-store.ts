import type { FastifyRequest, Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { sql, type Db } from '@lampstand/db';

const DEFAULT_TTL_MS = 1000 * 60 * 60 * 24 * 14;

/**
 * Sessions in PostgreSQL, so every server instance sees the same ones and a restart signs nobody out.
 * Expired rows are ignored on read and swept now and then.
 */
export class PgSessionStore implements SessionStore {
  private lastSweep = 0;
  constructor(private readonly db: Db) {}

  get(sid: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.db
      .selectFrom('sessions')
      .select('sess')
      .where('sid', '=', sid)
      .where('expiresAt', '>', sql<Date>`now()`)
      .executeTakeFirst()
      .then(
        (row) => callback(null, row ? (row.sess as unknown as Session) : null),
        (err) => callback(err),
      );
  }

  set(sid: string, session: Session, callback: (err?: unknown) => void): void {
    const expires = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + DEFAULT_TTL_MS);
    const sess = JSON.stringify(session);
    this.db
      .insertInto('sessions')
      .values({ sid, sess, expiresAt: expires })
      .onConflict((oc) => oc.column('sid').doUpdateSet({ sess, expiresAt: expires }))
      .execute()
      .then(() => this.maybeSweep())
      .then(
        () => callback(),
        (err) => callback(err),
      );
  }

  destroy(sid: string, callback: (err?: unknown) => void): void {
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(
        () => callback(),
        (err) => callback(err),
      );
  }

  private async maybeSweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60 * 60 * 1000) return;
    this.lastSweep = now;
    await this.db
      .deleteFrom('sessions')
      .where('expiresAt', '<', sql<Date>`now()`)
      .execute();
  }
}

/** How often a signed-in session's expiry is pushed forward (one write per session per interval, not per request). */
export const SESSION_REFRESH_MS = 5 * 60 * 1000;

/**
 * With `rolling: false`, @fastify/session writes a session only when its data changed; nothing would
 * ever extend its expiry. This onRequest hook (registered after the session plugin) saves a restored
 * session once its stored expiry is more than `refreshMs` behind a fresh one, so an active user stays
 * signed in for `maxAgeMs` after their last visit at the cost of one UPDATE per `refreshMs`. The save
 * marks the session saved, so the onSend hook sends the cookie with the new expiry too.
 */
export function sessionRefreshHook(maxAgeMs: number, refreshMs = SESSION_REFRESH_MS) {
  return async function refreshSessionExpiry(req: FastifyRequest): Promise<void> {
    // null after a destroy, `{}` on a path outside the cookie's.
    const session = req.session as FastifyRequest['session'] | null | undefined;
    // Set by @fastify/session on a session restored from the store (its saved expiry); not in its types.
    const stored = (session?.cookie as { originalExpires?: Date } | undefined)?.originalExpires;
    if (!session || !stored) return; // no session, or a new one (not in the store)
    if (Date.now() + maxAgeMs - stored.getTime() < refreshMs) return;
    await session.save();
  };
}
