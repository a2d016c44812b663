/**
 * Shared by bench:api and bench:growth: a database with a signed-in church, its contacts (seeded in SQL)
 * and a published landing page; the endpoints both benchmarks drive; the server started as its own
 * process the way `pnpm serve` starts it (compiled dist/main.js); RSS of a process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ownerDb, sql, type Db } from '@lampstand/db';
import { HttpClient } from '../../test/helpers/test-app.js';
import type { RecordedStatement } from '../api-bare.js';
import { BENCH_SECRETS_KEY, SESSION_SECRET } from './setup-server.js';

export { BENCH_SECRETS_KEY, SESSION_SECRET, startSetupServer } from './setup-server.js';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SESSION_COOKIE_NAME = 'lampstand.sid';

/**
 * A port of this run's own (from the pid, so two benchmarks on one machine cannot collide), `offset`
 * apart for the servers of one run.
 */
export function benchPort(offset = 0): number {
  return 20_000 + ((process.pid * 4) % 20_000) + offset;
}

export interface Endpoint {
  /** Row label, e.g. 'contacts first page'. */
  name: string;
  shim: 'REST' | 'tRPC' | 'public';
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  body?: string;
  /** Sends the church's session cookie. */
  auth: boolean;
}

export interface Church {
  tenantId: number;
  cookie: string;
  contactId: number;
  contactEmail: string;
  slug: string;
}

/** The endpoints of the issue: contacts first page, a search, the dashboard, a public page, one update. */
export function endpointsFor(church: Church): Endpoint[] {
  const trpcGet = (proc: string, input: unknown) => `/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`;
  // The contact as created, with another last name (the update form sends every field).
  const update = { firstName: 'Bench', lastName: 'Benchmark', email: church.contactEmail, phone: '0412345678' };
  return [
    {
      name: 'contacts first page',
      shim: 'REST',
      method: 'GET',
      path: '/api/contacts/search?page=1&pageSize=25',
      auth: true,
    },
    {
      name: 'contacts first page',
      shim: 'tRPC',
      method: 'GET',
      path: trpcGet('contacts.find', { page: 1, pageSize: 25 }),
      auth: true,
    },
    {
      name: 'contacts search',
      shim: 'REST',
      method: 'GET',
      path: '/api/contacts/search?search=smi&page=1',
      auth: true,
    },
    {
      name: 'contacts search',
      shim: 'tRPC',
      method: 'GET',
      path: trpcGet('contacts.find', { search: 'smi', page: 1 }),
      auth: true,
    },
    { name: 'dashboard stats', shim: 'REST', method: 'GET', path: '/api/dashboard/stats', auth: true },
    { name: 'dashboard stats', shim: 'tRPC', method: 'GET', path: '/trpc/dashboard.stats', auth: true },
    { name: 'landing page', shim: 'public', method: 'GET', path: `/p/${church.slug}`, auth: false },
    {
      name: 'update contact',
      shim: 'REST',
      method: 'PATCH',
      path: `/api/contacts/${church.contactId}`,
      body: JSON.stringify(update),
      auth: true,
    },
    {
      name: 'update contact',
      shim: 'tRPC',
      method: 'POST',
      path: '/trpc/contacts.update',
      body: JSON.stringify({ id: church.contactId, ...update }),
      auth: true,
    },
  ];
}

/** Headers a browser on the app's own origin sends (cookie; JSON and same-origin on writes). */
export function headersFor(e: Endpoint, church: Church, origin: string): Record<string, string> {
  const h: Record<string, string> = {};
  if (e.auth) h.cookie = church.cookie;
  if (e.body !== undefined) {
    h['content-type'] = 'application/json';
    h.origin = origin;
    h['sec-fetch-site'] = 'same-origin';
  }
  h['user-agent'] = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
  return h;
}

