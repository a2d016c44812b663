import type { Selectable } from 'kysely';
import { ownerDb, refreshStatistics, sql, type Database, type Db } from '@lampstand/db';
import type { ImportField } from '../../schemas/contact-imports.js';
import { AppError } from '../../errors.js';
import { churchCountryCode } from '../settings/church-settings.js';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents } from '../events/record.js';
import { claimResumable, fenceResumable, TakenOver, type ResumableTable } from '../background/resumable.js';
import { IMPORT_LEASE_MINUTES } from './church-limits.js';
import { openCsv, type CsvRow } from './import-csv.js';
import { ensureOwnSearchIndex } from './search-index.js';
import type { Candidate } from './import-rows.js';
import { householdsSoFar, linkHouseholds } from './import-households.js';
import {
  addToList,
  createContacts,
  planBatch,
  updateContacts,
  type BatchPlan,
  type ImportJob,
} from './import-batch.js';

/** Running a contact import in the background: claim it, then its rows a batch per transaction. */

const BATCH = 1000;

const CONTACT_IMPORTS: ResumableTable = { table: 'contact_imports', leaseMinutes: IMPORT_LEASE_MINUTES };

/**
 * Mark the import running (the one claim of a resumable job, background/resumable.ts): queued, or
 * failed (the job's retry resumes after the last committed batch), or running without progress for
 * IMPORT_LEASE_MINUTES. Null when there is nothing to do (finished, never started, or another run has it).
 */
async function claimImport(db: Db, importId: number): Promise<ImportJob | null> {
  const imp = await claimResumable<Selectable<Database['contactImports']>>(db, CONTACT_IMPORTS, importId);
  if (!imp) return null;
  const list = imp.listId
    ? await db.selectFrom('contactLists').select('name').where('id', '=', imp.listId).executeTakeFirst()
    : undefined;
  return {
    id: imp.id,
    tenantId: imp.userId,
    fileName: imp.fileName,
    csv: imp.csv,
    mapping: (imp.mapping ?? {}) as Record<string, ImportField>,
    listId: imp.listId,
    listName: list?.name ?? null,
    processedRows: imp.processedRows,
    countryCode: await churchCountryCode(db, imp.userId),
  };
}

/** The rows after the first `skip` (those a previous run committed), `size` at a time. */
async function* batchesOf(rows: AsyncIterable<CsvRow>, size: number, skip: number): AsyncGenerator<CsvRow[]> {
  let seen = 0;
  let batch: CsvRow[] = [];
  for await (const r of rows) {
    if (seen++ < skip) continue;
    batch.push(r);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

async function recordProgress(trx: Db, job: ImportJob, processedRows: number, plan: BatchPlan): Promise<void> {
  await trx
    .updateTable('contactImports')
    .set({
      processedRows,
      createdCount: sql`created_count + ${plan.toCreate.length}`,
      updatedCount: sql`updated_count + ${plan.toUpdate.length}`,
      skipped: sql`skipped || ${JSON.stringify(plan.skipped)}::jsonb`,
      progressAt: new Date(),
    })
    .where('id', '=', job.id)
    .execute();
}

/** Finish the import, if it is still this run's (running, at the count this run left it). */
async function endImport(db: Db, importId: number, outcome: { error: string | null; processedRows: number }) {
  await db
    .updateTable('contactImports')
    .set({ status: outcome.error === null ? 'completed' : 'failed', error: outcome.error, finishedAt: new Date() })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .where('processedRows', '=', outcome.processedRows)
    .execute();
}

/** Rows an import must bring for the planner's statistics to be refreshed at its end. */
export const ANALYZE_AFTER_ROWS = 1_000;

/**
 * After a large import (exported for `pnpm bench:growth`, which grows a church in SQL as an import
 * would): ANALYZE the contact tables (as their owner; the application's role may
 * not) so that the next queries are planned for the church's new size. Until autovacuum gets to it
 * (a minute or so later), the statistics still describe the church before the import, and searches
 * and counts chose plans made for a handful of rows (a search at 100,000 contacts: 78 ms instead of
 * 2 ms in `pnpm bench:growth`). Best effort: autovacuum does it anyway, so a failure here is not
 * the import's.
 */
export async function refreshContactStatistics(db: Db, tenantId: number): Promise<void> {
  await refreshStatistics(db, ['contacts', 'contacts_in_lists', 'contact_search']);
  // The imported contacts' search text waits in the trigram index's pending list, which every
  // search of every church reads until it is merged (migration 0099): merged now, not at the next
  // autovacuum.
  await sql`select gin_clean_pending_list('contact_search_user_doc_idx'::regclass)`
    .execute(ownerDb(db))
    .catch(() => undefined);
  // A church the import made large gets its own search index now, not at the next nightly run.
  await ensureOwnSearchIndex(db, tenantId).catch(() => undefined);
}

/**
 * The background part: the file is parsed as it is read, a batch of rows at a time; each batch
 * commits with the progress, so a retried job resumes where it stopped.
 */
export async function runContactImport(db: Db, importId: number): Promise<void> {
  const job = await claimImport(db, importId);
  if (!job) return;
  let processed = job.processedRows;
  try {
    // Each household's contacts so far, for rows of one household in different batches (and
    // before a failure this run resumes after).
    const households = await householdsSoFar(db, job, BATCH);
    const { headers, rows } = await openCsv(job.csv);
    for await (const batch of batchesOf(rows, BATCH, job.processedRows)) {
      await db.transaction().execute(async (trx) => {
        await fenceResumable(trx, CONTACT_IMPORTS, job.id, processed);
        const plan = await planBatch(trx, job, headers, batch);
        const events: NewEvent[] = [];
        const created = await createContacts(trx, job, plan.toCreate, events);
        const updated = await updateContacts(trx, job, plan.toUpdate, events);
        const people = new Map<number, Candidate>();
        for (const [i, id] of created.entries()) people.set(id, plan.toCreate[i]!);
        for (const [i, id] of updated.entries()) people.set(id, plan.toUpdate[i]!.c);
        await addToList(trx, job, people, new Set(created), events);
        await linkHouseholds(trx, job.tenantId, households, people);
        await recordProgress(trx, job, processed + batch.length, plan);
        // One write of the batch's events (record.ts).
        await recordEvents(trx, job.tenantId, events);
      });
      processed += batch.length;
    }
    await endImport(db, importId, { error: null, processedRows: processed });
    if (processed - job.processedRows >= ANALYZE_AFTER_ROWS) await refreshContactStatistics(db, job.tenantId);
  } catch (err) {
    // Another run has the import: it finishes it.
    if (err instanceof TakenOver) return;
    await endImport(db, importId, {
      error: err instanceof Error ? err.message : String(err),
      processedRows: processed,
    });
    // A problem with the file itself will not go away; anything else (a lost connection, a
    // deadlock) is rethrown so that pg-boss retries, and the retry resumes.
    if (err instanceof AppError) return;
    throw err;
  }
}
