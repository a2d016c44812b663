import { leasedDb, sql, type Db } from '@lampstand/db';
import { tooManyRequests } from '../../errors.js';

/**
 * One church must not stall the others: a church runs at most this many whole-address-book
 * exports (`GET /api/contacts` and the CSV export) and imports at once, counted in PostgreSQL so
 * that every server process shares the count.
 */
export const CHURCH_LIMITS = { exports: 2, imports: 1 } as const;

export const EXPORT_BUSY = 'An export is already running for your church. Please try again when it finishes.';
/**
 * Whole-address-book exports one server process streams at once, whatever the church: each holds
 * a connection of the church pool (10 by default) for its whole length, so five churches exporting
 * two each would otherwise leave none for anybody's ordinary requests.
 */
export const PROCESS_EXPORT_LIMIT = 4;
export const EXPORTS_BUSY = 'Exports are busy right now. Please try again in a minute.';
let exportsInProcess = 0;
export const IMPORT_BUSY = 'An import is already running for your church. Please try again when it finishes.';
/** A guess at how long a large export or an import batch takes; only a hint to the client. */
const RETRY_AFTER_SECONDS = 30;
/**
 * An import that has shown no progress for this many minutes has lost its worker: it no longer
 * counts, and another run may take it over (import.ts).
 */
export const IMPORT_LEASE_MINUTES = 10;
const STALE_IMPORT = sql`make_interval(mins => ${IMPORT_LEASE_MINUTES})`;

// Advisory lock keys: (EXPORT_LOCK_SPACE + slot, church id), so each church has CHURCH_LIMITS.exports
// locks of its own. 'LS' in the high bytes keeps them apart from any other advisory lock.
const EXPORT_LOCK_SPACE = 0x4c530100;
const IMPORT_LOCK_SPACE = 0x4c530200;

/** One pooled connection held until `release()`, for queries that must run on the same session. */
interface LeasedConnection {
  db: Db;
  release(): void;
}

function leaseConnection(db: Db): Promise<LeasedConnection> {
  return new Promise((resolve, reject) => {
    leasedDb(db)
      .connection()
      .execute((conn) => new Promise<void>((release) => resolve({ db: conn, release: () => release() })))
      .catch(reject);
  });
}

/** An export slot: its connection holds the church's advisory lock; run the export's queries on `db`. */
export interface ExportSlot {
  db: Db;
  /** Unlock and return the connection to the pool; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * Take one of the church's export slots, or answer 429. The slot is a session-level advisory lock
 * on a connection kept for the export's whole duration (its cursor runs on the same connection), so
 * a process that dies frees its slots with its connections.
 */
export async function acquireExportSlot(db: Db, tenantId: number): Promise<ExportSlot> {
  if (exportsInProcess >= PROCESS_EXPORT_LIMIT) throw tooManyRequests(EXPORTS_BUSY, RETRY_AFTER_SECONDS);
  exportsInProcess++;
  let counted = true;
  const uncount = () => {
    if (counted) exportsInProcess--;
    counted = false;
  };
  let lease: LeasedConnection;
  try {
    lease = await leaseConnection(db);
  } catch (err) {
    uncount();
    throw err;
  }
  try {
    for (let slot = 0; slot < CHURCH_LIMITS.exports; slot++) {
      const key = EXPORT_LOCK_SPACE + slot;
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${key}::int, ${tenantId}::int) as locked`.execute(lease.db);
      if (rows[0]?.locked) {
        let released: Promise<void> | undefined;
        // Never rejects (it runs when a client leaves, with nobody to catch): an unlock that fails
        // means a broken connection, and PostgreSQL drops a broken session's locks with it.
        const release = async () => {
          await sql`select pg_advisory_unlock(${key}::int, ${tenantId}::int)`.execute(lease.db).catch(() => {});
          lease.release();
          uncount();
        };
        return { db: lease.db, release: () => (released ??= release()) };
      }
    }
  } catch (err) {
    lease.release();
    uncount();
    throw err;
  }
  lease.release();
  uncount();
  throw tooManyRequests(EXPORT_BUSY, RETRY_AFTER_SECONDS);
}

/**
 * Inside the transaction that queues an import: answer 429 when the church already has as many
 * imports queued or running (with recent progress) as it may. The transaction-level advisory lock
 * makes two simultaneous starts take turns, in every process.
 */
export async function checkImportSlot(trx: Db, tenantId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${IMPORT_LOCK_SPACE}::int, ${tenantId}::int)`.execute(trx);
  const { n } = await trx
    .selectFrom('contactImports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', tenantId)
    .where('status', 'in', ['queued', 'running'])
    .where(sql<boolean>`coalesce(progress_at, created_at) > now() - ${STALE_IMPORT}`)
    .executeTakeFirstOrThrow();
  if (Number(n) >= CHURCH_LIMITS.imports) throw tooManyRequests(IMPORT_BUSY, RETRY_AFTER_SECONDS);
}
