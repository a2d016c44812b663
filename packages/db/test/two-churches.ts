import type { Db } from '../src/client.js';

/**
 * Two churches for tests of the walls between tenants: church A with the contacts Ann and Abe,
 * church B with Bea (inserted on the system handle, which row-level security lets through).
 */
export async function twoChurchesWithContacts(db: Db): Promise<{ churchA: number; churchB: number }> {
  const [a, b] = await db
    .insertInto('users')
    .values(
      ['a', 'b'].map((n) => ({
        username: `church-${n}`,
        passwordHash: 'x',
        churchName: `Church ${n}`,
        email: `${n}@x.test`,
      })),
    )
    .returning('id')
    .execute();
  const churchA = a!.id;
  const churchB = b!.id;
  await db
    .insertInto('contacts')
    .values([
      { userId: churchA, firstName: 'Ann', lastName: 'A' },
      { userId: churchA, firstName: 'Abe', lastName: 'A' },
      { userId: churchB, firstName: 'Bea', lastName: 'B' },
    ])
    .execute();
  return { churchA, churchB };
}
