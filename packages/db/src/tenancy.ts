import {
  CompiledQuery,
  sql,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type QueryResult,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type TransactionSettings,
  type KyselyPlugin,
} from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';

/**
 * Row-level security (docs/security.md): every church-scoped table only shows and accepts the rows
 * of the church named by `app.tenant_id`, unless `app.rls_bypass` is 'on'. The application works
 * as `lampstand_app`, a role that does not own the tables (so the policies apply to it); the
 * migrations run as the owner.
 *
 * One `createDb` makes two pools: the system pool (the bypass, for sign-in, public routes, jobs and
 * administrators; the owner for migrations) and the tenant pool (one church per request). Before a
 * connection is handed out, its role and settings are made those of the handle that asks for it,
 * in one statement, and only when they differ from what the connection last had: a connection of
 * the tenant pool is never handed out with another church's setting, and one with no church sees
 * no church rows.
 */
export const APP_ROLE = 'lampstand_app';

/** Who a handle acts as. */
export type Scope = { kind: 'owner' } | { kind: 'bypass' } | { kind: 'none' } | { kind: 'tenant'; tenantId: number };

interface Settings {
  role: string;
  tenant: string;
  bypass: string;
}

class Tenancy {
  /** What each connection was last set to (keyed by kysely's connection, one per pg client). */
  private readonly state = new WeakMap<DatabaseConnection, string>();
  private started: Promise<void> | undefined;
  private roleProbe: Promise<boolean> | undefined;

  constructor(
    readonly system: Driver,
    readonly tenants: Driver,
    /** False with RLS=off: nothing is set, every handle is the connecting user. */
    readonly enabled: boolean,
    readonly plugins: KyselyPlugin[],
    /**
     * 'transaction' behind a pooler in transaction mode (PgBouncer; `DATABASE_POOLER`): the settings
     * are made for each transaction (`set_config(..., true)`), never left on a connection, and a
     * statement outside a transaction runs in one of its own (docs/scaling.md).
     */
    readonly pooler: 'session' | 'transaction' = 'session',
    /**
     * The tables' owner's own login (`DATABASE_OWNER_URL`): when given, the system and
     * church pools log in as the application's role, and only the owner handle (migrations, the
     * role's grants, ANALYZE after a bulk change) uses this pool. Unset: the owner is the system
     * pool's connecting user.
     */
    readonly owner?: Driver,
  ) {}

  init(): Promise<void> {
    this.started ??= Promise.all([this.system.init(), this.tenants.init(), this.owner?.init()]).then(() => undefined);
    return this.started;
  }

  driverFor(scope: Scope): Driver {
    if (scope.kind === 'owner') return this.owner ?? this.system;
    return scope.kind === 'bypass' ? this.system : this.tenants;
  }

  /** Whether `lampstand_app` exists and the connecting user may become it (asked once; see `forgetRole`). */
  roleUsable(conn: DatabaseConnection): Promise<boolean> {
    this.roleProbe ??= conn
      .executeQuery<{ ok: boolean }>(
        CompiledQuery.raw(`select pg_has_role(session_user, oid, 'member') as ok from pg_roles where rolname = $1`, [
          APP_ROLE,
        ]),
      )
      .then((r) => r.rows[0]?.ok === true)
      .catch((err: unknown) => {
        this.roleProbe = undefined;
        throw err;
      });
    return this.roleProbe;
  }

  /** After migrations (which create the role) the next connection asks again. */
  forgetRole(): void {
    this.roleProbe = undefined;
  }

  async settingsFor(conn: DatabaseConnection, scope: Scope): Promise<Settings> {
    // The owner's own pool is its login as it is (its connections never carry another scope).
    const role = scope.kind !== 'owner' && (await this.roleUsable(conn)) ? APP_ROLE : 'none';
    return {
      role,
      tenant: scope.kind === 'tenant' ? String(scope.tenantId) : '',
      bypass: scope.kind === 'bypass' || scope.kind === 'owner' ? 'on' : '',
    };
  }

