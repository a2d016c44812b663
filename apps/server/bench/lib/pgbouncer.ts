/**
 * A real PgBouncer (Debian's `pgbouncer` package, `PGBOUNCER_BIN` or /usr/sbin/pgbouncer) in
 * transaction mode on loopback, in front of PostgreSQL servers on loopback, for the benchmarks that
 * scale out (`BENCH_PGBOUNCER=1`). Every database name passes through to its server
 * (`* = host=… port=…`, or one entry per database for a second server); logins are checked by
 * PostgreSQL itself (trust on loopback here). As root it runs as `postgres` (PgBouncer refuses root).
 *
 * `errors()` reads PgBouncer's log for what transaction pooling breaks: a prepared statement or a
 * session setting that reached the wrong client, an unsupported startup parameter, a client
 * refused. `stats()` asks its admin console (`SHOW STATS`) how many transactions and queries passed.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface PgBouncer {
  port: number;
  /** `url` with its host and port replaced by PgBouncer's (the same user and database). */
  through(url: string): string;
  stats(): Promise<{ transactions: number; queries: number; waitMs: number }>;
  /** Lines of its log that name an error (none expected). */
  errors(): string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** What PgBouncer logs when transaction pooling meets session state, or refuses a client. */
const ERROR_LINE =
  /ERROR|FATAL|prepared statement|unsupported startup parameter|no more connections allowed|pooler error/i;

export async function startPgBouncer(opts: {
  /** Folder for its ini, log and socket (made readable by `postgres` when run as root). */
  dir: string;
  /** The server every database name goes to. */
  server: { host: string; port: number };
  /** Databases that go to another server instead (a replica under its own name). */
  databases?: Record<string, { host: string; port: number; dbname: string }>;
  /**
   * Roles that may log in, by name, or as connection URLs whose login PgBouncer then uses towards
   * the server (a password where the server asks for one, as the embedded PostgreSQL does).
   */
  users: string[];
  poolSize?: number;
}): Promise<PgBouncer> {
  const bin = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
  if (!fs.existsSync(bin))
    throw new Error(`No PgBouncer at ${bin}: apt-get install -y pgbouncer (or set PGBOUNCER_BIN)`);
  const port = await freePort();
  fs.mkdirSync(opts.dir, { recursive: true });
  const ini = path.join(opts.dir, 'pgbouncer.ini');
  const log = path.join(opts.dir, 'pgbouncer.log');
  const users = path.join(opts.dir, 'users.txt');
  const logins = opts.users.map((u) => {
    if (!u.includes('://')) return { name: u, password: '' };
    const url = new URL(u);
    return { name: decodeURIComponent(url.username) || 'postgres', password: decodeURIComponent(url.password) };
  });
  fs.writeFileSync(users, logins.map((l) => `"${l.name}" "${l.password.replace(/"/g, '""')}"`).join('\n') + '\n');
  const named = Object.entries(opts.databases ?? {}).map(
    ([name, d]) => `${name} = host=${d.host} port=${d.port} dbname=${d.dbname}`,
  );
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      ...named,
      `* = host=${opts.server.host} port=${opts.server.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${opts.dir}`,
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 800',
      `default_pool_size = ${opts.poolSize ?? 40}`,
      'max_db_connections = 0',
      // What node-postgres may send at start-up that PgBouncer does not track itself.
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${log}`,
      `pidfile = ${path.join(opts.dir, 'pgbouncer.pid')}`,
      'admin_users = postgres',
      'stats_users = postgres',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres', opts.dir]);
  const child = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', bin, ini], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(bin, [ini], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const admin = () => new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'pgbouncer' });
  const started = Date.now();
  for (;;) {
    const c = admin();
    try {
      await c.connect();
      await c.end();
      break;
    } catch {
      await c.end().catch(() => {});
      if (child.exitCode !== null || Date.now() - started > 15_000)
        throw new Error(`PgBouncer did not start: ${stderr || fs.readFileSync(log, 'utf8').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async stats() {
      const c = admin();
      await c.connect();
      try {
        // The admin console speaks the simple protocol only.
        const r = await c.query({ text: 'SHOW STATS', rowMode: 'array' } as pg.QueryConfig);
        const cols = r.fields.map((f) => f.name);
        const at = (row: unknown[], name: string) => Number(row[cols.indexOf(name)] ?? 0);
        let transactions = 0;
        let queries = 0;
        let waitUs = 0;
        for (const row of r.rows as unknown[][]) {
          transactions += at(row, 'total_xact_count');
          queries += at(row, 'total_query_count');
          waitUs += at(row, 'total_wait_time');
        }
        return { transactions, queries, waitMs: waitUs / 1000 };
      } finally {
        await c.end();
      }
    },
    errors() {
      const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
      return text.split('\n').filter((l) => ERROR_LINE.test(l));
    },
    async stop() {
      // runuser may not pass the signal on: PgBouncer's own pid first.
      const pidFile = path.join(opts.dir, 'pgbouncer.pid');
      if (fs.existsSync(pidFile)) {
        try {
          process.kill(Number(fs.readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
        } catch {
          // already gone
        }
      }
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** An app's settings through `bouncer` in transaction mode; LISTEN/NOTIFY stays straight to PostgreSQL. */
export function envThrough(
  bouncer: { through(url: string): string },
  env: Record<string, string>,
): Record<string, string> {
  return {
    ...env,
    DATABASE_URL: bouncer.through(env.DATABASE_URL!),
    DATABASE_OWNER_URL: bouncer.through(env.DATABASE_OWNER_URL!),
    DATABASE_POOLER: 'transaction',
    DATABASE_LISTEN_URL: env.DATABASE_URL!,
  };
}
