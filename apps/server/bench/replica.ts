/**
 * pnpm bench:replica — the app in front of a real streaming replica.
 *
 * Makes a PostgreSQL primary and a streaming replica of it on loopback with the machine's own
 * PostgreSQL binaries (`initdb`, `pg_basebackup -R`, `pg_ctl`; `PG_BIN` or the newest
 * /usr/lib/postgresql/<v>/bin), each on its own port and data folder under the temp folder (as
 * the `postgres` user when run as root), removed afterwards. Then, on one church with
 * BENCH_CONTACTS contacts (10,000):
 *
 * 1. the read-heavy rows (dashboard, the events API) through the compiled app (`pnpm build`
 *    first), without and with DATABASE_READ_URL: requests a second with autocannon;
 * 2. replication lag while BENCH_IMPORT contacts (100,000) are written in batches of 5,000 (an
 *    import's writes): the largest byte and time lag seen on `pg_stat_replication`, sampled every 50 ms;
 * 3. read-your-writes: BENCH_RYW times (200) a contact added and the dashboard read at once by the
 *    same session: every read must show the write (exits non-zero otherwise). A session that did not
 *    write reads the replica meanwhile: how often it was behind is printed, not judged.
 *
 * BENCH_PGBOUNCER=1: the app reaches both through a real PgBouncer in transaction mode
 * (lib/pgbouncer.ts; `DATABASE_POOLER=transaction`, the replica as a database of its own name), its
 * workers LISTEN on a direct connection (`DATABASE_LISTEN_URL`), and any error PgBouncer logs
 * (prepared statements, session settings, refused clients) fails the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { connectDatabase, freePort, sql } from '@lampstand/db';
import { envThrough, startPgBouncer, type PgBouncer } from './lib/pgbouncer.js';
import {
  appEnv,
  appLoginUrl,
  headersFor,
  seedContacts,
  setUpChurch,
  spawnServer,
  startSetupServer,
  serverDir,
  type Church,
  type Endpoint,
  type Spawned,
} from './lib/api-load.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const IMPORT = Number(process.env.BENCH_IMPORT ?? 100_000);
const RYW = Number(process.env.BENCH_RYW ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const THROUGH_PGBOUNCER = process.env.BENCH_PGBOUNCER === '1';

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(bin, 'pg_basebackup'))) return bin;
  }
  throw new Error('No PostgreSQL binaries with pg_basebackup: set PG_BIN');
}

const asRoot = process.getuid?.() === 0;
/** A PostgreSQL program, as `postgres` when this runs as root (PostgreSQL refuses root). */
function run(bin: string, program: string, args: string[]): void {
  const exe = path.join(bin, program);
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', exe, ...args], { stdio: 'pipe' });
  else execFileSync(exe, args, { stdio: 'pipe' });
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function rps(url: string, e: Endpoint, church: Church): Promise<{ rps: number; p99: number }> {
  const r = await autocannon({
    url: url + e.path,
    method: e.method,
    headers: headersFor(e, church, url),
    connections: CONNECTIONS,
    duration: DURATION,
  });
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${e.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99 };
}

async function main() {
  if (!fs.existsSync(path.join(serverDir, 'dist/main.js'))) throw new Error('No dist/main.js: run `pnpm build` first');
  const bin = pgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lampstand-replica-'));
  fs.chmodSync(dir, 0o755);
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const [p1, p2] = [await freePort(), await freePort()];
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const common = `-c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`;
  const started: string[] = [];
  const apps: Spawned[] = [];
  let bouncer: PgBouncer | undefined;
  try {
    console.log(`PostgreSQL binaries: ${bin}; primary on ${p1}, replica on ${p2}, in ${dir}`);
    run(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    run(bin, 'pg_ctl', [
      '-D',
      primaryDir,
      '-l',
      path.join(dir, 'primary.log'),
      '-w',
      '-o',
      `-p ${p1} ${common} -c wal_level=replica -c max_wal_senders=5`,
      'start',
    ]);
    started.push(primaryDir);
    run(bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(p1),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    run(bin, 'pg_ctl', [
      '-D',
      replicaDir,
      '-l',
      path.join(dir, 'replica.log'),
      '-w',
      '-o',
      `-p ${p2} ${common} -c hot_standby=on -c hot_standby_feedback=on`,
      'start',
    ]);
    started.push(replicaDir);

    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${p1}/postgres` });
    await admin.connect();
    await admin.query('create database lampstand');
    await admin.end();
    const primaryUrl = `postgres://postgres@127.0.0.1:${p1}/lampstand`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${p2}/lampstand`;
    const database = await connectDatabase({ databaseUrl: primaryUrl, dataDir: dir, migrate: true, poolMax: 4 });
    const db = database.db;
    const replica = new pg.Pool({ connectionString: replicaUrl, max: 2 });
    const primary = new pg.Pool({ connectionString: primaryUrl, max: 2 });
    const caughtUp = async () => {
      const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
      const { rows: r } = await replica.query<{ behind: number }>(
        'select pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::float8 as behind',
        [rows[0]!.lsn],
      );
      return r[0]!.behind <= 0;
    };

    // One church with its contacts and some events, made on the primary.
    const setup = await startSetupServer(primaryUrl, db);
    const church = await setUpChurch(setup.url, 'Replica Church');
    await seedContacts(db, [church.tenantId], CONTACTS);
    for (let i = 0; i < 50; i++) {
      await church.client.post('/api/contacts', {
        firstName: `Event${i}`,
        lastName: 'Maker',
        email: `e${i}@example.org`,
        phone: `0414${String(100000 + i).slice(-6)}`,
      });
    }
    await setup.stop();
    await waitFor(caughtUp, 'the replica to catch up');

    // 1. The read-heavy rows, without and with the replica.
    const rows: Endpoint[] = [
      { name: 'dashboard stats', shim: 'REST', method: 'GET', path: '/api/dashboard/stats', auth: true },
      { name: 'events API (50)', shim: 'REST', method: 'GET', path: '/api/events?limit=50', auth: true },
    ];
    if (THROUGH_PGBOUNCER) {
      bouncer = await startPgBouncer({
        dir: path.join(dir, 'pgbouncer'),
        server: { host: '127.0.0.1', port: p1 },
        databases: { lampstand_replica: { host: '127.0.0.1', port: p2, dbname: 'lampstand' } },
        users: ['postgres', new URL(appLoginUrl(primaryUrl)).username],
      });
      console.log(`through PgBouncer in transaction mode on ${bouncer.port}`);
    }
    /** The app's settings: straight to the servers, or through PgBouncer (LISTEN always straight). */
    const envFor = (withReplica: boolean): Record<string, string> => {
      const env: Record<string, string> = { ...appEnv(primaryUrl, port), LOG_LEVEL: 'warn', DB_POOL_MAX: '10' };
      const read = appLoginUrl(replicaUrl);
      if (!bouncer) return withReplica ? { ...env, DATABASE_READ_URL: read } : env;
      const viaReplica = new URL(bouncer.through(read));
      viaReplica.pathname = '/lampstand_replica';
      return { ...envThrough(bouncer, env), ...(withReplica ? { DATABASE_READ_URL: viaReplica.toString() } : {}) };
    };
    const port = await freePort();
    const figures: Record<string, { without: number; with: number; p99Without: number; p99With: number }> = {};
    for (const withReplica of [false, true]) {
      const app = await spawnServer(['dist/main.js'], envFor(withReplica), port);
      apps.push(app);
      for (const e of rows) {
        const r = await rps(app.url, e, church);
        const f = (figures[e.name] ??= { without: 0, with: 0, p99Without: 0, p99With: 0 });
        if (withReplica) Object.assign(f, { with: r.rps, p99With: r.p99 });
        else Object.assign(f, { without: r.rps, p99Without: r.p99 });
      }
      if (!withReplica) {
        await app.stop();
        apps.pop();
      }
    }
    const app = apps[0]!; // the app with the replica, still running

    // 2. Replication lag while an import's worth of contacts is written.
    let maxBytes = 0;
    let maxSeconds = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows: s } = await primary.query<{ bytes: number; seconds: number }>(
          `select coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)), 0)::float8 as bytes,
                  coalesce(extract(epoch from max(replay_lag)), 0)::float8 as seconds from pg_stat_replication`,
        );
        maxBytes = Math.max(maxBytes, s[0]!.bytes);
        maxSeconds = Math.max(maxSeconds, s[0]!.seconds);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const importStarted = Date.now();
    for (let done = 0; done < IMPORT; done += 5_000) {
      const n = Math.min(5_000, IMPORT - done);
      await sql`
        insert into contacts (user_id, first_name, last_name, email, metadata)
        select ${church.tenantId}, 'Imported', 'Person' || (${done}::int + g), 'imp' || (${done}::int + g) || '@example.org', '{}'::jsonb
        from generate_series(1, ${n}) g`.execute(db);
    }
    const importSeconds = (Date.now() - importStarted) / 1000;
    await waitFor(caughtUp, 'the replica to catch up after the import');
    const catchUpSeconds = (Date.now() - importStarted) / 1000 - importSeconds;
    sampling = false;
    await sampler;

    // 3. Read-your-writes: the writer always sees its write; a reader that did not write may lag.
    const { HttpClient } = await import('../test/helpers/test-app.js');
    const writer = new HttpClient(app.url);
    for (const c of church.cookie.split('; ')) {
      const [k, ...v] = c.split('=');
      writer.cookies.set(k!, v.join('='));
    }
    writer.cookies.delete('ls_wrote');
    const reader = new HttpClient(app.url);
    for (const [k, v] of writer.cookies) reader.cookies.set(k, v);
    const count = async (client: InstanceType<typeof HttpClient>) => {
      const res = await client.get('/api/dashboard/stats');
      if (res.status !== 200) throw new Error(`dashboard: ${res.status}`);
      return res.body.contactsCount as number;
    };
    let expected = await count(writer);
    let stale = 0;
    let readerBehind = 0;
    for (let i = 0; i < RYW; i++) {
      const made = await writer.post('/api/contacts', {
        firstName: 'Ryw',
        lastName: `Check${i}`,
        email: `ryw${i}@example.org`,
        phone: `0415${String(100000 + i).slice(-6)}`,
      });
      if (made.status !== 201) throw new Error(`contact: ${made.status} ${made.text}`);
      expected++;
      if ((await count(writer)) !== expected) stale++;
      if ((await count(reader)) < expected) readerBehind++;
    }

    console.log(
      `\nchurch of ${CONTACTS.toLocaleString('en')} contacts; ${CONNECTIONS} connections, ${DURATION} s a row; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    console.log('| read-heavy row | without replica (req/s, p99 ms) | with replica (req/s, p99 ms) |');
    console.log('|---|---:|---:|');
    for (const [name, f] of Object.entries(figures)) {
      console.log(`| ${name} | ${f.without.toFixed(0)}, ${f.p99Without} | ${f.with.toFixed(0)}, ${f.p99With} |`);
    }
    console.log(
      `\nimport of ${IMPORT.toLocaleString('en')} contacts in ${importSeconds.toFixed(1)} s: largest replication lag ${(maxBytes / 1024 / 1024).toFixed(1)} MiB, ${(maxSeconds * 1000).toFixed(0)} ms replay; caught up ${catchUpSeconds.toFixed(2)} s after the last write`,
    );
    console.log(
      `read-your-writes: ${RYW} writes each read back at once by the writer: ${stale} stale; a session that did not write saw the replica behind ${readerBehind} times`,
    );
    await replica.end();
    await primary.end();
    await database.close();
    if (stale > 0) {
      console.log('MISSED: a session read older data than it had written');
      process.exitCode = 1;
    }
    if (bouncer) {
      const st = await bouncer.stats();
      const errors = bouncer.errors();
      console.log(
        `PgBouncer: ${st.transactions.toLocaleString('en')} transactions, ${st.queries.toLocaleString('en')} queries, clients waited ${st.waitMs.toFixed(0)} ms in all; errors in its log: ${errors.length}`,
      );
      for (const e of errors.slice(0, 10)) console.log(`  ${e}`);
      if (errors.length > 0) process.exitCode = 1;
    }
  } finally {
    for (const a of apps) await a.stop().catch(() => {});
    await bouncer?.stop();
    for (const d of started.reverse()) {
      try {
        run(bin, 'pg_ctl', ['-D', d, '-m', 'fast', '-w', 'stop']);
      } catch {
        /* already stopped */
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
