import { ownerDb, sql } from '@lampstand/db';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { IMPORT_LEASE_MINUTES } from './church-limits.js';
import { uploadImport } from './import.js';
import { openCsv, type CsvRow } from './import-csv.js';
import { suggestMapping } from './import-mapping.js';
import { rowToCandidate } from './import-rows.js';
import { runContactImport } from './import-run.js';

/** The whole file through the streaming parser. */
async function parseCsv(csv: string) {
  const { headers, rows: stream } = await openCsv(csv);
  const rows: CsvRow[] = [];
  for await (const r of stream) rows.push(r);
  return { headers, rows };
}

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

describe('CSV parsing', () => {
  it('reports the line a record starts on, with CRLF and quoted line breaks', async () => {
    const { headers, rows } = await parseCsv('\uFEFFa,b\r\n1,"x\r\ny"\r\n2,z\r\n');
    expect(headers).toEqual(['a', 'b']);
    expect(rows.map((r) => r.line)).toEqual([2, 4]);
    expect(rows[0]!.cells).toEqual(['1', 'x\ny']);
  });

  it('reads a file larger than one parsing chunk, a CRLF split across two chunks counting as one line', async () => {
    // The parser is fed 64 KiB at a time: this row's CR is the first chunk's last character.
    const long = 'y'.repeat(64 * 1024 - 'a,b\r\nx,'.length - 1);
    const { rows } = await parseCsv(`a,b\r\nx,${long}\r\n2,z\r\n`);
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
    expect(rows[0]!.cells).toEqual(['x', long]);
  });

  it('names what is wrong with a file that is not CSV', async () => {
    await expect(parseCsv('a,b\n"unclosed,1\n')).rejects.toThrow(/^This file could not be read as CSV: /);
  });

  it('suggests a mapping from common header names', () => {
    expect(
      suggestMapping(['Given Name', 'Family Name', 'Email Address', 'Cell Phone', 'DOB', 'Postcode', 'Whatever']),
    ).toEqual({
      'Given Name': 'firstName',
      'Family Name': 'lastName',
      'Email Address': 'email',
      'Cell Phone': 'phone',
      DOB: 'dateOfBirth',
      Postcode: 'postalCode',
    });
  });

  it('reads dates as DD/MM/YYYY or YYYY-MM-DD, booleans and staff roles', () => {
    const headers = ['f', 'l', 'e', 'd', 's', 'r'];
    const mapping = {
      f: 'firstName',
      l: 'lastName',
      e: 'email',
      d: 'dateOfBirth',
      s: 'isServiceStaff',
      r: 'staffRole',
    } as const;
    const c = rowToCandidate(
      2,
      ['A', 'B', 'a@b.org', '31/12/1990', 'Yes', "Children's Minister"],
      headers,
      mapping,
      '+61',
    );
    expect(c).toMatchObject({
      dateOfBirth: '1990-12-31',
      metadata: { isServiceStaff: true, staffRole: 'childrens_minister' },
    });
    const d = rowToCandidate(
      3,
      ['A', 'B', 'a@b.org', '1990-02-30', 'no', 'Administrative Staff'],
      headers,
      mapping,
      '+61',
    );
    expect(d).toMatchObject({ dateOfBirth: null, metadata: { isServiceStaff: false, staffRole: 'admin' } });
  });
});

