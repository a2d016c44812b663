import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase } from '../test/fresh-db.js';
import { ownerDb } from './tenancy.js';

// Deleting a row checks every table whose foreign key names it (`on delete cascade`, `set null`,
// or a refusal): PostgreSQL looks the referencing rows up by the key's columns. Without an index
// led by them, that is a scan of the whole table, every church's rows, for each row deleted: a
// person deleted scanned all of `deliveries`, and undoing an import of 50,000 people did it
// 50,000 times. The churches' own table (`users`) is left out: a church is never deleted, and
// every church table's indexes lead with its church.
describe('foreign keys', async () => {
  const { db } = await freshDatabase();

  it('each has an index led by one of its columns (the church column of a composite key aside)', async () => {
    const { rows } = await sql<{ key: string }>`
      select c.conrelid::regclass::text || '(' || (
               select string_agg(a.attname, ', ' order by k.ord)
               from unnest(c.conkey) with ordinality k (attnum, ord)
               join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
             ) || ') -> ' || c.confrelid::regclass::text as key
      from pg_constraint c
      where c.contype = 'f' and c.confrelid <> 'users'::regclass
        and not exists (
          select 1 from pg_index i join pg_attribute lead on lead.attrelid = i.indrelid and lead.attnum = i.indkey[0]
          where i.indrelid = c.conrelid and i.indkey[0] = any (c.conkey)
            and (lead.attname <> 'user_id' or cardinality(c.conkey) = 1 or i.indkey[1] = any (c.conkey)))
      order by 1`.execute(ownerDb(db));
    expect(rows.map((r) => r.key)).toEqual([]);
  });
});
