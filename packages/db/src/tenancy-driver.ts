import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Scope, Tenancy } from './tenancy-pools.js';

const COMMIT = CompiledQuery.raw('commit');

/**
 * Sends `queries` on `conn` one behind the other without waiting for each answer (the pool's
 * clients are pipelined in transaction mode: one round trip for all), then waits for all of them.
 * The first failure, in the order sent, is thrown: a failed BEGIN or settings statement explains
 * why the statement after it failed, and a failed COMMIT means the statement's work is not kept.
 */
async function sendTogether(
  conn: DatabaseConnection,
  queries: readonly CompiledQuery[],
): Promise<QueryResult<unknown>[]> {
  const settled = await Promise.allSettled(queries.map((q) => conn.executeQuery(q)));
  const results: QueryResult<unknown>[] = [];
  for (const s of settled) {
    if (s.status === 'rejected') throw s.reason;
    results.push(s.value);
  }
  return results;
}

let cursorNames = 0;

/**
 * Transaction mode (`pooler: 'transaction'`): a pooled connection whose statements all run in
 * transactions that carry the scope's settings, so a pooler in transaction mode may hand the server
 * connection to anyone between two transactions: nothing of a church is left on it.
 *
 * - A statement outside a transaction runs in one of its own, as it would by itself in session mode:
 *   BEGIN with the settings, the statement and COMMIT go out together (one round trip), and the
 *   answer waits for the COMMIT. The login scope (`plainDb`) has no settings: its statement goes
 *   out alone, which the server runs as a transaction of its own.
 * - A transaction kysely opens: its BEGIN and the settings go out together.
 * - A leased connection (`leasedDb(db).connection()`: the export slots, the start-up lock) is one
 *   transaction for the whole lease, committed when it is given back, so the pooler keeps the same
 *   server connection with it (a session advisory lock taken and released in it stays on one).
 */
class PerTransactionConnection implements DatabaseConnection {
  /** A transaction this wrapper opened for a lease or a stream, committed on release. */
  open = false;
  /** Inside a transaction kysely opened (beginTransaction … commit/rollback). */
  inKyselyTransaction = false;

  constructor(
    readonly raw: DatabaseConnection,
    private readonly tenancy: Tenancy,
    private readonly scope: Scope,
    private readonly leased: boolean,
  ) {}

  private start(): Promise<CompiledQuery | null> {
    return this.tenancy.transactionStart(this.raw, this.scope, false);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.open || this.inKyselyTransaction) return this.raw.executeQuery<R>(query);
    // Nothing to set for the login scope: the statement alone is its own transaction (one message).
    if (this.scope.kind === 'login' && !this.leased) return this.raw.executeQuery<R>(query);
    const begin = (await this.start())!;
    if (this.leased) {
      this.open = true; // committed (or, after a failure, rolled back) on release
      const [, result] = await sendTogether(this.raw, [begin, query]);
      return result as QueryResult<R>;
    }
    const [, result] = await sendTogether(this.raw, [begin, query, COMMIT]);
    return result as QueryResult<R>;
  }

  /**
   * A cursor of its own (DECLARE, then FETCH a chunk at a time) in the connection's transaction:
   * a pipelined client refuses pg-cursor's open portal.
   */
  async *streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    if (!this.open && !this.inKyselyTransaction) {
      this.open = true;
      await this.raw.executeQuery((await this.start())!);
    }
    const name = `lampstand_stream_${++cursorNames}`;
    await this.raw.executeQuery(
      CompiledQuery.raw(`declare ${name} no scroll cursor for ${query.sql}`, [...query.parameters]),
    );
    try {
      const fetch = CompiledQuery.raw(`fetch forward ${Math.max(1, Math.floor(chunkSize))} from ${name}`);
      for (;;) {
        const chunk = await this.raw.executeQuery<R>(fetch);
        if (chunk.rows.length === 0) return;
        yield { rows: chunk.rows };
      }
    } finally {
      // A failed transaction has no cursor left to close; its end (release, or kysely's rollback) says so.
      await this.raw.executeQuery(CompiledQuery.raw(`close ${name}`)).catch(() => {});
    }
  }
}

/** The pool's own connection behind a transaction-mode wrapper (or the connection itself). */
function rawOf(conn: DatabaseConnection): DatabaseConnection {
  return conn instanceof PerTransactionConnection ? conn.raw : conn;
}

/** A driver over one of the two shared pools that prepares each connection for its scope. */
export class ScopedDriver implements Driver {
  constructor(
    private readonly tenancy: Tenancy,
    private readonly scope: Scope,
    /** Connections of this handle are leases (`leasedDb`): one transaction each in transaction mode. */
    private readonly leased = false,
  ) {}

  private get inner(): Driver {
    return this.tenancy.driverFor(this.scope);
  }

  init(): Promise<void> {
    return this.tenancy.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    if (this.tenancy.pooler === 'transaction')
      return new PerTransactionConnection(conn, this.tenancy, this.scope, this.leased);
    try {
      await this.tenancy.prepare(conn, this.scope);
    } catch (err) {
      await this.inner.releaseConnection(conn);
      throw err;
    }
    return conn;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (!(conn instanceof PerTransactionConnection)) return this.inner.beginTransaction(conn, settings);
    const start = await this.tenancy.transactionStart(conn.raw, this.scope, true);
    // Statements ran on this leased connection before kysely's transaction: theirs ends first. Then
    // kysely's BEGIN (with its isolation level) and the settings: all sent together, one round trip.
    const ended = sendTogether(conn.raw, conn.open ? [COMMIT] : []);
    conn.open = false;
    conn.inKyselyTransaction = true;
    const began = this.inner.beginTransaction(conn.raw, settings);
    const set = sendTogether(conn.raw, start ? [start] : []);
    for (const r of await Promise.allSettled([ended, began, set])) if (r.status === 'rejected') throw r.reason;
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    if (!(conn instanceof PerTransactionConnection)) return this.inner.commitTransaction(conn);
    conn.inKyselyTransaction = false;
    await this.inner.commitTransaction(conn.raw);
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    if (!(conn instanceof PerTransactionConnection)) return this.inner.rollbackTransaction(conn);
    conn.inKyselyTransaction = false;
    await this.inner.rollbackTransaction(conn.raw);
  }

  savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.savepoint!(rawOf(conn), name, compile);
  }

  rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.rollbackToSavepoint!(rawOf(conn), name, compile);
  }

  releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.inner.releaseSavepoint!(rawOf(conn), name, compile);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    if (!(conn instanceof PerTransactionConnection)) return this.inner.releaseConnection(conn);
    try {
      // COMMIT of a transaction a failed statement aborted rolls it back (no error).
      if (conn.open) await conn.raw.executeQuery(COMMIT);
      else if (conn.inKyselyTransaction) await conn.raw.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      conn.open = false;
      conn.inKyselyTransaction = false;
      await this.inner.releaseConnection(conn.raw);
    }
  }

  /** Only the handle `createDb` returns ends the pools (see `handle`). */
  async destroy(): Promise<void> {}
}
