import { sql, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { dateIn } from './gifts.js';

// The church behind a public giving page: found by its handle, its today, the funds it offers.

export const CHURCH_NOT_FOUND = 'Church not found';

/** The church of a public handle (the giving page's and prepare's). */
export async function churchOfHandle(db: Db, handle: string) {
  const church = await db
    .selectFrom('churchProfiles as cp')
    .innerJoin('users as u', 'u.id', 'cp.userId')
    .leftJoin('churchSettings as s', 's.userId', 'cp.userId')
    .select(['cp.userId', 'cp.handle', 'u.churchName', 's.timeZone'])
    .where('cp.handle', '=', handle.toLowerCase())
    .executeTakeFirst();
  if (!church) throw notFound(CHURCH_NOT_FOUND);
  return church;
}

/** The church's today, in its own time zone. */
export async function churchToday(db: Db, tenantId: number, now: Date): Promise<string> {
  const s = await db.selectFrom('churchSettings').select('timeZone').where('userId', '=', tenantId).executeTakeFirst();
  return dateIn(now, s?.timeZone);
}

/** The public funds a donor may choose (active and public), General first. */
export async function publicFunds(db: Db, tenantId: number) {
  return db
    .selectFrom('funds')
    .select(['id', 'name', 'description'])
    .where('userId', '=', tenantId)
    .where('status', '=', 'active')
    .where('isPublic', '=', true)
    .orderBy(sql`name = 'General'`, 'desc')
    .orderBy('name')
    .execute();
}
