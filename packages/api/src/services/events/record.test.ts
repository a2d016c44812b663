import { describe, expect, it } from 'vitest';
import { tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { actingAs } from './actor.js';
import { contactActivity, listEvents } from './list.js';
import { eventsSettled } from './log.js';
import { BadEventPayloadError, personOf, recordEvent, recordEvents } from './record.js';

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
const idOf = async (firstName: string) =>
  (await db.selectFrom('contacts').select('id').where('firstName', '=', firstName).executeTakeFirstOrThrow()).id;
const ann = await idOf('Ann');
const list = { id: 1, name: 'Volunteers' };
const added = (contactId: number, name = 'Ann A') =>
  ({ type: 'list.member_added', contactId, payload: { person: { name, email: 'ann@x.test' }, list } }) as const;

describe('recordEvents', () => {
  it('writes the events with the change, naming the actor', async () => {
    const a = tenantDb(db, churchA);
    await actingAs(a, { kind: 'user', id: churchA })
      .transaction()
      .execute((trx) => recordEvent(trx, churchA, added(ann)));
    await eventsSettled(db);
    const { events } = await listEvents(a, churchA, { after: 0, limit: 10 });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'list.member_added',
      version: 1,
      contactId: ann,
      actor: { kind: 'user', id: churchA },
      data: { person: { name: 'Ann A', email: 'ann@x.test' }, list },
    });
  });

  it('leaves no event when the change rolls back', async () => {
    const before = await db.selectFrom('events').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await expect(
      db.transaction().execute(async (trx) => {
        await recordEvent(trx, churchA, added(ann));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await db.selectFrom('events').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('refuses to write outside a transaction, and a payload that does not match its type', async () => {
    await expect(recordEvent(db, churchA, added(ann))).rejects.toThrow(/transaction/);
    await expect(
      db.transaction().execute((trx) =>
        // @ts-expect-error: a list event needs its list
        recordEvent(trx, churchA, { type: 'list.member_added', contactId: ann, payload: {} }),
      ),
    ).rejects.toBeInstanceOf(BadEventPayloadError);
  });

  it("is the system's when no request acts, and a church never sees another's events", async () => {
    const bea = await idOf('Bea');
    await db.transaction().execute((trx) => recordEvents(trx, churchB, [added(bea, 'Bea B')]));
    await eventsSettled(db);
    const b = await listEvents(tenantDb(db, churchB), churchB, { after: 0, limit: 10 });
    expect(b.events.map((e) => [e.contactId, e.actor.kind])).toEqual([[bea, 'system']]);
    // Row-level security: church A's handle asking for church B's log sees nothing.
    expect((await listEvents(tenantDb(db, churchA), churchB, { after: 0, limit: 10 })).events).toEqual([]);
  });

  it('does not make a later writer of the church wait for an earlier one', async () => {
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((r) => (releaseFirst = r));
    let firstRecorded!: () => void;
    const recorded = new Promise<void>((r) => (firstRecorded = r));
    const first = db.transaction().execute(async (trx) => {
      await recordEvent(trx, churchA, added(ann, 'first'));
      firstRecorded();
      await firstMayCommit;
    });
    await recorded;
    // The second commits while the first is still open (with a lock it would wait for it forever).
    await db.transaction().execute((trx) => recordEvent(trx, churchA, added(ann, 'second')));
    releaseFirst();
    await first;
    await eventsSettled(db);
    const { events } = await listEvents(db, churchA, { after: 0, limit: 500 });
    const names = events.map((e) => (e.data.person as { name: string } | undefined)?.name);
    expect(names.slice(-2)).toEqual(['first', 'second']);
  });
});

describe('listEvents', () => {
  it('pages after a cursor, by type', async () => {
    await db.transaction().execute((trx) =>
      recordEvents(
        trx,
        churchA,
        Array.from({ length: 5 }, (_, i) => ({
          type: 'consent.changed' as const,
          contactId: ann,
          payload: {
            person: personOf({ firstName: `P${i}` }),
            channel: 'email' as const,
            from: null,
            to: 'subscribed' as const,
            reason: 'test',
          },
        })),
      ),
    );
    await eventsSettled(db);
    const page1 = await listEvents(db, churchA, { after: 0, types: ['consent.changed'], limit: 3 });
    const page2 = await listEvents(db, churchA, { after: page1.next, types: ['consent.changed'], limit: 3 });
    const page3 = await listEvents(db, churchA, { after: page2.next, types: ['consent.changed'], limit: 3 });
    expect([page1.events.length, page2.events.length, page3.events.length]).toEqual([3, 2, 0]);
    expect(page3.next).toBe(page2.next);
    const ids = [...page1.events, ...page2.events].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });
});

describe('a contact deleted', () => {
  it("keeps the events, without the person's details; a timeline pages newest first", async () => {
    const [gone] = await db
      .insertInto('contacts')
      .values({ userId: churchA, firstName: 'Gone', lastName: 'G', email: 'gone@x.test' })
      .returning('id')
      .execute();
    await db
      .transaction()
      .execute((trx) => recordEvents(trx, churchA, [added(gone!.id, 'Gone'), added(gone!.id, 'Gone again')]));
    const page = await contactActivity(db, churchA, { contactId: gone!.id, limit: 1 });
    expect(page.events.map((e) => (e.data.person as { name: string }).name)).toEqual(['Gone again']);
    const older = await contactActivity(db, churchA, { contactId: gone!.id, cursor: page.next!, limit: 1 });
    expect(older).toMatchObject({ events: [{ data: { person: { name: 'Gone' } } }], next: null });

    const ids = [page.events[0]!.id, older.events[0]!.id];
    await db.deleteFrom('contacts').where('id', '=', gone!.id).execute();
    const rows = await db.selectFrom('events').select(['contactId', 'payload']).where('id', 'in', ids).execute();
    expect(rows).toEqual([
      { contactId: null, payload: { list } },
      { contactId: null, payload: { list } },
    ]);
  });
});
