import type { Selectable } from 'kysely';
import type { Database, Db } from '@lampstand/db';
import type { ImportPolicy } from '../../schemas/imports.js';
import type { NewEvent } from '../../schemas/events.js';
import { AppError } from '../../errors.js';
import { recordEvents } from '../events/record.js';
import { claimResumable, fenceResumable, TakenOver, type ResumableTable } from '../background/resumable.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { csvHeaders } from '../contacts/import-csv.js';
import { fileTotals, fundNames, readGifts, readPeople } from './read.js';
import { sourceOf } from './imports.js';
import { runRecurring } from './recurring.js';
import type { FileStorage } from '../../providers/storage.js';
import { runChurchRestore } from './church/move-in.js';
import { fundsByName, giftKeys, ledgerTotals, makeMissingFunds, writeGifts } from './write-gifts.js';
import { householdsWithAdults } from './people.js';
import { writeHouseholds, writePeople, type PeopleCounts } from './write-people.js';
import { UndoLog } from './undo-log.js';

/**
 * The commit, in the background: the file is read again (it is the same file, so the same people
 * and gifts in the same order), then written a batch per transaction, each recording how far it
 * got; a restarted job resumes after the last committed batch. A run that finds the import taken
 * over by another (pg-boss retrying beside a slow run) stops, its batch rolled back.
 */

/**
 * Rows per transaction. A person's row is about 1.6 ms of work (its contact, household, undo log,
 * search row and event), a gift's about a tenth of that: batches of about 160 ms and 15 ms, so a
 * batch's burst on the cores is short beside another church's requests (with 500 gifts a batch,
 * another church's p95 went to 4.9× its idle p95 during a 50,000-gift import: bench:import).
 */
const BATCH = { people: 100, gifts: 100 };

/**
 * The pacer's units for a batch: about a millisecond of work each (a person's row, ten gifts), so
 * its slowest pace (its `minPerSecond`) still moves 50,000 gifts in well under two minutes.
 */
const UNITS = { people: (rows: number) => rows, gifts: (rows: number) => Math.ceil(rows / 10) };

export interface RunOptions {
  /** Rows per transaction (a test makes it small to stop an import between two batches). */
  batchSize?: number;
  /**
   * The process's pacer (what the delivery engine and the journey runner take turns on): each
   * batch waits for its turn, so an import slows down while the cores are busier than the worker's
   * share and another church's requests keep theirs.
   */
  pacer?: { take(units: number): Promise<void> };
  /** Where a Lampstand export's uploaded files are copied to. */
  storage?: FileStorage;
}
/** A running import without progress for 10 minutes is taken to be dead, and a retry takes it over. */
const IMPORTS: ResumableTable = { table: 'imports', leaseMinutes: 10 };

type Claimed = Selectable<Database['imports']>;

const fence = (trx: Db, importId: number, processed: number) => fenceResumable(trx, IMPORTS, importId, processed);

const emptyCounts = (): PeopleCounts => ({ created: 0, updated: 0, unchanged: 0 });

async function runPeople(db: Db, imp: Claimed, size: number, pacer: RunOptions['pacer']) {
  const def = await sourceOf(db, imp.userId, {
    source: imp.source,
    presetId: imp.presetId,
    headers: await csvHeaders(imp.csv),
  });
  const countryCode = await churchCountryCode(db, imp.userId);
  const file = await readPeople(imp.csv, def, countryCode, { pacer });
  const job = {
    tenantId: imp.userId,
    system: def.system,
    fileName: imp.fileName,
    countryCode,
    policy: imp.policy as ImportPolicy,
    all: file.items,
    withAdult: householdsWithAdults(file.items),
    undo: new UndoLog(imp.id, imp.userId),
  };
  const report = (imp.report ?? {}) as { people?: PeopleCounts };
  let counts = report.people ?? emptyCounts();
  let processed = imp.processedRows;
  while (processed < file.items.length) {
    const batch = file.items.slice(processed, processed + size);
    await pacer?.take(UNITS.people(batch.length));
    counts = await db.transaction().execute(async (trx) => {
      await fence(trx, imp.id, processed);
      const events: NewEvent[] = [];
      const c = await writePeople(trx, job, batch, events);
      await job.undo.flush(trx);
      const next = {
        created: counts.created + c.created,
        updated: counts.updated + c.updated,
        unchanged: counts.unchanged + c.unchanged,
      };
      await trx
        .updateTable('imports')
        .set({
          processedRows: processed + batch.length,
          progressAt: new Date(),
          report: JSON.stringify({ people: next, totals: [], fundsCreated: [] }),
        })
        .where('id', '=', imp.id)
        .execute();
      await recordEvents(trx, imp.userId, events);
      return next;
    });
    processed += batch.length;
  }
  await db.transaction().execute(async (trx) => {
    await fence(trx, imp.id, processed);
    await writeHouseholds(trx, job);
    await job.undo.flush(trx);
    await finish(trx, imp.id, { people: counts, totals: [], fundsCreated: [] });
  });
}

