import type { Db, User } from '@lampstand/db';
import type { SessionUser } from '../../schemas/auth.js';

export function toSessionUser(u: Pick<User, 'id' | 'username' | 'churchName' | 'email' | 'role'>): SessionUser {
  return { id: u.id, username: u.username, churchName: u.churchName, email: u.email, role: u.role };
}

/** A username as compared: NFKC (full-width and compatibility forms folded), lower case. */
export function normalizeUsername(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.normalize('NFKC').toLowerCase()))
    .executeTakeFirst();
}

export async function getUsersByIds(db: Db, ids: number[]): Promise<SessionUser[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'churchName', 'email', 'role'])
    .where('id', 'in', ids)
    .execute();
  return rows.map(toSessionUser);
}
