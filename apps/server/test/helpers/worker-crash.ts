import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { Db } from '@lampstand/db';
import type { HttpClient } from './test-app.js';

// What the crash tests of every channel share: worker processes on the test app's database that a
// test kills with SIGKILL, and the waits around the kill.

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts worker processes (`src/worker.ts`, what `pnpm worker` runs) on `databaseUrl` with `env`
 * added; every one still running is killed after the test file.
 */
export function workerProcesses(databaseUrl: string, env: Record<string, string>) {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });
  return {
    start(): ChildProcess {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
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