async function runGifts(db: Db, imp: Claimed, size: number, pacer: RunOptions['pacer']) {
  const def = await sourceOf(db, imp.userId, {
    source: imp.source,
    presetId: imp.presetId,
    headers: await csvHeaders(imp.csv),
  });
  const file = await readGifts(imp.csv, def, { pacer });
  const keys = giftKeys(imp.userId, def.system, file.items);
  const report = (imp.report ?? {}) as { fundsCreated?: string[] };
  let fundsCreated = report.fundsCreated ?? [];
  let processed = imp.processedRows;
  if (processed === 0) {
    fundsCreated = await db.transaction().execute(async (trx) => {
      await fence(trx, imp.id, 0);
      const undo = new UndoLog(imp.id, imp.userId);
      const made = await makeMissingFunds(trx, imp.userId, fundNames(file.items), undo);
      await undo.flush(trx);
      await trx
        .updateTable('imports')
        .set({ report: JSON.stringify({ people: null, totals: [], fundsCreated: made }), progressAt: new Date() })
        .where('id', '=', imp.id)
        .execute();
      return made;
    });
  }
  const job = { importId: imp.id, tenantId: imp.userId, system: def.system, funds: await fundsByName(db, imp.userId) };
  while (processed < file.items.length) {
    const end = processed + size;
    await pacer?.take(UNITS.gifts(Math.min(end, file.items.length) - processed));
    await db.transaction().execute(async (trx) => {
      await fence(trx, imp.id, processed);
      await writeGifts(trx, job, file.items.slice(processed, end), keys.slice(processed, end));
      await trx
        .updateTable('imports')
        .set({ processedRows: Math.min(end, file.items.length), progressAt: new Date() })
        .where('id', '=', imp.id)
        .execute();
    });
    processed = Math.min(end, file.items.length);
  }
  const ledger = await ledgerTotals(db, imp.userId, keys);
  const totals = fileTotals(file.items).map((t) => ({
    fund: t.fund,
    year: t.year,
    fileCents: t.cents,
    ledgerCents: ledger.get(`${t.fund.toLowerCase()}|${t.year}`)?.cents ?? 0,
  }));
  await db.transaction().execute(async (trx) => {
    await fence(trx, imp.id, processed);
    await finish(trx, imp.id, { people: null, totals, fundsCreated });
  });
}

async function finish(trx: Db, importId: number, report: Record<string, unknown>) {
  await trx
    .updateTable('imports')
    .set({ status: 'completed', finishedAt: new Date(), progressAt: new Date(), report: JSON.stringify(report) })
    .where('id', '=', importId)
    .execute();
}

/** The `move-in-import` job: commit a confirmed import (or resume one a restart stopped). */
export async function runMoveInImport(db: Db, importId: number, opts: RunOptions = {}): Promise<void> {
  const imp = await claimResumable<Claimed>(db, IMPORTS, importId);
  if (!imp) return;
  try {
    if (imp.kind === 'church') await runChurchRestore(db, imp, opts.storage ?? null);
    else if (imp.kind === 'people') await runPeople(db, imp, opts.batchSize ?? BATCH.people, opts.pacer);
    else if (imp.kind === 'recurring') {
      const headers = await csvHeaders(imp.csv);
      const def = await sourceOf(db, imp.userId, { source: imp.source, presetId: imp.presetId, headers });
      await runRecurring(db, imp, { def, fence, finish });
    } else await runGifts(db, imp, opts.batchSize ?? BATCH.gifts, opts.pacer);
  } catch (err) {
    if (err instanceof TakenOver) return;
    await db
      .updateTable('imports')
      .set({ status: 'failed', error: err instanceof Error ? err.message : String(err), finishedAt: new Date() })
      .where('id', '=', importId)
      .where('status', '=', 'running')
      .execute();
    // A problem with the file will not go away; anything else is retried by pg-boss, and resumes.
    if (err instanceof AppError) return;
    throw err;
  }
}
