import type { Db } from '@lampstand/db';
import type { SessionData } from '../../context.js';
import type { SessionUser } from '../../schemas/auth.js';
import { getUsersByIds } from './users.js';

export interface ResolvedSession {
  user: SessionUser | null;
  effectiveUser: SessionUser | null;
}

/** Impersonation ends on its own after an hour. */
const IMPERSONATION_MAX_MS = 60 * 60 * 1000;

/** Turn a session's ids into the signed-in user and the one actions act as, in one query. */
export async function resolveSessionUsers(
  db: Db,
  session: SessionData,
  {
    now = Date.now(),
    users: prefetched,
  }: {
    now?: number;
    /** The users the session names, when already read with the session (PgSessionStore). */
    users?: SessionUser[];
  } = {},
): Promise<ResolvedSession> {
  if (!session.userId) return { user: null, effectiveUser: null };
  const expired =
    session.impersonatingUserId !== undefined &&
    (session.impersonationStartedAt === undefined || now - session.impersonationStartedAt > IMPERSONATION_MAX_MS);
  const data: SessionData & { userId: number } = expired
    ? { userId: session.userId }
    : { ...session, userId: session.userId };
  const ids = [data.userId, ...(data.impersonatingUserId ? [data.impersonatingUserId] : [])];
  // Read with the session when every id is among them (a user deleted since reads again, finding none).
  const users =
    prefetched && ids.every((id) => prefetched.some((u) => u.id === id)) ? prefetched : await getUsersByIds(db, ids);
  const user = users.find((u) => u.id === data.userId) ?? null;
  if (!user) return { user: null, effectiveUser: null };
  const target = data.impersonatingUserId ? users.find((u) => u.id === data.impersonatingUserId) : undefined;
  if (target && user.role === 'admin') {
    return { user, effectiveUser: { ...target, _impersonatedBy: { id: user.id, username: user.username } } };
  }
  return { user, effectiveUser: user };
}
