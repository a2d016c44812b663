import { CompiledQuery, type DatabaseConnection, type Driver, type KyselyPlugin } from 'kysely';

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

const BEGIN = CompiledQuery.raw('begin');

/**
 * Who a handle acts as. `login`: the connecting user as it logged in, with no church and no bypass,
 * for statements on tables without row-level security only (`plainDb`).
 */
export type Scope =
  { kind: 'owner' } | { kind: 'bypass' } | { kind: 'none' } | { kind: 'login' } | { kind: 'tenant'; tenantId: number };

interface Settings {
  role: string;
  tenant: string;
  bypass: string;
}

/** The pools of one database, and what each of their connections was last set to. */
export class Tenancy {
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
    const asLogin = scope.kind === 'owner' || scope.kind === 'login';
    const role = !asLogin && (await this.roleUsable(conn)) ? APP_ROLE : 'none';
    return {
      role,
      tenant: scope.kind === 'tenant' ? String(scope.tenantId) : '',
      bypass: scope.kind === 'bypass' || scope.kind === 'owner' ? 'on' : '',
    };
  }

  /**
   * Transaction mode: the statement that opens a transaction (unless `inTransaction`) and makes its
   * role and settings those of `scope` for that transaction only; null when there is nothing to send.
   * One statement: the values are constants and a church id, written as literals.
   */
  async transactionStart(
    conn: DatabaseConnection,
    scope: Scope,
    inTransaction: boolean,
  ): Promise<CompiledQuery | null> {
    if (!this.enabled) return inTransaction ? null : BEGIN;
    const s = await this.settingsFor(conn, scope);
    return CompiledQuery.raw(
      `${inTransaction ? '' : 'begin; '}select set_config('role', ${literal(s.role)}, true), set_config('app.tenant_id', ${literal(s.tenant)}, true), set_config('app.rls_bypass', ${literal(s.bypass)}, true)`,
    );
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
