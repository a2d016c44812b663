import { sql, type Db } from '@lampstand/db';
import type { RegisterInput, SessionUser } from '../../schemas/auth.js';
import { conflict, isUniqueViolation } from '../../errors.js';
import { ensureGeneralFund } from '../giving/funds.js';
import { countryFromTimeZone } from '../../shared/locale.js';
import { hashPassword } from './password.js';
import { takeSetupToken } from './setup-token.js';
import { toSessionUser } from './users.js';
import { normalizeUsernameInput, usernameSkeleton } from './username-skeleton.js';

const USERNAME_TAKEN = 'Username already exists';
export const EMAIL_TAKEN = 'An account with this email already exists';
const USERNAME_LOOKALIKE = 'This username looks too much like an existing one: please choose another';

/**
 * Create a church account. The first account on an empty database becomes the platform
 * administrator; every later one is a church, whatever the payload's `role` says (nobody can
 * self-register as an admin). `pnpm admin:create` makes further admins.
 */
export async function registerUser(
  db: Db,
  input: RegisterInput,
  opts: { role?: 'admin' | 'church'; firstAccountIsAdmin?: boolean } = {},
): Promise<SessionUser> {
  const firstAccountIsAdmin = opts.firstAccountIsAdmin ?? true;
  // Stored NFKC ('ｒｏｏｔ' is 'root'); compared case-insensitively, and by look-alike skeleton.
  input = { ...input, username: normalizeUsernameInput(input.username) };
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      // One registration at a time decides "first account": no two first admins.
      await sql`select pg_advisory_xact_lock(hashtext('lampstand:register'))`.execute(trx);
      const clash = await trx
        .selectFrom('users')
        .select(['username', 'email'])
        .where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['username']), '=', input.username.toLowerCase()),
            eb(eb.fn('lower', ['email']), '=', input.email.toLowerCase()),
          ]),
        )
        .executeTakeFirst();
      if (clash) {
        throw conflict(clash.username.toLowerCase() === input.username.toLowerCase() ? USERNAME_TAKEN : EMAIL_TAKEN);
      }
      // Look-alikes (Cyrillic 'о' for Latin 'o', …): compared in JS over every username, once per
      // registration (registration is rate-limited; an indexed skeleton column would scale further).
      const skeleton = usernameSkeleton(input.username);
      const names = await trx.selectFrom('users').select('username').execute();
      if (names.some((u) => usernameSkeleton(u.username) === skeleton)) throw conflict(USERNAME_LOOKALIKE, 'username');
      let role = opts.role;
      if (!role && input.setupToken) role = (await takeSetupToken(trx, input.setupToken)) ? 'admin' : undefined;
      if (!role) {
        const any = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
        role = !any && firstAccountIsAdmin ? 'admin' : 'church';
      }
      const user = await trx
        .insertInto('users')
        .values({ username: input.username, passwordHash, churchName: input.churchName, email: input.email, role })
        .returning(['id', 'username', 'churchName', 'email', 'role'])
        .executeTakeFirstOrThrow();
      // The country follows the time zone chosen unless the form says otherwise: a church registered
      // in Chicago reads phones as +1 and writes 'Dec 7, 2026'; one in Sydney '+61' and '7 Dec 2026'.
      const country = input.country ?? countryFromTimeZone(input.timeZone);
      if (input.timeZone || country)
        await trx
          .insertInto('churchSettings')
          .values({ userId: user.id, ...(input.timeZone ? { timeZone: input.timeZone } : {}), country })
          .execute();
      await ensureGeneralFund(trx, user.id);
      return toSessionUser(user);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_username_key')) throw conflict(USERNAME_TAKEN);
    if (isUniqueViolation(err, 'users_email_key')) throw conflict(EMAIL_TAKEN);
    throw err;
  }
}
