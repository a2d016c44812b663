import { sql, type RawBuilder } from 'kysely';

/**
 * The one definition of "sent": the provider accepted the message. For SMS a later status
 * callback may turn it into delivered or undelivered; both were still sent.
 */
export const SENT_STATUSES = ['sent', 'delivered', 'undelivered'] as const;

/** `<column> in ('sent', 'delivered', 'undelivered')` for raw SQL (default column: `status`). */
export function isSent(column = 'status'): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} in (${sql.join(SENT_STATUSES.map((s) => sql.lit(s)))})`;
}
