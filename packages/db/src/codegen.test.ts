import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createFreshDatabase, freshDatabase } from '../test/fresh-db.js';
import { checkedValues, GENERATED_FILE, generateDatabaseTypes } from './codegen.js';
import { ownerDb } from './tenancy.js';

/** The body of `export interface name { ... }` in a generated file. */
function tableType(source: string, name: string): string {
  const m = new RegExp(`export interface ${name} \\{\\n([^}]*)\\}`).exec(source);
  if (!m) throw new Error(`no interface ${name}`);
  return m[1]!;
}

describe('generated/db.ts is what the migrations make', async () => {
  const { url } = await freshDatabase();

  it('regenerating from the migrated database gives the committed file', async () => {
    const regenerated = await generateDatabaseTypes(url);
    const committed = fs.readFileSync(GENERATED_FILE, 'utf8');
    expect(
      regenerated,
      'packages/db/src/generated/db.ts differs from the migrated database: regenerate it with ' +
        '`pnpm --filter @lampstand/db db:types` (docs/database.md) and commit it',
    ).toBe(committed);
  });
});

describe('generateDatabaseTypes', async () => {
  const scratch = await createFreshDatabase();
  afterAll(() => scratch.drop());
  const owner = ownerDb(scratch.db);
  const committed = fs.readFileSync(GENERATED_FILE, 'utf8');

  it('sees a change of nullability and a new check as a change of the types', async () => {
    await sql`alter table contacts alter column email set not null`.execute(owner);
    await sql`alter table team_positions add constraint team_positions_category_known
      check (category in ('music', 'it''s tech'))`.execute(owner);
    const regenerated = await generateDatabaseTypes(scratch.url);
    expect(regenerated).not.toBe(committed);
    expect(tableType(committed, 'Contacts')).toContain('  email: string | null;\n');
    expect(tableType(regenerated, 'Contacts')).toContain('  email: string;\n');
    expect(tableType(regenerated, 'TeamPositions')).toContain(`  category: 'music' | "it's tech" | null;\n`);
  });

  it('refuses a JSON column without a shape in JSON_COLUMN_SHAPES', async () => {
    await sql`alter table songs add column extra jsonb`.execute(owner);
    await expect(generateDatabaseTypes(scratch.url)).rejects.toThrow(
      'JSON columns without a shape in JSON_COLUMN_SHAPES: songs.extra',
    );
  });
});

describe('checkedValues', () => {
  it('reads a check (x in (...)) as PostgreSQL prints it, and nothing else', () => {
    expect(checkedValues('status', "CHECK ((status = ANY (ARRAY['draft'::text, 'it''s'::text])))")).toEqual([
      'draft',
      "it's",
    ]);
    expect(checkedValues('size', 'CHECK (((size >= 100) AND (size <= 1000)))')).toBeNull();
    expect(checkedValues('status', "CHECK ((kind = ANY (ARRAY['a'::text])))")).toBeNull();
    expect(checkedValues('status', "CHECK ((status = ANY (ARRAY['a'::text, 'b'::character varying])))")).toBeNull();
  });
});
