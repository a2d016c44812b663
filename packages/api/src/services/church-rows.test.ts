import { describe, expect, it } from 'vitest';
import { sql } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import { AppError } from '../errors.js';
import { assertChurchRow, deleteChurchRow, findChurchRow } from './church-rows.js';

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);
/** The input naming contact `id`. */
const contact = (id: number) => ({ table: 'contacts' as const, id, missing: 'Contact not found' });
const idOf = async (firstName: string) =>
  (await db.selectFrom('contacts').select('id').where('firstName', '=', firstName).executeTakeFirstOrThrow()).id;

describe('findChurchRow', () => {
  it("reads the church's own row, every column", async () => {
    const abe = await idOf('Abe');
    const row = await findChurchRow(db, churchA, contact(abe));
    expect(row).toMatchObject({ id: abe, userId: churchA, firstName: 'Abe', lastName: 'A' });
  });

  it('reads only the columns asked for, and locks the row inside a transaction', async () => {
    const abe = await idOf('Abe');
    const read = await db.transaction().execute(async (trx) => {
      const row = await findChurchRow(trx, churchA, {
        table: 'contacts',
        id: abe,
        columns: ['id', 'firstName'],
        forUpdate: true,
        missing: 'Contact not found',
      });
      const { rows } = await sql<{ locked: boolean }>`
        select exists (select 1 from pg_locks where locktype = 'transactionid' and pid = pg_backend_pid()) as locked`.execute(
        trx,
      );
      return { row, locked: rows[0]!.locked };
    });
    expect(read).toEqual({ row: { id: abe, firstName: 'Abe' }, locked: true });
  });

  it("answers 404 with the message for another church's row", async () => {
    const bea = await idOf('Bea');
    await expect(findChurchRow(db, churchA, contact(bea))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Contact not found',
    });
  });
});

describe('assertChurchRow', () => {
  it("passes for the church's own row and answers 404 with the message for another church's", async () => {
    const abe = await idOf('Abe');
    await expect(assertChurchRow(db, churchA, contact(abe))).resolves.toBeUndefined();
    await expect(assertChurchRow(db, churchB, contact(abe))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Contact not found',
    });
  });
});

describe('deleteChurchRow', () => {
  it("deletes the church's own row and answers its id", async () => {
    const ann = await idOf('Ann');
    expect(await deleteChurchRow(db, churchA, contact(ann))).toEqual({
      id: ann,
    });
    expect(await db.selectFrom('contacts').select('id').where('id', '=', ann).executeTakeFirst()).toBeUndefined();
  });

  it("answers 404 with the message for another church's row, and leaves it", async () => {
    const bea = await idOf('Bea');
    const attempt = deleteChurchRow(db, churchA, contact(bea));
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Contact not found' });
    expect(await db.selectFrom('contacts').select('userId').where('id', '=', bea).executeTakeFirst()).toEqual({
      userId: churchB,
    });
  });

  it('answers 404 for an id that does not exist', async () => {
    await expect(
      deleteChurchRow(db, churchB, { table: 'contactLists', id: 999_999, missing: 'List not found' }),
    ).rejects.toMatchObject({ message: 'List not found' });
  });
});
