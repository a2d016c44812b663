import { describe, expect, it } from 'vitest';
import { tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { allocateCode, CODE_ALPHABET, reserveCodeBlock } from './codes.js';

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
const a = tenantDb(db, churchA);
const b = tenantDb(db, churchB);
const inTrx = <T>(h: typeof a, fn: (trx: typeof a) => Promise<T>) => h.transaction().execute(fn);

describe('security codes', () => {
  it('use 4 characters without look-alikes', async () => {
    expect(CODE_ALPHABET).not.toMatch(/[01OI]/);
    const { code } = await inTrx(a, (t) => allocateCode(t, churchA, { day: '2026-12-06', state: 'active' }));
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}$/);
  });

  it('are unique among the day’s unreleased codes, enforced by the database', async () => {
    const day = '2026-12-13';
    await inTrx(a, (t) =>
      t.insertInto('checkinCodes').values({ userId: churchA, day, code: 'ABCD', state: 'active' }).execute(),
    );
    await expect(
      inTrx(a, (t) =>
        t.insertInto('checkinCodes').values({ userId: churchA, day, code: 'ABCD', state: 'reserved' }).execute(),
      ),
    ).rejects.toThrow(/checkin_codes_unreleased_key/);
    // Another church, another day, or once released: the same code again.
    await inTrx(b, (t) =>
      t.insertInto('checkinCodes').values({ userId: churchB, day, code: 'ABCD', state: 'active' }).execute(),
    );
    await a.updateTable('checkinCodes').set({ state: 'released' }).where('code', '=', 'ABCD').execute();
    await inTrx(a, (t) =>
      t.insertInto('checkinCodes').values({ userId: churchA, day, code: 'ABCD', state: 'active' }).execute(),
    );
  });

  it('never give a code reserved for a station, and grow a character when a day runs out', async () => {
    const day = '2026-12-20';
    // A tiny alphabet: 'AB' gives 16 four-letter codes. The station holds 15 of them.
    const small = { alphabet: 'AB' };
    const station = await a
      .insertInto('checkinStations')
      .values({ userId: churchA, name: 'S', kind: 'manned' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const reserved = new Set<string>();
    while (reserved.size < 15) {
      const r = await inTrx(a, (t) =>
        allocateCode(t, churchA, { day, state: 'reserved', stationId: station.id, ...small }),
      );
      reserved.add(r.code);
    }
    for (let i = 0; i < 5; i++) {
      const online = await inTrx(a, (t) => allocateCode(t, churchA, { day, state: 'active', ...small }));
      expect(reserved.has(online.code)).toBe(false);
    }
    // Every four-letter code of 'A' alone is held after one: the next has five letters.
    await inTrx(a, (t) => allocateCode(t, churchA, { day: '2026-12-21', state: 'active', alphabet: 'A' }));
    const grown = await inTrx(a, (t) =>
      allocateCode(t, churchA, { day: '2026-12-21', state: 'active', alphabet: 'A' }),
    );
    expect(grown.code).toBe('AAAAA');
  });

  it('reserve a station a block that tops up to its size', async () => {
    const day = '2026-12-27';
    const station = await a
      .insertInto('checkinStations')
      .values({ userId: churchA, name: 'T', kind: 'self' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = await inTrx(a, (t) => reserveCodeBlock(t, churchA, { day, stationId: station.id, size: 20 }));
    expect(new Set(first).size).toBe(20);
    const again = await inTrx(a, (t) => reserveCodeBlock(t, churchA, { day, stationId: station.id, size: 25 }));
    expect(again.slice(0, 20)).toEqual(first);
    expect(new Set(again).size).toBe(25);
  });
});

describe('deleting a church', () => {
  it('takes its rooms, codes and check-ins with it (a room kept for its history does not stop it)', async () => {
    const contact = await b.selectFrom('contacts').select('id').limit(1).executeTakeFirstOrThrow();
    const child = await b
      .insertInto('contactChildren')
      .values({ userId: churchB, parentContactId: contact.id, name: 'Kid' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const room = await b
      .insertInto('checkinRooms')
      .values({ userId: churchB, name: 'R' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const code = await inTrx(b, (trx) => allocateCode(trx, churchB, { day: '2026-12-06', state: 'active' }));
    await b
      .insertInto('checkins')
      .values({
        userId: churchB,
        day: '2026-12-06',
        familyContactId: contact.id,
        childId: child.id,
        roomId: room.id,
        codeId: code.id,
      })
      .execute();
    await expect(b.deleteFrom('checkinRooms').where('id', '=', room.id).execute()).rejects.toThrow(/foreign key/);
    await db.deleteFrom('users').where('id', '=', churchB).execute();
    expect(await db.selectFrom('checkins').select('id').where('userId', '=', churchB).execute()).toEqual([]);
  });
});
