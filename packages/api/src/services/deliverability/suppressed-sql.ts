import { sql } from '@lampstand/db';

/** SQL: the address (lower case) is on the church's suppression list. */
export function suppressedSql(userId: unknown, email: unknown) {
  return sql<boolean>`exists (select 1 from email_suppressions s
    where s.user_id = ${userId} and s.email = lower(${email}) and s.removed_at is null)`;
}
