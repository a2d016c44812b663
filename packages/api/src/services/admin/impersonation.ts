import type { Db } from '@lampstand/db';
import type { SessionUser } from '../../schemas/auth.js';
import { badRequest, notFound } from '../../errors.js';
import { getUsersByIds } from '../auth/users.js';

/** Check the target, and write the start to the audit table. Returns the target. */
export async function startImpersonation(db: Db, admin: SessionUser, targetId: number): Promise<SessionUser> {
  const [target] = await getUsersByIds(db, [targetId]);
  if (!target) throw notFound('User not found');
  if (target.role === 'admin') throw badRequest('Administrators cannot be impersonated');
  await db
    .insertInto('impersonationAudit')
    .values({ adminId: admin.id, targetId: target.id, action: 'start' })
    .execute();
  return target;
}

export async function recordImpersonationStop(
  db: Db,
  { adminId, targetId }: { adminId: number; targetId: number },
): Promise<void> {
  await db.insertInto('impersonationAudit').values({ adminId, targetId, action: 'stop' }).execute();
}