  /**
   * Transaction mode: open a transaction on `conn` (unless `inTransaction`) and make its role and
   * settings those of `scope` for that transaction only. One round trip: the values are constants
   * and a church id, written as literals.
   */
  async prepareTransaction(conn: DatabaseConnection, scope: Scope, inTransaction: boolean): Promise<void> {
    if (!this.enabled) {
      if (!inTransaction) await conn.executeQuery(CompiledQuery.raw('begin'));
      return;
    }
    const s = await this.settingsFor(conn, scope);
    const text = `${inTransaction ? '' : 'begin; '}select set_config('role', ${literal(s.role)}, true), set_config('app.tenant_id', ${literal(s.tenant)}, true), set_config('app.rls_bypass', ${literal(s.bypass)}, true)`;
    await conn.executeQuery(CompiledQuery.raw(text));
  }

  /** Make the connection's role and settings those of `scope` (one statement, skipped when unchanged). */
  async prepare(conn: DatabaseConnection, scope: Scope): Promise<void> {
    if (!this.enabled) return;
    const s = await this.settingsFor(conn, scope);
    const key = `${s.role}|${s.tenant}|${s.bypass}`;
    if (this.state.get(conn) === key) return;
    this.state.delete(conn); // unknown until the statement succeeds
    await conn.executeQuery(
      CompiledQuery.raw(
        `select set_config('role', $1, false), set_config('app.tenant_id', $2, false), set_config('app.rls_bypass', $3, false)`,
        [s.role, s.tenant, s.bypass],
      ),
    );
    this.state.set(conn, key);
  }

  /** Streaming replicas of this (primary) database, for reads that may be a second behind (`readDb`). */
  replicas: Tenancy[] = [];
  private nextReplica = 0;

  /** The replicas in turn. */
  replica(): Tenancy | undefined {
    if (this.replicas.length === 0) return undefined;
    const r = this.replicas[this.nextReplica % this.replicas.length]!;
    this.nextReplica = (this.nextReplica + 1) % this.replicas.length;
    return r;
  }

  private ended: Promise<void> | undefined;

  destroy(): Promise<void> {
    this.ended ??= Promise.all([
      this.system.destroy(),
      this.tenants.destroy(),
      this.owner?.destroy(),
      ...this.replicas.map((r) => r.destroy()),
    ]).then(() => undefined);
    return this.ended;
  }
}

