import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { adminUserSchema, SetDailyLimitInput } from '../../schemas/admin.js';
import { notFound } from '../../errors.js';

type AdminUserRow = z.input<typeof adminUserSchema>;

export async function listUsers(db: Db): Promise<AdminUserRow[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'churchName', 'username', 'email', 'role', 'createdAt', 'emailVerifiedAt', 'dailyRecipientLimit'])
    .orderBy('id')
    .execute();
  return rows.map(toAdminUser);
}

function toAdminUser(r: {
  id: number;
  churchName: string;
  username: string;
  email: string;
  role: AdminUserRow['role'];
  createdAt: Date;
  emailVerifiedAt: Date | null;
  dailyRecipientLimit: number | null;
}): AdminUserRow {
  const { emailVerifiedAt, ...rest } = r;
  return { ...rest, emailVerified: emailVerifiedAt !== null };
}

/** Lift or lower a church's daily recipient limit; null returns it to the default rule. */
export async function setDailyLimit(db: Db, input: SetDailyLimitInput): Promise<AdminUserRow> {
  const row = await db
    .updateTable('users')
    .set({ dailyRecipientLimit: input.dailyRecipientLimit })
    .where('id', '=', input.id)
    .returning(['id', 'churchName', 'username', 'email', 'role', 'createdAt', 'emailVerifiedAt', 'dailyRecipientLimit'])
    .executeTakeFirst();
  if (!row) throw notFound('User not found');
  return toAdminUser(row);
}
