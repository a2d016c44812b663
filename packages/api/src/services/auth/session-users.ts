import type { Db } from '@lampstand/db';
import type { SessionData } from '../../context.js';
import type { SessionUser } from '../../schemas/auth.js';
import { getUsersByIds } from './users.js';

export interface ResolvedSession {
  user: SessionUser | null;
  effectiveUser: SessionUser | null;
}

/** Turn a session's ids into the signed-in user and the one actions act as, in one query. */
export async function resolveSessionUsers(db: Db, data: SessionData): Promise<ResolvedSession> {
  if (!data.userId) return { user: null, effectiveUser: null };
  const ids = [data.userId, ...(data.impersonatingUserId ? [data.impersonatingUserId] : [])];
  const users = await getUsersByIds(db, ids);
  const user = users.find((u) => u.id === data.userId) ?? null;
  if (!user) return { user: null, effectiveUser: null };
  const target = data.impersonatingUserId ? users.find((u) => u.id === data.impersonatingUserId) : undefined;
  if (target && user.role === 'admin') {
    return { user, effectiveUser: { ...target, _impersonatedBy: { id: user.id, username: user.username } } };
  }
  return { user, effectiveUser: user };
}
