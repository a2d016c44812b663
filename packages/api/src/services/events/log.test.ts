import { afterEach, describe, expect, inject, it } from 'vitest';
import { createDb, sql, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { journeyFieldsSchema } from '../../schemas/journeys.js';
import { activateJourney, createJourney } from '../journeys/definitions.js';
import { processJourneyTriggers } from '../journeys/triggers.js';
import { createWebhook } from '../webhooks/endpoints.js';
import { dispatchEvents } from '../webhooks/dispatch.js';
import { listEvents } from './list.js';
import { eventsSettled, logEnd, readLog, type LogPosition } from './log.js';
import { recordEvent } from './record.js';

// The event log's order without a lock, with two real transactions on two connections: every
// reader that pages through the log (the shared reader, GET /api/events, the webhook dispatcher,
// the journeys' triggers) returns each event once, in the log's order, whatever order the writers
// commit in. The tests wait for settling, never for a time; one holds a transaction open in
// another database of the server, which must not hold this database's readers back.

const { db } = await freshDatabase({ poolMax: 5 });

let churches = 0;
async function newChurch() {
  churches++;
  const church = await registerUser(db, {
    username: `church${churches}`,
    password: 'secret12',
    churchName: `Church ${churches}`,
    email: `c${churches}@example.org`,
  });
  const contacts = await db
    .insertInto('contacts')
    .values(['A', 'B'].map((n) => ({ userId: church.id, firstName: n, lastName: 'Writer' })))
    .returning(['id', 'firstName'])
    .execute();
  return { id: church.id, contact: (n: string) => contacts.find((c) => c.firstName === n)!.id };
}
type Church = Awaited<ReturnType<typeof newChurch>>;

/** A reader of one kind over one church: `read` answers the writers' names it has not read before. */
interface Reader {
  read(): Promise<string[]>;
}

const nameOf = (payload: Record<string, unknown>) => (payload.person as { name: string }).name;
const namesOfEvents = async (ids: number[]) => {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('events').select(['id', 'payload']).where('id', 'in', ids).execute();
  return ids.map((id) => nameOf(rows.find((r) => r.id === id)!.payload));
};

const READERS: Record<string, (church: Church) => Promise<Reader>> = {
  'the shared reader (readLog)': async (church) => {
    let at: LogPosition = await logEnd(db, church.id);
    return {
      async read() {
        const page = await readLog(db, church.id, { after: at, types: ['contact.created'], limit: 100 });
        at = page.end ?? at;
        return page.events.map((e) => nameOf(e.payload));
      },
    };
  },
  'GET /api/events (listEvents, paging by `next`)': async (church) => {
    let after = 0;
    return {
      async read() {
        const page = await listEvents(db, church.id, { after, types: ['contact.created'], limit: 100 });
        after = page.next;
        return page.events.map((e) => nameOf(e.data));
      },
    };
  },
  'the webhook dispatcher': async (church) => {
    const endpoint = await createWebhook({ db, policy: { allowHttp: true, reach: 'loopback' } }, church.id, {
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['contact.created'],
      description: null,
    });
    let seen = 0;
    return {
      async read() {
        await dispatchEvents(db);
        const made = await db
          .selectFrom('webhookDeliveries')
          .select(['id', 'eventId'])
          .where('endpointId', '=', endpoint.id)
          .where('id', '>', seen)
          .orderBy('id')
          .execute();
        seen = made.at(-1)?.id ?? seen;
        return namesOfEvents(made.map((d) => Number(d.eventId)));
      },
    };
  },
  "the journeys' triggers": async (church) => {
    const j = await createJourney(
      db,
      church.id,
      journeyFieldsSchema.parse({
        name: 'Welcome',
        trigger: { kind: 'contact_created', source: null },
        steps: [{ id: 't', kind: 'add_tag', tag: 'welcomed', next: null }],
      }),
    );
    await activateJourney(db, church.id, { id: j.id });
    let seen = 0;
    return {
      async read() {
        await processJourneyTriggers(db, new Date());
        const entered = await db
          .selectFrom('journeyEnrollments as e')
          .innerJoin('contacts as c', 'c.id', 'e.contactId')
          .select(['e.id', 'c.firstName'])
          .where('e.journeyId', '=', j.id)
          .where('e.id', '>', seen)
          .orderBy('e.id')
          .execute();
        seen = entered.at(-1)?.id ?? seen;
        return entered.map((e) => e.firstName);
      },
    };
  },
};

const created = (church: Church, name: string) =>
  ({
    type: 'contact.created',
    contactId: church.contact(name),
    payload: { via: 'api', person: { name } },
  }) as const;

/** Transactions a test left open when it failed: rolled back, or they would hold every reader back. */
const open = new Set<{ rollback(): Promise<void> }>();
afterEach(async () => {
  for (const t of open) await t.rollback();
  open.clear();
});

/** A transaction on a connection of its own, which the test moves on step by step. */
function heldTransaction(db: Db) {
  const steps: { run: (trx: Db) => Promise<unknown>; done: (v: unknown) => void; fail: (e: unknown) => void }[] = [];
  let wake = () => {};
  let finish: 'commit' | 'rollback' | null = null;
  const ended = db.transaction().execute(async (trx) => {
    for (;;) {
      const step = steps.shift();
      if (finish === 'rollback') throw new Error('rolled back');
      if (step) {
        try {
          step.done(await step.run(trx));
        } catch (err) {
          step.fail(err);
          throw err;
        }
      } else if (finish === 'commit') return;
      else await new Promise<void>((r) => (wake = r));
    }
  });
  const self = {
    /** Runs `run` in the transaction; resolves when it has. */
    do<T>(run: (trx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((done, fail) => {
        steps.push({ run, done: done as (v: unknown) => void, fail });
        wake();
      });
    },
    commit(): Promise<void> {
      open.delete(self);
      finish = 'commit';
      wake();
      return ended;
    },
    rollback(): Promise<void> {
      finish = 'rollback';
      wake();
      return ended.catch(() => {});
    },
  };
  open.add(self);
  return self;
}

/** Reads until the reader answers something (a transaction of this database may hold it back a while). */
async function readSome(reader: Reader): Promise<string[]> {
  for (let i = 0; i < 6000; i++) {
    const got = await reader.read();
    if (got.length > 0) return got;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('The reader answered nothing for a minute');
}

const eventId = async (church: Church, name: string) =>
  (
    await db
      .selectFrom('events')
      .select('id')
      .where('userId', '=', church.id)
      .where('contactId', '=', church.contact(name))
      .where('type', '=', 'contact.created')
      .executeTakeFirstOrThrow()
  ).id;

describe.each(Object.entries(READERS))('%s', (_, makeReader) => {
  it('does not return a later writer that committed first while the earlier one is open; then both, in order', async () => {
    const church = await newChurch();
    await eventsSettled(db);
    const reader = await makeReader(church);
    const a = heldTransaction(db);
    await a.do((trx) => recordEvent(trx, church.id, created(church, 'A')));
    // B writes after A and commits first, without waiting for A (no lock between writers).
    await db.transaction().execute((trx) => recordEvent(trx, church.id, created(church, 'B')));
    expect(await reader.read()).toEqual([]);
    expect(await reader.read()).toEqual([]);
    await a.commit();
    await eventsSettled(db);
    expect(await reader.read()).toEqual(['A', 'B']);
    expect(await reader.read()).toEqual([]);
  });

  it('skips nothing when an event with a smaller id commits after one with a larger id was read', async () => {
    const church = await newChurch();
    await eventsSettled(db);
    const reader = await makeReader(church);
    // B's transaction begins writing first (it takes its transaction id), then A records its event,
    // then B records its own (a larger id than A's) and commits while A is still open.
    const b = heldTransaction(db);
    await b.do((trx) => sql`select pg_current_xact_id()`.execute(trx));
    const a = heldTransaction(db);
    await a.do((trx) => recordEvent(trx, church.id, created(church, 'A')));
    await b.do((trx) => recordEvent(trx, church.id, created(church, 'B')));
    await b.commit();
    // B's transaction is older than A's, so B's event is settled while A is open: it is read.
    expect(await readSome(reader)).toEqual(['B']);
    await a.commit();
    // A's event has the smaller id: paging by id alone would have been past it.
    expect(await eventId(church, 'A')).toBeLessThan(await eventId(church, 'B'));
    await eventsSettled(db);
    expect(await reader.read()).toEqual(['A']);
    expect(await reader.read()).toEqual([]);
  });
  it('is not held back by a write transaction in another database of the server', async () => {
    const church = await newChurch();
    await eventsSettled(db);
    const reader = await makeReader(church);
    // Another database of the same server (its `postgres`): a transaction that has taken an id and
    // stays open. Transaction ids are the server's, so it is older than everything written here next.
    const otherDb = createDb(inject('pgServerUrl'), { max: 1 });
    const elsewhere = heldTransaction(otherDb);
    try {
      await elsewhere.do((trx) => sql`select pg_current_xact_id()`.execute(trx));
      await db.transaction().execute((trx) => recordEvent(trx, church.id, created(church, 'A')));
      await eventsSettled(db, { timeoutMs: 20_000 });
      expect(await reader.read()).toEqual(['A']);
    } finally {
      await elsewhere.rollback();
      await otherDb.destroy();
    }
  });
});

describe('GET /api/events cursors', () => {
  it("an id that is not one of the church's events starts at the oldest transaction that wrote a later one", async () => {
    const church = await newChurch();
    const other = await newChurch();
    await db.transaction().execute((trx) => recordEvent(trx, church.id, created(church, 'A')));
    // Another church's event between the two (or one deleted by retention), as the cursor.
    await db.transaction().execute((trx) => recordEvent(trx, other.id, created(other, 'A')));
    await db.transaction().execute((trx) => recordEvent(trx, church.id, created(church, 'B')));
    await eventsSettled(db);
    const [a, between, b] = [await eventId(church, 'A'), await eventId(other, 'A'), await eventId(church, 'B')];
    const page = (after: number) =>
      listEvents(db, church.id, { after, limit: 10 }).then((p) => p.events.map((e) => e.id));
    expect(await page(a)).toEqual([b]);
    expect(await page(between)).toEqual([b]);
    expect(await page(b + 1000)).toEqual([]);
    await db.deleteFrom('events').where('id', '=', a).execute();
    expect(await page(a)).toEqual([b]);
  });
});
