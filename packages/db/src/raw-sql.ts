import { CompiledQuery, type Kysely } from 'kysely';
import type { RawSql } from './secrets.js';

/** Raw statements with `$n` parameters through a Kysely handle (the secrets pass; migrations). */
export function rawSql<DB>(db: Kysely<DB>): RawSql {
  return {
    async query<R>(text: string, values: unknown[]) {
      const r = await db.executeQuery<R>(CompiledQuery.raw(text, values));
      return r.rows;
    },
  };
}
