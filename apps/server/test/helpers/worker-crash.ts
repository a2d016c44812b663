import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, inject } from 'vitest';
import type { Db } from '@lampstand/db';
import type { HttpClient } from './test-app.js';

import '../provided.js';

// What the crash tests of every channel share: worker processes on the test app's database that a
// test kills with SIGKILL, and the waits around the kill.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let bundled: string | undefined;

/**
 * `src/worker.ts` bundled once per test run, as `build.mjs` bundles it for `pnpm worker` (the
 * workspace packages and pure-JS dependencies in, native ones left as imports, found in this
 * package's node_modules). A worker then starts on about 0.9 CPU-seconds instead of 3.6 through
 * tsx, which compiles every source file again in each process (13 worker starts in the crash
 * tests). The bundle is the run's (its name holds the run's prefix, `global-setup.ts` removes it):
 * the first test process that needs it builds it (about 2 CPU-seconds of esbuild) and the others
 * reuse it. A process builds into a folder of its own and renames it into place; when two build at
 * once, the second rename fails and that process uses the first one's.
 */
function workerBundle(): string {
  if (bundled) return bundled;
  // Beside dist/, at its depth: paths the server finds from its own file (config.ts) come out the same.
  const outdir = path.join(serverDir, `.test-worker-${inject('serverDatabasePrefix')}`);
  const file = path.join(outdir, 'worker.js');
  if (!fs.existsSync(file)) {
    const building = `${outdir}building-${process.pid}`;
    fs.rmSync(building, { recursive: true, force: true });
    buildSync({
      entryPoints: { worker: path.join(serverDir, 'src', 'worker.ts') },
      outdir: building,
      bundle: true,
      platform: 'node',
      target: 'node20.19',
      format: 'esm',
      external: JSON.parse(fs.readFileSync(path.join(serverDir, 'build-external.json'), 'utf8')) as string[],
      logLevel: 'warning',
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    try {
      fs.renameSync(building, outdir);
    } catch (err) {
      // Another test process renamed its bundle into place first: use that one.
      fs.rmSync(building, { recursive: true, force: true });
      if (!fs.existsSync(file)) throw err;
    }
  }
  bundled = file;
  return bundled;
}

/**
 * Starts worker processes (`src/worker.ts`, what `pnpm worker` runs, bundled: `workerBundle`) on `databaseUrl` with `env`
 * added; every one still running is killed after the test file.
 */
export function workerProcesses(databaseUrl: string, env: Record<string, string>) {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });
  return {
    start(): ChildProcess {
      const child = spawn(process.execPath, [workerBundle()], {
        cwd: serverDir,
        // Small pools: several of these beside the test's own app and the other test files stay
        // within the shared PostgreSQL's connection limit. WORKER_NICE 0: these tests give claims
        // leases of a few seconds, and beside CI's lint and typecheck a worker at `pnpm worker`'s
        // default priority (10) can be held off a core past its lease, so a second worker sends the
        // same message again (at least once, as designed) and the test counts a duplicate.
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          LOG_LEVEL: 'warn',
          DB_POOL_MAX: '3',
          WORKER_NICE: '0',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    },
    /** SIGKILL, as a crash: no shutdown handler runs. Resolves once the process is gone. */
    async kill(child: ChildProcess): Promise<void> {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Waits (up to 6 s) until `n` deliveries are recorded as sent: the worker has read every acceptance. */
export async function waitForSentDeliveries(db: Db, n: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const sent = await db
      .selectFrom('deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'sent')
      .executeTakeFirstOrThrow();
    if (Number(sent.n) === n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A list of `count` new contacts, the i-th made from `contact(i)`. */
export async function listOfContacts(
  client: HttpClient,
  opts: { list: Record<string, unknown>; count: number; contact: (i: number) => Record<string, unknown> },
): Promise<{ id: number }> {
  const list = (await client.post('/api/contact-lists', opts.list)).body as { id: number };
  for (let i = 0; i < opts.count; i++) {
    const c = (await client.post('/api/contacts', opts.contact(i))).body as { id: number };
    await client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  }
  return list;
}

/** Polls a campaign (GET `url`) until it is sent; fails after a minute with its progress. */
export async function waitForCampaignSent(client: HttpClient, url: string): Promise<void> {
  const start = Date.now();
  for (;;) {
    const c = (await client.get(url)).body as { status: string; progress: unknown };
    if (c.status === 'sent') return;
    if (Date.now() - start > 60_000) throw new Error(`still ${c.status}: ${JSON.stringify(c.progress)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How many times each key occurs. */
export function countsBy<T>(items: T[], key: (item: T) => string | number): Map<string | number, number> {
  const counts = new Map<string | number, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