/** A text literal for the settings (a role name, a church id, 'on' or ''). */
function literal(value: string): string {
  if (!/^[A-Za-z0-9_]*$/.test(value)) throw new Error(`unexpected setting ${JSON.stringify(value)}`);
  return `'${value}'`;
}

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
class ScopedDriver implements Driver {
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

const tenancyOf = new WeakMap<Kysely<Database>, Tenancy>();
const scopeOf = new WeakMap<Kysely<Database>, Scope>();
/** A replica's tenancy → its primary's (a replica handle rescoped stays on the replica; `primaryDb` goes back). */
const primaryOf = new WeakMap<Tenancy, Tenancy>();

/** Scoped handles kept per database, so a request does not build its church's Kysely anew. */
const MAX_CACHED_HANDLES = 1000;
const handlesOf = new WeakMap<Tenancy, Map<string, Kysely<Database>>>();

/**
 * The handle of `scope` on `tenancy`: made once and kept (a Kysely handle holds no state of a
 * request or a connection: its driver prepares each connection it hands out for the scope), the
 * last MAX_CACHED_HANDLES used.
 */
function cachedHandle(tenancy: Tenancy, scope: Scope): Kysely<Database> {
  let handles = handlesOf.get(tenancy);
  if (!handles) handlesOf.set(tenancy, (handles = new Map<string, Kysely<Database>>()));
  // The whole scope is the key: a scope that gains a field can never share another's handle.
  const key = JSON.stringify(scope);
  let db = handles.get(key);
  if (db) {
    handles.delete(key); // re-inserted last: the Map keeps insertion order, least recently used first
  } else {
    db = handle(tenancy, scope);
    if (handles.size >= MAX_CACHED_HANDLES) handles.delete(handles.keys().next().value!);
  }
  handles.set(key, db);
  return db;
}

function handle(tenancy: Tenancy, scope: Scope, ownsPools = false): Kysely<Database> {
  const dialect: Dialect = {
    createDriver: () => new ScopedDriver(tenancy, scope),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
  const db = new Kysely<Database>({ dialect, plugins: tenancy.plugins });
  // Ends both pools even when only other handles of them were used (kysely skips a driver it never started).
  if (ownsPools) db.destroy = () => tenancy.destroy();
  tenancyOf.set(db, tenancy);
  scopeOf.set(db, scope);
  return db;
}

/** The system handle over two new pools (what `createDb` returns). */
export function createScopedDb(
  systemPool: pg.Pool,
  tenantPool: pg.Pool,
  options: {
    rls: boolean;
    plugins: KyselyPlugin[];
    cursor?: PostgresDialectConfig['cursor'];
    pooler?: 'session' | 'transaction';
    /** The owner's own pool (`DATABASE_OWNER_URL`); see `Tenancy.owner`. */
    ownerPool?: pg.Pool;
  },
): Kysely<Database> {
  const tenancy = new Tenancy(
    new PostgresDialect({ pool: systemPool, cursor: options.cursor }).createDriver(),
    new PostgresDialect({ pool: tenantPool, cursor: options.cursor }).createDriver(),
    options.rls,
    options.plugins,
    options.pooler,
    options.ownerPool
      ? new PostgresDialect({ pool: options.ownerPool, cursor: options.cursor }).createDriver()
      : undefined,
  );
  return handle(tenancy, { kind: 'bypass' }, true);
}

/**
 * Adds streaming replicas (each over its own two pools) to the database behind `primary`, a handle
 * `createScopedDb` made. `readDb` then spreads reads over them.
 */
export function addReplicas(
  primary: Kysely<Database>,
  replicas: Array<{ systemPool: pg.Pool; tenantPool: pg.Pool; cursor?: PostgresDialectConfig['cursor'] }>,
): void {
  const tenancy = tenancyOf.get(primary);
  if (!tenancy) throw new Error('addReplicas: not a handle of createDb');
  for (const r of replicas) {
    const replica = new Tenancy(
      new PostgresDialect({ pool: r.systemPool, cursor: r.cursor }).createDriver(),
      new PostgresDialect({ pool: r.tenantPool, cursor: r.cursor }).createDriver(),
      tenancy.enabled,
      tenancy.plugins,
      tenancy.pooler,
    );
    primaryOf.set(replica, tenancy);
    tenancy.replicas.push(replica);
  }
}

/**
 * The same scope as `db` on a streaming replica (issue 33 §5, docs/scaling.md): for reads that may
 * be a second behind (public pages, dashboards, reports, exports, the events API, statements). The
 * replicas are taken in turn. Without replicas (no `DATABASE_READ_URL`), or for a handle not made
 * by `createDb` (a transaction), `db` itself. Never for a write: a replica refuses it.
 */
export function readDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const scope = scopeOf.get(db);
  const replica = tenancy && !primaryOf.has(tenancy) ? tenancy.replica() : undefined;
  return replica && scope ? cachedHandle(replica, scope) : db;
}

/** `db`'s scope on the primary: a replica handle's primary, any other handle itself. */
export function primaryDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const primary = tenancy && primaryOf.get(tenancy);
  const scope = scopeOf.get(db);
  return primary && scope ? cachedHandle(primary, scope) : db;
}

/** Whether reads may go to a replica (`DATABASE_READ_URL` was given). */
export function hasReplicas(db: Kysely<Database>): boolean {
  const tenancy = tenancyOf.get(db);
  return (tenancy?.replicas.length ?? 0) > 0 || (tenancy !== undefined && primaryOf.has(tenancy));
}

/**
 * The same database as `db`, acting as `scope`. A handle not made by `createDb` (a transaction, say)
 * is returned unchanged.
 */
export function scopedDb(db: Kysely<Database>, scope: Scope): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  return tenancy ? cachedHandle(tenancy, scope) : db;
}

