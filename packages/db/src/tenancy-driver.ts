import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { Scope, Tenancy } from './tenancy-pools.js';

/**
 * Transaction mode (`pooler: 'transaction'`): a pooled connection whose statements all run in a
 * transaction that carries the scope's settings. Outside a transaction kysely opened, the first
 * statement opens one (with the settings) and the connection's release commits it; a transaction
 * kysely opens gets the settings right after its BEGIN. So a pooler in transaction mode may hand
 * the server connection to anyone between two transactions: nothing of a church is left on it.
 */
class PerTransactionConnection implements DatabaseConnection {
  /** A transaction this wrapper opened, committed on release. */
  open = false;
  /** Inside a transaction kysely opened (beginTransaction … commit/rollback). */
  inKyselyTransaction = false;

  constructor(
    readonly raw: DatabaseConnection,
    private readonly tenancy: Tenancy,
    private readonly scope: Scope,
  ) {}

  private async ensureOpen(): Promise<void> {
    if (this.open || this.inKyselyTransaction) return;
    await this.tenancy.prepareTransaction(this.raw, this.scope, false);
    this.open = true;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    await this.ensureOpen();
    return this.raw.executeQuery<R>(query);
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    await this.ensureOpen();
    yield* this.raw.streamQuery<R>(query, chunkSize);
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
  ) {}

  private get inner(): Driver {
    return this.tenancy.driverFor(this.scope);
  }

  init(): Promise<void> {
    return this.tenancy.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    if (this.tenancy.pooler === 'transaction') return new PerTransactionConnection(conn, this.tenancy, this.scope);
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
    if (conn.open) {
      // Statements ran on this connection before kysely's transaction: theirs ends first.
      await conn.raw.executeQuery(CompiledQuery.raw('commit'));
      conn.open = false;
    }
    await this.inner.beginTransaction(conn.raw, settings);
    conn.inKyselyTransaction = true;
    await this.tenancy.prepareTransaction(conn.raw, this.scope, true);
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
      if (conn.open) await conn.raw.executeQuery(CompiledQuery.raw('commit'));
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