/** One request of the endpoint, as a browser on `url` sends it; the answer's text. Throws unless 200. */
export async function sendEndpoint(url: string, e: Endpoint, church: Church): Promise<string> {
  const res = await fetch(url + e.path, { method: e.method, headers: headersFor(e, church, url), body: e.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${e.shim} ${e.name}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/**
 * Contacts for `tenantIds`, `perChurch` each, in one INSERT … SELECT over generate_series per church
 * batch (no round trip per row). Names cycle through lists, so a search for 'smi' matches about 1 in 36.
 */
export async function seedContacts(db: Db, tenantIds: number[], perChurch: number): Promise<void> {
  const first = ['Mary', 'John', 'Grace', 'David', 'Sarah', 'Peter', 'Ruth', 'Samuel', 'Hannah', 'James', 'Esther'];
  const last = ['Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Nguyen', 'Walker', 'Harris', 'Lee'];
  const batch = Math.max(1, Math.floor(200_000 / perChurch));
  for (let i = 0; i < tenantIds.length; i += batch) {
    const ids = tenantIds.slice(i, i + batch);
    await sql`
      insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, metadata)
      select t.id, (${first}::text[])[1 + g % ${first.length}], (${last}::text[])[1 + (g / 7) % ${last.length}] || g,
        'c' || t.id || '_' || g || '@example.org', '0412' || lpad((g % 1000000)::text, 6, '0'),
        '+61412' || lpad((g % 1000000)::text, 6, '0'), '{}'::jsonb
      from unnest(${ids}::int[]) as t(id), generate_series(1, ${perChurch}) as g`.execute(db);
  }
  await sql`analyze contacts`.execute(ownerDb(db));
}

/** Register a church through the API (signed in), publish a landing page, return what the benches need. */
export async function setUpChurch(url: string, name: string): Promise<Church & { client: HttpClient }> {
  const client = new HttpClient(url);
  const n = `${name.toLowerCase().replace(/\W+/g, '')}${Date.now().toString(36)}`;
  const reg = await client.post('/api/register', {
    username: `bench_${n}`,
    password: 'bench-pass-123',
    churchName: name,
    email: `${n}@example.org`,
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${reg.text}`);
  const page = await client.post('/api/landing-pages', {
    name: 'Easter Sunday',
    slug: `easter-${n}`,
    content: {
      headline: 'Easter at Grace',
      subheading: 'Join us for a joyful morning.',
      mainContent: 'We would love to see you.\n\nBring the whole family.',
      callToAction: 'Plan your visit',
      keyPoints: ['Kids programme', 'Coffee after', 'Free parking'],
    },
  });
  if (page.status !== 201) throw new Error(`landing page: ${page.status} ${page.text}`);
  const pub = await client.post(`/api/landing-pages/${page.body.id}/publish`, { published: true });
  if (pub.status !== 200) throw new Error(`publish: ${pub.status} ${pub.text}`);
  const contact = await client.post('/api/contacts', {
    firstName: 'Bench',
    lastName: 'Contact',
    email: `bench-${n}@example.org`,
    phone: '0412345678',
  });
  if (contact.status !== 201) throw new Error(`contact: ${contact.status} ${contact.text}`);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    client,
    tenantId: reg.body.id,
    cookie,
    contactId: contact.body.id,
    contactEmail: contact.body.email,
    slug: page.body.slug,
  };
}

export interface Spawned {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Start a node process and wait until `url + healthPath` answers 200. */
export async function spawnServer(
  args: string[],
  env: Record<string, string>,
  port: number,
  healthPath = '/healthz',
): Promise<Spawned> {
  const child = spawn(process.execPath, args, {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url + healthPath)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > 60_000) throw new Error(`${args.join(' ')} did not become healthy`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/**
 * The node options `pnpm serve` starts the server with (the root package.json's `serve` script,
 * e.g. the V8 heap flags), so the benchmarks run the app as it is run.
 */
export function serveNodeOptions(): string[] {
  const root = JSON.parse(fs.readFileSync(path.join(serverDir, '../../package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const m = /^node\s+(.*?)\s*apps\/server\/dist\/main\.js$/.exec(root.scripts.serve ?? '');
  if (!m) throw new Error(`unexpected serve script: ${root.scripts.serve}`);
  return m[1]!.split(/\s+/).filter(Boolean);
}

/** The app as `pnpm serve` runs it (dist/main.js, its node options, production mode), on an existing database. */
export function spawnApp(databaseUrl: string, port: number, extraArgs: string[] = []): Promise<Spawned> {
  if (!fs.existsSync(path.join(serverDir, 'dist/main.js'))) throw new Error('No dist/main.js: run `pnpm build` first');
  return spawnServer([...serveNodeOptions(), ...extraArgs, 'dist/main.js'], appEnv(databaseUrl, port), port);
}

/** `databaseUrl` logged in as the application's own role, with the bench's password. */
export function appLoginUrl(databaseUrl: string): string {
  const u = new URL(databaseUrl);
  u.username = 'lampstand_app';
  u.password = 'bench-app-role-password-0123';
  return u.toString();
}

export function appEnv(databaseUrl: string, port: number): Record<string, string> {
  return {
    NODE_ENV: 'production',
    // Production logs in as the app's own role; the owner (the bench's URL) migrates and gives the
    // role this login (packages/db/src/connect.ts).
    DATABASE_URL: appLoginUrl(databaseUrl),
    DATABASE_OWNER_URL: databaseUrl,
    SESSION_SECRET,
    // Production with DATABASE_URL needs the key stored secrets are sealed with (a bench's own).
    SECRETS_KEY: BENCH_SECRETS_KEY,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RUN_WORKERS: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time (user + system) `pid` has used so far, in ms (from /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15)
}

/**
 * CPU time (ms) `pid` has used so far, split by its threads: its main thread (the event loop),
 * the threads it runs at a lower priority (nice above the main thread's: a preview thread), and the
 * rest at the main thread's priority (V8's GC and compiler helpers, libuv's pool), which compete with
 * the event loop and other processes for a core as equals. A thread that ended no longer counts.
 */
export function threadsCpuMs(pid: number): { main: number; lowered: number; others: number } {
  const out = { main: 0, lowered: 0, others: 0 };
  let mainNice = 0;
  const rows: { tid: number; nice: number; ms: number }[] = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const row = { tid: Number(tid), nice: Number(f[16]), ms: (Number(f[11]) + Number(f[12])) * 10 };
      if (row.tid === pid) mainNice = row.nice;
      rows.push(row);
    } catch {
      /* ended meanwhile */
    }
  }
  for (const r of rows) {
    if (r.tid === pid) out.main += r.ms;
    else if (r.nice > mainNice) out.lowered += r.ms;
    else out.others += r.ms;
  }
  return out;
}

/** Largest RSS of `pid` while `work` runs, sampled every 100 ms. */
export async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, rssMb(pid));
    } catch {
      /* exited */
    }
  }, 100);
  try {
    return { result: await work(), peakMb };
  } finally {
    clearInterval(timer);
  }
}

export const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** Every statement a pg client sends while `on` is set (the app's pool and pg-boss's share pg.Client). */
export function statementRecorder() {
  const seen: RecordedStatement[] = [];
  let on = false;
  const proto = pg.Client.prototype as unknown as { query: (this: pg.Client, ...a: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    // A text and its values, or a named (prepared) statement's config: the bare server sends its text.
    const named = args[0] as { name?: string; text?: string; values?: unknown[] } | null;
    if (on && typeof args[0] === 'string' && !/pgboss/i.test(args[0])) {
      seen.push({ text: args[0], values: (Array.isArray(args[1]) ? args[1] : []) as unknown[] });
    } else if (on && typeof named === 'object' && named?.name && typeof named.text === 'string') {
      seen.push({ text: named.text, values: named.values ?? [] });
    }
    return original.apply(this, args);
  };
  return {
    async record(work: () => Promise<void>): Promise<RecordedStatement[]> {
      seen.length = 0;
      on = true;
      try {
        await work();
      } finally {
        on = false;
      }
      return [...seen];
    },
    restore() {
      proto.query = original;
    },
  };
}
