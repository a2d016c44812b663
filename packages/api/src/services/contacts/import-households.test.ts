import { ownerDb, sql } from '@lampstand/db';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { uploadImport } from './import.js';
import { countHouseholds } from './import-households.js';
import { suggestMapping } from './import-mapping.js';
import { runContactImport } from './import-run.js';
import { listFamily } from './family.js';
import { MAX_HOUSEHOLD } from '../../schemas/contact-imports.js';

const { db } = await freshDatabase();
const register = (name: string) =>
  registerUser(db, { username: name, password: 'secret12', churchName: name, email: `${name}@example.org` });
const grace = await register('grace');
const hope = await register('hope');

const MAPPING = { First: 'firstName', Last: 'lastName', Email: 'email', Household: 'household' };

/** Upload a file to a church and run it with the household column mapped. */
async function importFile(tenantId: number, csv: string) {
  const imp = await uploadImport(db, tenantId, { fileName: 'people.csv', csv });
  await db
    .updateTable('contactImports')
    .set({ status: 'queued', mapping: JSON.stringify(MAPPING) })
    .where('id', '=', imp.id)
    .execute();
  return imp;
}

const idOf = async (tenantId: number, email: string) =>
  (
    await db
      .selectFrom('contacts')
      .select('id')
      .where('userId', '=', tenantId)
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id;

const familyOf = async (tenantId: number, email: string) =>
  (await listFamily(db, tenantId, await idOf(tenantId, email))).map((f) => f.contact.email).sort();

describe('the household column of an import', () => {
  it('is suggested from its heading', () => {
    expect(suggestMapping(['First', 'Last', 'Household'])).toMatchObject({ Household: 'household' });
    expect(suggestMapping(['Family ID'])).toEqual({ 'Family ID': 'household' });
  });

  it('makes each household a family, in the importing church only, and says so before the import', async () => {
    // Hope already has a contact with an email Grace imports: untouched, and never linked.
    await db
      .insertInto('contacts')
      .values({ userId: hope.id, firstName: 'Ann', lastName: 'Other', email: 'ann@example.org' })
      .execute();
    const csv = [
      'First,Last,Email,Household',
      'Ann,Lee,ann@example.org,Lee family',
      'Bob,Lee,bob@example.org, lee  FAMILY',
      'Cat,Lee,cat@example.org,Lee family',
      'Dan,Ng,dan@example.org,Ng',
      'Eve,Ng,eve@example.org,ng',
      'Fay,Solo,fay@example.org,Solo',
      'Gus,None,gus@example.org,',
    ].join('\n');
    const imp = await importFile(grace.id, csv);
    expect(await countHouseholds(db, grace.id, { id: imp.id, column: 'Household' })).toEqual({
      households: 2,
      people: 5,
      tooLarge: 0,
    });
    // Another church's import is not found.
    await expect(countHouseholds(db, hope.id, { id: imp.id, column: 'Household' })).rejects.toThrow('Import not found');

    await runContactImport(db, imp.id);

    expect(await familyOf(grace.id, 'ann@example.org')).toEqual(['bob@example.org', 'cat@example.org']);
    expect(await familyOf(grace.id, 'cat@example.org')).toEqual(['ann@example.org', 'bob@example.org']);
    expect(await familyOf(grace.id, 'dan@example.org')).toEqual(['eve@example.org']);
    expect(await familyOf(grace.id, 'fay@example.org')).toEqual([]);
    expect(await familyOf(grace.id, 'gus@example.org')).toEqual([]);
    expect(await familyOf(hope.id, 'ann@example.org')).toEqual([]);
    const hopeLinks = await db.selectFrom('contactFamilyLinks').select('id').where('userId', '=', hope.id).execute();
    expect(hopeLinks).toHaveLength(0);

    // Imported again (everyone updated): the same families, no second link of a pair.
    const again = await importFile(grace.id, csv);
    await runContactImport(db, again.id);
    const links = await db.selectFrom('contactFamilyLinks').select('id').where('userId', '=', grace.id).execute();
    expect(links).toHaveLength(3 + 1);
  });

  it('links at most MAX_HOUSEHOLD people of one value, and counts it as too large', async () => {
    const rows = Array.from({ length: MAX_HOUSEHOLD + 3 }, (_, i) => `P${i},Big,big${i}@example.org,Big`);
    const imp = await importFile(grace.id, ['First,Last,Email,Household', ...rows].join('\n'));
    expect(await countHouseholds(db, grace.id, { id: imp.id, column: 'Household' })).toEqual({
      households: 1,
      people: MAX_HOUSEHOLD,
      tooLarge: 1,
    });
    await runContactImport(db, imp.id);
    expect(await familyOf(grace.id, 'big0@example.org')).toHaveLength(MAX_HOUSEHOLD - 1);
    expect(await familyOf(grace.id, `big${MAX_HOUSEHOLD}@example.org`)).toEqual([]);
  });

  it('keeps a household whole when a failed batch is retried (its first rows committed before the failure)', async () => {
    const rows = Array.from(
      { length: 1500 },
      (_, i) => `S${i},Split,s${i}@example.org,${i === 0 || i === 1200 ? 'Split home' : ''}`,
    );
    const imp = await importFile(grace.id, ['First,Last,Email,Household', ...rows].join('\n'));
    // The second batch fails once, as a dropped connection would (a sequence is not rolled back).
    await sql`create sequence household_fail_once`.execute(ownerDb(db));
    await sql`create function household_fail_once() returns trigger language plpgsql security definer as $$
      begin
        if new.first_name = 'S1100' and nextval('household_fail_once') = 1 then
          raise exception 'connection lost (simulated)';
        end if;
        return new;
      end $$`.execute(ownerDb(db));
    await sql`create trigger household_fail_once before insert on contacts for each row execute function household_fail_once()`.execute(
      ownerDb(db),
    );
    try {
      await expect(runContactImport(db, imp.id)).rejects.toThrow('connection lost (simulated)');
      await runContactImport(db, imp.id); // the job's retry, from row 1001
    } finally {
      await sql`drop trigger household_fail_once on contacts`.execute(ownerDb(db));
    }
    expect(await familyOf(grace.id, 's0@example.org')).toEqual(['s1200@example.org']);
  });
});
