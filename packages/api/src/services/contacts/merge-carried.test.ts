import { describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { CARRIED } from './merge-carried.js';

const { db } = await freshDatabase();

/** Moved by `mergeContacts` itself (lists are copied; family links lose a link to themselves first). */
const MOVED_BY_MERGE = [
  'contacts_in_lists.contact_id',
  'contact_family_links.contact1_id',
  'contact_family_links.contact2_id',
];
/** Rebuilt from the contact's own row (the search index): nothing of the other person to keep. */
const DERIVED = ['contact_search.contact_id'];

describe('what a merge carries', () => {
  it('every column that names a person is moved by a merge, carried or derived', async () => {
    // The catalogue's foreign keys to contacts, by column (the church column of a composite key aside).
    const { rows } = await sql<{ name: string }>`
      select distinct c.conrelid::regclass::text || '.' || a.attname as name
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
      where c.contype = 'f' and c.confrelid = 'contacts'::regclass and a.attname <> 'user_id'
      order by 1`.execute(ownerDb(db));
    const handled = [...MOVED_BY_MERGE, ...DERIVED, ...CARRIED.map((c) => `${c.table}.${c.column}`)].sort();
    expect(rows.map((r) => r.name)).toEqual(handled);
  });
});