describe('runContactImport', () => {
  it('resumes after a crash from the last committed batch, creating no one twice', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `P${i},Person,p${i}@example.org`);
    const imp = await uploadImport(db, church.id, {
      fileName: 'big.csv',
      csv: ['First,Last,Email', ...rows].join('\n'),
    });
    const mapping = { First: 'firstName', Last: 'lastName', Email: 'email' };
    // As if a worker committed the first batch of 1000 and died (longer ago than the lease).
    const firstBatch = rows
      .slice(0, 1000)
      .map((_, i) => ({ userId: church.id, firstName: `P${i}`, lastName: 'Person', email: `p${i}@example.org` }));
    await db.insertInto('contacts').values(firstBatch).execute();
    await db
      .updateTable('contactImports')
      .set({
        status: 'running',
        mapping: JSON.stringify(mapping),
        processedRows: 1000,
        createdCount: 1000,
        progressAt: new Date(Date.now() - (IMPORT_LEASE_MINUTES + 1) * 60_000),
      })
      .where('id', '=', imp.id)
      .execute();

    await runContactImport(db, imp.id);

    const done = await db.selectFrom('contactImports').selectAll().where('id', '=', imp.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'completed', processedRows: 2500, createdCount: 2500, updatedCount: 0 });
    const count = await db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', church.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2500);
    // 1,500 rows in this run: the planner's statistics were refreshed at the end.
    const stats = await sql<{ reltuples: number }>`
      select reltuples from pg_class where oid = 'contacts'::regclass`.execute(ownerDb(db));
    expect(Number(stats.rows[0]!.reltuples)).toBeGreaterThanOrEqual(2500);
  });

  it('a batch that fails mid-way fails the import; the retry resumes after the last committed batch', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `Q${i},Person,q${i}@example.org`);
    const imp = await uploadImport(db, church.id, {
      fileName: 'flaky.csv',
      csv: ['First,Last,Email', ...rows].join('\n'),
    });
    await db
      .updateTable('contactImports')
      .set({ status: 'queued', mapping: JSON.stringify({ First: 'firstName', Last: 'lastName', Email: 'email' }) })
      .where('id', '=', imp.id)
      .execute();
    // The second batch fails once, as a dropped connection would (a sequence is not rolled back).
    // Created as the tables' owner; the function runs as its owner (the app role may not use the sequence).
    await sql`create sequence import_fail_once`.execute(ownerDb(db));
    await sql`create function import_fail_once() returns trigger language plpgsql security definer as $$
      begin
        if new.first_name = 'Q1500' and nextval('import_fail_once') = 1 then
          raise exception 'connection lost (simulated)';
        end if;
        return new;
      end $$`.execute(ownerDb(db));
    await sql`create trigger import_fail_once before insert on contacts for each row execute function import_fail_once()`.execute(
      ownerDb(db),
    );
    try {
      await expect(runContactImport(db, imp.id)).rejects.toThrow('connection lost (simulated)');
      const failed = await db
        .selectFrom('contactImports')
        .selectAll()
        .where('id', '=', imp.id)
        .executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ status: 'failed', processedRows: 1000, error: 'connection lost (simulated)' });

      await runContactImport(db, imp.id); // pg-boss's retry

      const done = await db.selectFrom('contactImports').selectAll().where('id', '=', imp.id).executeTakeFirstOrThrow();
      expect(done).toMatchObject({ status: 'completed', processedRows: 2500, createdCount: 2500, error: null });
      const n = await db
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('userId', '=', church.id)
        .where('firstName', 'like', 'Q%')
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(2500);
    } finally {
      await sql`drop trigger import_fail_once on contacts`.execute(ownerDb(db));
    }
  });

  /** A queued import of `n` rows named `prefix0…`, mapped. */
  async function queuedImport(prefix: string, n: number) {
    const rows = Array.from({ length: n }, (_, i) => `${prefix}${i},Person,${prefix.toLowerCase()}${i}@example.org`);
    const imp = await uploadImport(db, church.id, {
      fileName: `${prefix}.csv`,
      csv: ['First,Last,Email', ...rows].join('\n'),
    });
    await db
      .updateTable('contactImports')
      .set({ status: 'queued', mapping: JSON.stringify({ First: 'firstName', Last: 'lastName', Email: 'email' }) })
      .where('id', '=', imp.id)
      .execute();
    return imp.id;
  }

  const countNamed = async (prefix: string) =>
    Number(
      (
        await db
          .selectFrom('contacts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('userId', '=', church.id)
          .where('firstName', 'like', `${prefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('two runs of one import at once (a pg-boss retry beside a slow first run) import every row once', async () => {
    const id = await queuedImport('R', 3500);
    await Promise.all([runContactImport(db, id), runContactImport(db, id), runContactImport(db, id)]);
    const done = await db.selectFrom('contactImports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'completed', processedRows: 3500, createdCount: 3500, updatedCount: 0 });
    expect(await countNamed('R')).toBe(3500);
    const emails = await db
      .selectFrom('contacts')
      .select((eb) =>
        eb.fn
          .count<number>(eb.fn('lower', ['email']))
          .distinct()
          .as('n'),
      )
      .where('userId', '=', church.id)
      .where('firstName', 'like', 'R%')
      .executeTakeFirstOrThrow();
    expect(Number(emails.n)).toBe(3500);
  });

  it('a run beside one still making progress does nothing; after the lease it takes over and resumes', async () => {
    const id = await queuedImport('S', 1500);
    // A first run that claimed the import a moment ago and is still working on its first batch.
    await db
      .updateTable('contactImports')
      .set({ status: 'running', progressAt: new Date() })
      .where('id', '=', id)
      .execute();
    await runContactImport(db, id);
    expect(await countNamed('S')).toBe(0);
    expect(
      await db.selectFrom('contactImports').select('status').where('id', '=', id).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'running' });
    // That run died: no progress for longer than the lease.
    await db
      .updateTable('contactImports')
      .set({ progressAt: new Date(Date.now() - (IMPORT_LEASE_MINUTES + 1) * 60_000) })
      .where('id', '=', id)
      .execute();
    await runContactImport(db, id);
    expect(await countNamed('S')).toBe(1500);
    expect(
      await db
        .selectFrom('contactImports')
        .select(['status', 'createdCount'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'completed', createdCount: 1500 });
  });
});
