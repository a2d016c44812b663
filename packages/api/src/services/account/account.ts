import { sql, type Db } from '@lampstand/db';
import type { ChangePasswordInput, UpdateAccountInput } from '../../schemas/account.js';
import type { SessionUser } from '../../schemas/auth.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import { revokeAllApiKeys } from '../api-keys/api-keys.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { EMAIL_TAKEN } from '../auth/register-user.js';
import { toSessionUser } from '../auth/users.js';

const CURRENT_PASSWORD_WRONG = 'Current password is incorrect';
const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your email';

async function checkCurrentPassword(db: Db, userId: number, password: string | undefined, missing: string) {
  if (!password) throw badRequest(missing, 'currentPassword');
  const row = await db.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('Account not found');
  if (!(await verifyPassword(row.passwordHash, password))) throw badRequest(CURRENT_PASSWORD_WRONG, 'currentPassword');
}

/**
 * Change the church name and/or email (a partial update); a different email needs the current
 * password and resets the email's verification.
 */
export async function updateAccount(db: Db, userId: number, input: UpdateAccountInput): Promise<SessionUser> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'churchName', 'email', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound('Account not found');
  const emailChanges = input.email !== undefined && input.email.toLowerCase() !== user.email.toLowerCase();
  if (emailChanges) await checkCurrentPassword(db, userId, input.currentPassword, CURRENT_PASSWORD_NEEDED);
  try {
    const updated = await db
      .updateTable('users')
      .set({
        churchName: input.churchName ?? user.churchName,
        email: input.email ?? user.email,
        // A new address is not verified: its campaigns are limited again until it is.
        ...(emailChanges ? { emailVerifiedAt: null } : {}),
      })
      .where('id', '=', userId)
      .returning(['id', 'username', 'churchName', 'email', 'role'])
      .executeTakeFirstOrThrow();
    return toSessionUser(updated);
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_key')) throw conflict(EMAIL_TAKEN, 'email');
    throw err;
  }
}

/**
 * Change the password (the current one is required) and sign out every other session of this
 * account, in one transaction; `keepSessionId`, the session making the change, stays signed in.
 * The church's API keys are revoked too unless `revokeApiKeys` is false.
 */
export async function changePassword(
  db: Db,
  userId: number,
  input: ChangePasswordInput & { keepSessionId: string | undefined },
): Promise<{ ok: true; signedOutSessions: number; revokedApiKeys: number }> {
  await checkCurrentPassword(db, userId, input.currentPassword, 'Current password is required');
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ passwordHash }).where('id', '=', userId).execute();
    const signedOut = await trx
      .deleteFrom('sessions')
      .where(sql`sess->>'userId'`, '=', String(userId))
      .$if(input.keepSessionId !== undefined, (q) => q.where('sid', '<>', input.keepSessionId!))
      .executeTakeFirst();
    const revokedApiKeys = input.revokeApiKeys === false ? 0 : await revokeAllApiKeys(trx, userId);
    return { ok: true as const, signedOutSessions: Number(signedOut.numDeletedRows), revokedApiKeys };
  });
}
