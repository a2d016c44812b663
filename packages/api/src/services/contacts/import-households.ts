import type { Db } from '@lampstand/db';
import { MAX_HOUSEHOLD, type ImportHouseholds } from '../../schemas/contact-imports.js';
import { badRequest } from '../../errors.js';
import { findChurchRow } from '../church-rows.js';
import { openCsv } from './import-csv.js';
import type { Candidate } from './import-rows.js';
import { planBatch, type ImportJob } from './import-batch.js';

/**
 * An import's household column: rows with the same value become one family, each member linked to
 * every other (the family links the rest of the app reads: the family panel, serving together).
 */

/** The value as a key: 'Lee family' and ' lee  FAMILY' are the same household. */
export function householdKey(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The contacts of each household met so far in this run of an import, by key. */
export type Households = Map<string, number[]>;

/**
 * Link one batch's people to the rest of their household: to each other and to the members of
 * earlier batches (`households`, updated here). A pair already linked stays as it is.
 */
export async function linkHouseholds(
  trx: Db,
  tenantId: number,
  households: Households,
  people: Map<number, Candidate>,
): Promise<void> {
  const pairs: [number, number][] = [];
  for (const [id, c] of people) {
    if (!c.household) continue;
    const key = householdKey(c.household);
    if (!key) continue;
    const members = households.get(key) ?? [];
    if (members.includes(id) || members.length >= MAX_HOUSEHOLD) continue;
    for (const other of members) pairs.push([other, id]);
    households.set(key, [...members, id]);
  }
  if (pairs.length === 0) return;
  // One statement for the batch; the pair index (either order) makes a second link of a pair a no-op.
  await trx
    .insertInto('contactFamilyLinks')
    .values(pairs.map(([a, b]) => ({ userId: tenantId, contact1Id: a, contact2Id: b, relationship: 'other' as const })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** How many households (values of 2 or more rows) a column of an uploaded import would make. */
export async function countHouseholds(
  db: Db,
  tenantId: number,
  input: { id: number; column: string },
): Promise<ImportHouseholds> {
  const imp = await findChurchRow(db, tenantId, {
    table: 'contactImports',
    id: input.id,
    columns: ['id', 'csv'],
    missing: 'Import not found',
  });
  const { headers, rows } = await openCsv(imp.csv);
  const at = headers.indexOf(input.column);
  if (at < 0) throw badRequest(`The file has no column named '${input.column}'`);
  const sizes = new Map<string, number>();
  for await (const r of rows) {
    const key = householdKey(r.cells[at] ?? '');
    if (key) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  const result = { households: 0, people: 0, tooLarge: 0 };
  for (const n of sizes.values()) {
    if (n < 2) continue;
    result.households++;
    result.people += Math.min(n, MAX_HOUSEHOLD);
    if (n > MAX_HOUSEHOLD) result.tooLarge++;
  }
  return result;
}

/**
 * A resumed import (a retry after a failed batch): the households of the rows committed before,
 * found again by the same matching as the import (those rows' people exist now, so each row
 * matches its contact), so that a household split by the failure is still one family.
 */
export async function householdsSoFar(db: Db, job: ImportJob, batchSize: number): Promise<Households> {
  const households: Households = new Map();
  if (job.processedRows === 0 || !Object.values(job.mapping).includes('household')) return households;
  const { headers, rows } = await openCsv(job.csv);
  let seen = 0;
  let batch: { line: number; cells: string[] }[] = [];
  const take = async () => {
    const plan = await planBatch(db, job, headers, batch);
    for (const { id, c } of plan.toUpdate) {
      const key = c.household ? householdKey(c.household) : '';
      const members = key ? (households.get(key) ?? []) : [];
      if (key && !members.includes(id) && members.length < MAX_HOUSEHOLD) households.set(key, [...members, id]);
    }
    batch = [];
  };
  for await (const r of rows) {
    if (seen++ >= job.processedRows) break;
    batch.push(r);
    if (batch.length === batchSize) await take();
  }
  if (batch.length) await take();
  return households;
}