/**
 * A stable key for the database behind a handle: every scoped handle of one `createDb` (a church's,
 * the bypass, the owner) gives the same object. For in-process caches that a church's write must
 * clear for the public readers (handles are made per request).
 */
export function databaseKey(db: Kysely<Database>): object {
  const tenancy = tenancyOf.get(db);
  return (tenancy && primaryOf.get(tenancy)) ?? tenancy ?? db;
}

/** One church: church-scoped tables show and accept only its rows. */
export function tenantDb(db: Kysely<Database>, tenantId: number): Kysely<Database> {
  return scopedDb(db, { kind: 'tenant', tenantId });
}

/** Every church's rows (sign-in, public routes, jobs, administrators). See docs/security.md. */
export function bypassDb(db: Kysely<Database>): Kysely<Database> {
  return scopedDb(db, { kind: 'bypass' });
}

/** The connecting user, owner of the tables: migrations, and tests that create tables or triggers. */
export function ownerDb(db: Kysely<Database>): Kysely<Database> {
  return scopedDb(db, { kind: 'owner' });
}

/**
 * ANALYZE these tables as their owner, after a bulk change (an import, a list enrolled in a journey),
 * so the next queries are planned for their new size rather than the one autovacuum last saw (a
 * minute or more behind). As the owner: PostgreSQL skips, with only a warning, a table the
 * application's role does not own. Best effort: autovacuum does it anyway, so a failure here is not
 * the bulk change's.
 */
export async function refreshStatistics(db: Kysely<Database>, tables: readonly string[]): Promise<void> {
  await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(ownerDb(db)).catch(() => undefined);
}

/** After migrations: the next connection checks again whether the application role is usable. */
export function forgetAppRole(db: Kysely<Database>): void {
  const tenancy = tenancyOf.get(db);
  tenancy?.forgetRole();
  for (const r of tenancy?.replicas ?? []) r.forgetRole();
}

/**
 * Whether row-level security applies to this handle's connections: 'on', 'off' (RLS=off) or
 * 'no-role' (the connecting user may not become `lampstand_app`: the policies do not apply).
 */
/**
 * How row-level security stands for the application's connections, asked on a church
 * connection: 'enforced' (it works as a role the policies bind, and its login is such a role too,
 * so no statement can `reset role` out of them); 'climbable' (the policies bind it, but its login
 * is the tables' owner, a superuser or a BYPASSRLS role, which an injected `reset role` returns to);
 * 'not-enforced' (the policies do not bind it at all: the role could not be used); 'off' (`RLS=off`).
 */
export async function rowSecurity(
  db: Kysely<Database>,
): Promise<{ status: 'enforced' | 'climbable' | 'not-enforced' | 'off'; login: string }> {
  const tenancy = tenancyOf.get(db);
  if (!tenancy) throw new Error('rowSecurity: not a handle of createDb');
  const probe = (who: string) =>
    `(select r.rolsuper or r.rolbypassrls or exists (select 1 from pg_tables t where t.schemaname = 'public' and pg_has_role(r.oid, (select oid from pg_roles where rolname = t.tableowner), 'member')) from pg_roles r where r.rolname = ${who})`;
  const r = await sql<{ login: string; currentFree: boolean; loginFree: boolean }>`
    select session_user as login, ${sql.raw(probe('current_user'))} as current_free, ${sql.raw(probe('session_user'))} as login_free
  `.execute(scopedDb(db, { kind: 'none' }));
  const row = r.rows[0]!;
  if (!tenancy.enabled) return { status: 'off', login: row.login };
  if (row.currentFree) return { status: 'not-enforced', login: row.login };
  return { status: row.loginFree ? 'climbable' : 'enforced', login: row.login };
}

export async function rlsStatus(db: Kysely<Database>): Promise<'on' | 'off' | 'no-role'> {
  const tenancy = tenancyOf.get(db);
  if (!tenancy?.enabled) return 'off';
  const conn = await tenancy.system.acquireConnection();
  try {
    return (await tenancy.roleUsable(conn)) ? 'on' : 'no-role';
  } finally {
    await tenancy.system.releaseConnection(conn);
  }
}
