import { describe, expect, it, vi } from 'vitest';
import { rlsStatus, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import type * as Contacts from './contacts.js';
import { openContactsCsvExport, openContactsExport } from './export.js';

// The streamed whole-address-book reads run on the church's handle, so row-level
// security holds them to the church's rows. Here their query forgets its `WHERE user_id` on purpose,
// and they are handed the system handle (which bypasses the policies), as the REST shim once did.
vi.mock('./contacts.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Contacts>();
  return {
    ...actual,
    contactsByName: (db: Db) => db.selectFrom('contacts').selectAll('contacts').orderBy('contacts.id'),
  };
});

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('streamed contact exports under row-level security', () => {
  it('row-level security is on for this database', async () => {
    expect(await rlsStatus(db)).toBe('on');
  });

  it("GET /api/contacts's stream sees only the church's rows even without its WHERE", async () => {
    const answer = await openContactsExport(db, churchA);
    try {
      const names = (await collect(answer.items)).map((c) => c.firstName).sort();
      expect(names).toEqual(['Abe', 'Ann']);
    } finally {
      await answer.close();
    }
  });

  it("the CSV export's stream sees only the church's rows even without its WHERE", async () => {
    const answer = await openContactsCsvExport(db, churchB, {});
    try {
      const csv = (await collect(answer.items)).join('');
      expect(csv).toContain('Bea');
      expect(csv).not.toContain('Ann');
      expect(csv.trim().split('\n')).toHaveLength(2);
    } finally {
      await answer.close();
    }
  });
});
