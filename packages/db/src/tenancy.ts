import {
  sql,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Dialect,
  type KyselyPlugin,
} from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';
import { Tenancy, type Scope } from './tenancy-pools.js';
import { ScopedDriver } from './tenancy-driver.js';
import { ActorTag, actorKey, pluginsActingFor, type Actor } from './acting.js';

// The handles of one database, each acting as a scope (a church, the bypass, the owner, none):
// made once and kept, spread over replicas for reads. What row-level security is and how a
// connection is set for a scope: tenancy-pools.ts; the driver that does it: tenancy-driver.ts.

export { APP_ROLE, type Scope } from './tenancy-pools.js';

const tenancyOf = new WeakMap<Kysely<Database>, Tenancy>();
const scopeOf = new WeakMap<Kysely<Database>, Scope>();
/** Who a handle acts for (acting.ts): kept by every handle made from it. */
const actingOf = new WeakMap<Kysely<Database>, Actor>();
/** The handles whose connection is held across statements (`leasedDb`). */
const leasedHandles = new WeakSet<Kysely<Database>>();
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
function cachedHandle(tenancy: Tenancy, scope: Scope, leased = false, actor?: Actor): Kysely<Database> {
  let handles = handlesOf.get(tenancy);
  if (!handles) handlesOf.set(tenancy, (handles = new Map<string, Kysely<Database>>()));
  // The whole scope is the key: a scope that gains a field can never share another's handle.
  const key = (leased ? `lease:${JSON.stringify(scope)}` : JSON.stringify(scope)) + actorKey(actor);
  let db = handles.get(key);
  if (db) {
    handles.delete(key); // re-inserted last: the Map keeps insertion order, least recently used first
  } else {
    db = handle(tenancy, scope, false, leased, actor);
    if (handles.size >= MAX_CACHED_HANDLES) handles.delete(handles.keys().next().value!);
  }
  handles.set(key, db);
  return db;
}

function handle(tenancy: Tenancy, scope: Scope, ownsPools = false, leased = false, actor?: Actor): Kysely<Database> {
  const dialect: Dialect = {
    createDriver: () => new ScopedDriver(tenancy, scope, leased),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
  const db = new Kysely<Database>({ dialect, plugins: pluginsActingFor(tenancy.plugins, actor) });
  // Ends both pools even when only other handles of them were used (kysely skips a driver it never started).
  if (ownsPools) db.destroy = () => tenancy.destroy();
  tenancyOf.set(db, tenancy);
  scopeOf.set(db, scope);
  if (actor) actingOf.set(db, actor);
  if (leased) leasedHandles.add(db);
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
  if (options.pooler === 'transaction') {
    // Each statement goes out with its BEGIN, settings and COMMIT behind it (tenancy-driver.ts).
    for (const pool of [systemPool, tenantPool, options.ownerPool]) {
      if (pool && !pool.options.pipeline) throw new Error("pooler 'transaction' needs pools made with pipeline: true");
    }
  }
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
 * The same scope as `db` on a streaming replica (docs/scaling.md): for reads that may
 * be a second behind (public pages, dashboards, reports, exports, the events API, statements). The
 * replicas are taken in turn. Without replicas (no `DATABASE_READ_URL`), or for a handle not made
 * by `createDb` (a transaction), `db` itself. Never for a write: a replica refuses it.
 */
export function readDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const scope = scopeOf.get(db);
  const replica = tenancy && !primaryOf.has(tenancy) ? tenancy.replica() : undefined;
  return replica && scope ? cachedHandle(replica, scope, false, actingOf.get(db)) : db;
}

/**
 * The same scope as `db`, for a connection held across statements (`leasedDb(db).connection()`:
 * a session advisory lock and the work under it, a cursor). Behind a pooler in transaction mode
 * the lease is one transaction, so the pooler keeps one server connection with it; in session mode
 * it is `db`'s own connection as it is.
 */
export function leasedDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const scope = scopeOf.get(db);
  return tenancy && scope && tenancy.pooler === 'transaction'
    ? cachedHandle(tenancy, scope, true, actingOf.get(db))
    : db;
}

/** `db`'s scope on the primary: a replica handle's primary, any other handle itself. */
export function primaryDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const primary = tenancy && primaryOf.get(tenancy);
  const scope = scopeOf.get(db);
  return primary && scope ? cachedHandle(primary, scope, false, actingOf.get(db)) : db;
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
  return tenancy ? cachedHandle(tenancy, scope, false, actingOf.get(db)) : db;
}

/**
 * `db` acting for `actor` (acting.ts): the same scope and database, and every handle, transaction
 * and connection made from it names `actor` to `actorOf`. A handle not made by `createDb` (a
 * transaction, say) gets the tag as a plugin of its own.
 */
export function actingDb(db: Kysely<Database>, actor: Actor): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  const scope = scopeOf.get(db);
  if (!tenancy || !scope) return db.withPlugin(new ActorTag(actor));
  return cachedHandle(tenancy, scope, leasedHandles.has(db), actor);
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

/**
 * For statements on tables without row-level security only (the sessions and the users they name,
 * read on every request): no church, no bypass. Behind a pooler in transaction mode, the login
 * with no settings, each statement sent alone as its own transaction (one message where a church's
 * statement takes three: BEGIN with the settings, the statement, COMMIT); the production login is
 * the application's own role (`checkRowSecurity`), so a church table read here would show no rows.
 * Otherwise the bypass handle, whose pooled connections are already set for it (no statement more).
 */
export function plainDb(db: Kysely<Database>): Kysely<Database> {
  const tenancy = tenancyOf.get(db);
  if (!tenancy) return db;
  return cachedHandle(
    tenancy,
    tenancy.pooler === 'transaction' ? { kind: 'login' } : { kind: 'bypass' },
    false,
    actingOf.get(db),
  );
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
