import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import {
  adminProcedure,
  CHURCH_CALLS_AT_ONCE,
  createCallerFactory,
  protectedProcedure,
  publicProcedure,
  router,
} from './trpc.js';
import type { Context } from './context.js';
import type { SessionUser } from './schemas/auth.js';

// The procedure builders hand each procedure a database handle that row-level security scopes.
// These procedures forget the `user_id` filter on purpose.
const everyName = (db: Db) =>
  sql<{ firstName: string }>`select first_name from contacts order by first_name`
    .execute(db)
    .then((r) => r.rows.map((row) => row.firstName));

const testRouter = router({
  asChurch: protectedProcedure.query(({ ctx }) => everyName(ctx.db)),
  asAdmin: adminProcedure.query(({ ctx }) => everyName(ctx.db)),
  anonymous: publicProcedure.query(({ ctx }) => everyName(ctx.db)),
  writeFor: protectedProcedure
    .input(z.number())
    .mutation(({ ctx, input }) =>
      ctx.db.insertInto('contacts').values({ userId: input, firstName: 'Eve', lastName: 'X' }).execute(),
    ),
});
const createCaller = createCallerFactory(testRouter);

describe('procedure builders and row-level security', async () => {
  const { db } = await freshDatabase();
  const users = await db
    .insertInto('users')
    .values(
      (['admin', 'a', 'b'] as const).map((n) => ({
        username: `u-${n}`,
        passwordHash: 'x',
        churchName: `Church ${n}`,
        email: `${n}@x.test`,
        role: n === 'admin' ? ('admin' as const) : ('church' as const),
      })),
    )
    .returning(['id', 'username', 'churchName', 'email', 'role'])
    .execute();
  const [admin, a, b] = users as [SessionUser, SessionUser, SessionUser];
  await db
    .insertInto('contacts')
    .values([
      { userId: a.id, firstName: 'Ann', lastName: 'A' },
      { userId: b.id, firstName: 'Bea', lastName: 'B' },
    ])
    .execute();

  const callerAs = (user: SessionUser | null, effectiveUser = user) =>
    createCaller({ db, user, effectiveUser, ip: '127.0.0.1' } as unknown as Context);

  it("a church's procedure sees only its rows, even without a user_id filter", async () => {
    expect(await callerAs(a).asChurch()).toEqual(['Ann']);
    expect(await callerAs(b).asChurch()).toEqual(['Bea']);
    // An administrator impersonating church B works as church B.
    expect(await callerAs(admin, b).asChurch()).toEqual(['Bea']);
  });

  it("a church's procedure cannot write another church's row", async () => {
    await expect(callerAs(a).writeFor(b.id)).rejects.toThrow(/row-level security/);
    await callerAs(a).writeFor(a.id);
    expect(await callerAs(a).asChurch()).toEqual(['Ann', 'Eve']);
  });

  it('administrator and public procedures are the named bypasses', async () => {
    expect(await callerAs(admin).asAdmin()).toEqual(['Ann', 'Bea', 'Eve']);
    expect(await callerAs(null).anonymous()).toEqual(['Ann', 'Bea', 'Eve']);
  });
});

describe("a church's calls at once", async () => {
  const { db } = await freshDatabase();
  const [a, b] = (await db
    .insertInto('users')
    .values(
      (['a', 'b'] as const).map((n) => ({
        username: `turn-${n}`,
        passwordHash: 'x',
        churchName: `Church ${n}`,
        email: `turn-${n}@x.test`,
      })),
    )
    .returning(['id', 'username', 'churchName', 'email', 'role'])
    .execute()) as [SessionUser, SessionUser];
  let inside = 0;
  let most = 0;
  const gates: (() => void)[] = [];
  const holdRouter = router({
    hold: protectedProcedure.query(async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise<void>((resolve) => gates.push(resolve));
      inside--;
      return 'done';
    }),
  });
  const callerFor = (user: SessionUser) =>
    createCallerFactory(holdRouter)({ db, user, effectiveUser: user, ip: '127.0.0.1' } as unknown as Context);
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(check()).toBe(true);
  };

  it('runs at most CHURCH_CALLS_AT_ONCE of one church, the rest in order; another church is not held up', async () => {
    const calls = Array.from({ length: CHURCH_CALLS_AT_ONCE + 3 }, () => callerFor(a).hold());
    await until(() => gates.length === CHURCH_CALLS_AT_ONCE);
    await new Promise((r) => setTimeout(r, 20));
    expect(inside).toBe(CHURCH_CALLS_AT_ONCE); // the other three wait
    const other = callerFor(b).hold();
    await until(() => inside === CHURCH_CALLS_AT_ONCE + 1); // church B's call went straight in
    // Let them finish one at a time: each waiting call takes the turn of one that ends.
    const all = Promise.all([...calls, other]);
    let finished = false;
    void all.then(() => (finished = true));
    while (!finished) {
      gates.shift()?.();
      expect(inside).toBeLessThanOrEqual(CHURCH_CALLS_AT_ONCE + 1);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await all).toEqual(Array(CHURCH_CALLS_AT_ONCE + 4).fill('done'));
    expect(most).toBe(CHURCH_CALLS_AT_ONCE + 1);
  });

  it("another database's church with the same id is not held up (apps in one process keep their own turns)", async () => {
    const { db: other } = await freshDatabase();
    const [twin] = (await other
      .insertInto('users')
      .values({ id: a.id, username: 'turn-twin', passwordHash: 'x', churchName: 'Twin', email: 'twin@x.test' })
      .returning(['id', 'username', 'churchName', 'email', 'role'])
      .execute()) as [SessionUser];
    const held = Array.from({ length: CHURCH_CALLS_AT_ONCE }, () => callerFor(a).hold());
    await until(() => inside === CHURCH_CALLS_AT_ONCE);
    const twinCall = createCallerFactory(holdRouter)({
      db: other,
      user: twin,
      effectiveUser: twin,
      ip: '127.0.0.1',
    } as unknown as Context).hold();
    await until(() => inside === CHURCH_CALLS_AT_ONCE + 1); // went straight in
    while (gates.length) gates.shift()?.();
    expect(await Promise.all([...held, twinCall])).toEqual(Array(CHURCH_CALLS_AT_ONCE + 1).fill('done'));
  });
});
