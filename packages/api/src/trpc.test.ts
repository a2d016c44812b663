import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { adminProcedure, createCallerFactory, protectedProcedure, publicProcedure, router } from './trpc.js';
import type { Context } from './context.js';
import type { SessionUser } from './schemas/auth.js';

// The procedure builders hand each procedure a database handle that row-level security scopes
// (issue 12 §15). These procedures forget the `user_id` filter on purpose.
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
