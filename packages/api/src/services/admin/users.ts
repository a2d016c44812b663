import type { Db } from '@lampstand/db';
import type { AdminUser } from '../../schemas/admin.js';

export async function listUsers(db: Db): Promise<AdminUser[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'churchName', 'username', 'email', 'role', 'createdAt'])
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}
