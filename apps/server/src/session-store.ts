import type { FastifyRequest, Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { CompiledQuery } from 'kysely';
import { plainDb, preparedStatement, sql, type Db } from '@lampstand/db';
import type { SessionUser } from '@lampstand/api';

interface PrefetchedUsers {
  users: SessionUser[];
  at: number;
}
/** A request takes its session's users within milliseconds of reading the session. */
const PREFETCH_TTL_MS = 5000;
const PREFETCH_MAX = 1000;

/** A user id inside the stored session (`sess`), or null when it is not a number. */
const userIdOf = (key: 'userId' | 'impersonatingUserId') =>
  `case when jsonb_typeof(s.sess -> '${key}') = 'number' then (s.sess ->> '${key}')::int end`;

/**
 * A session and the users it names ($1: its id), in one statement, run prepared (every signed-in
 * request reads it; @lampstand/db's prepared.ts).
 */
const SESSION_READ = preparedStatement(`
  select s.sess,
    (select json_agg(json_build_object('id', u.id, 'username', u.username, 'churchName', u.church_name,
                                       'email', u.email, 'role', u.role))
       from users u
      where u.id = any (array[${userIdOf('userId')}, ${userIdOf('impersonatingUserId')}])) as users
  from sessions s
  where s.sid = $1 and s.expires_at > now()`);

const DEFAULT_TTL_MS = 1000 * 60 * 60 * 24 * 14;

/**
 * Sessions in PostgreSQL, so every server instance sees the same ones and a restart signs nobody out.
 * Expired rows are ignored on read and swept now and then.
 */
export class PgSessionStore implements SessionStore {
  private lastSweep = 0;
  /** Sessions and users have no church column: behind a pooler each statement goes out alone. */
  private readonly db: Db;
  constructor(db: Db) {
    this.db = plainDb(db);
  }

  /**
   * The users a session names, read with the session itself (one round trip fewer per
   * request); `createContext` takes them (`takeSessionUsers`). Kept by session id only until the
   * request that read them takes them (a few ms), and dropped after PREFETCH_TTL_MS otherwise.
   */
  private readonly prefetched = new Map<string, PrefetchedUsers>();

  get(sid: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.db.executeQuery<{ sess: Session; users: SessionUser[] | null }>(CompiledQuery.raw(SESSION_READ, [sid])).then(
      ({ rows: [row] }) => {
        if (row) this.remember(sid, row.users ?? []);
        callback(null, row ? row.sess : null);
      },
      (err) => callback(err),
    );
  }

  /** The users read with session `sid` by this request's `get` (once; undefined when there are none). */
  takeUsers(sid: string | undefined): SessionUser[] | undefined {
    if (sid === undefined) return undefined;
    const entry = this.prefetched.get(sid);
    if (!entry) return undefined;
    this.prefetched.delete(sid);
    return Date.now() - entry.at <= PREFETCH_TTL_MS ? entry.users : undefined;
  }

  private remember(sid: string, users: SessionUser[]): void {
    const now = Date.now();
    if (this.prefetched.size >= PREFETCH_MAX) {
      for (const [key, entry] of this.prefetched) if (now - entry.at > PREFETCH_TTL_MS) this.prefetched.delete(key);
      if (this.prefetched.size >= PREFETCH_MAX) this.prefetched.clear();
    }
    this.prefetched.set(sid, { users, at: now });
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
