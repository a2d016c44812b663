import { afterAll, onTestFinished } from 'vitest';
import { createFreshDatabase } from '@lampstand/db/test/fresh-db';
import { sql, type Db } from '@lampstand/db';
import { loadConfig, type Config } from '../../src/config.js';
import { createServer, type ServerHandle } from '../../src/server.js';
import { startRuntime, type AppDeps, type AppRuntime } from '../../src/app-deps.js';
import type { DeliveryConfig } from '@lampstand/api/server';

export interface TestApp {
  url: string;
  databaseUrl: string;
  db: Db;
  server: ServerHandle;
  runtime: AppRuntime;
  deps: AppDeps;
  stop(): Promise<void>;
}

/** The real server on a free port over a fresh database (stopped when the file's tests end). */
export async function startTestApp(
  overrides: Partial<Config> = {},
  deliveryOverrides: Partial<DeliveryConfig> = {},
  queue: TestQueueOptions = {},
): Promise<TestApp> {
  const tdb = await createFreshDatabase();
  return startAppOn(tdb, overrides, true, deliveryOverrides, queue);
}

export interface TestQueueOptions {
  /**
   * How often the app looks for queued jobs without a wake (default 2 s). A job this process sends
   * wakes it at once; polling finds jobs due later (a scheduled send, a retry). An idle app's polling
   * costs CPU (its own and PostgreSQL's) for the whole time it is up: at 0.5 s, each app's 37 queue
   * workers asked PostgreSQL about 74 times a second.
   */
  pollingIntervalSeconds?: number;
}

export async function startAppOn(
  tdb: { db: Db; url: string; drop(): Promise<void> },
  overrides: Partial<Config> = {},
  registerAfterAll = false,
  deliveryOverrides: Partial<DeliveryConfig> = {},
  queue: TestQueueOptions = {},
): Promise<TestApp> {
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    // Test files register many churches from 127.0.0.1; the registration test sets its own limit.
    registrationsPerHour: 10_000,
    // The tests' databases are external, yet most files rely on "first account: admin".
    firstAccountIsAdmin: true,
    // Small pools: the suites run many apps at once on one PostgreSQL (100 connections).
    dbPoolMax: 3,
    ...overrides,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, {
    pollingIntervalSeconds: queue.pollingIntervalSeconds ?? 2,
    delivery: deliveryOverrides,
  });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.stop();
    await runtime.close();
    await tdb.drop();
  };
  if (registerAfterAll) {
    // An app started inside a test stops when that test ends: a file-level hook registered while a
    // test runs never ran, so such apps (their pollers, their database) outlived their file in the
    // worker process, which runs the next files (isolate: false).
    try {
      onTestFinished(stop);
    } catch {
      // Not inside a test (vitest says so): at the end of the file.
      afterAll(stop);
    }
  }
  return { url, databaseUrl: tdb.url, db: tdb.db, server, runtime, deps: runtime.deps, stop };
}

/** An HTTP answer as the tests read it: status, JSON body (when it parses), text and headers. */
export interface HttpAnswer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** A fetch that keeps cookies, like one browser. */
export class HttpClient {
  cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    // As the web client does: a POST without a body still sends JSON `{}` (the CSRF check requires JSON).
    if (body === undefined && method === 'POST') body = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const res = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.rememberCookies(res.headers.getSetCookie());
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text, headers: res.headers };
  }
  /** The `Cookie` header of the cookies kept (undefined when there are none). */
  cookieHeader(): string | undefined {
    return this.cookies.size ? [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }

  /** Keeps the cookies of an answer's `Set-Cookie` headers, and forgets the ones they expire. */
  rememberCookies(setCookies: string[]): void {
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body);
  }
  put(path: string, body?: unknown) {
    return this.request('PUT', path, body);
  }
  patch(path: string, body?: unknown) {
    return this.request('PATCH', path, body);
  }
  delete(path: string) {
    return this.request('DELETE', path);
  }
}

let counter = 0;
/** Register a church account (or the first admin on an empty database) and stay signed in. */
export async function registerChurch(baseUrl: string, name?: string) {
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const client = new HttpClient(baseUrl);
  const payload = {
    username: `user_${n}`,
    password: 'correct-horse',
    churchName: name ?? `Church ${n}`,
    email: `office_${n}@example.org`,
  };
  const res = await client.post('/api/register', payload);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return {
    client,
    user: res.body as { id: number; username: string; churchName: string; role: string; email: string },
    password: payload.password,
  };
}

let contactCount = 0;
/**
 * A contact of the signed-in church through POST /api/contacts: a name and email unique in the
 * test file and a mobile number, unless `fields` say otherwise. Returns the created contact.
 */
export async function addContact(client: HttpClient, fields: Record<string, unknown> = {}) {
  const n = ++contactCount;
  const res = await client.post('/api/contacts', {
    firstName: `P${n}`,
    lastName: 'L',
    email: `p${n}@example.org`,
    phone: '0412345678',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`adding a contact failed: ${res.status} ${res.text}`);
  return res.body as { id: number; firstName: string; lastName: string; email: string | null };
}

/**
 * The published landing page the benchmarks render at /p/easter-sunday (bench:pages, bench:web): a
 * hero, a call to action, text, highlights, an event and a signup form. Body of POST /api/landing-pages.
 */
export const EASTER_SUNDAY_PAGE = {
  name: 'Easter Sunday',
  slug: 'easter-sunday',
  published: true,
  content: {
    blocks: [
      {
        id: 'hero',
        type: 'hero',
        headline: 'Celebrate Easter with Us',
        subheading: 'A joyful morning for everyone.',
      },
      { id: 'cta', type: 'cta', text: 'Plan your visit', link: { kind: 'signup', blockId: 'form' } },
      {
        id: 'main',
        type: 'text',
        html: '<p>Join us this Easter for a service full of music, hope and a warm welcome.</p>'.repeat(4),
      },
      {
        id: 'kp',
        type: 'highlights',
        title: 'Key Highlights',
        items: ['Egg hunt at 9am', 'Family service', 'Coffee after'],
      },
      {
        id: 'ev',
        type: 'event',
        title: 'Easter service',
        date: '2027-03-28',
        startTime: '10:30',
        endTime: '12:00',
        place: 'Main hall',
        address: '1 Church St',
      },
      { id: 'form', type: 'signup', title: 'Stay in touch', fields: ['phone'] },
    ],
  },
};
export { demoGift } from './show-up.js';

/**
 * Show Up projects written straight into the database (benchmarks): each gets its own fund, as
 * createProject makes it, and `count` completed gifts of `cents` each in the ledger, so
 * its raised amount and supporters read from them. A real gift goes through prepare and Stripe.
 */
export async function seedProjectGifts(db: Db, projects: { projectId: number; count: number; cents: number }[]) {
  const ids = projects.map((p) => p.projectId);
  await sql`
    insert into funds (user_id, name, is_public, project_id)
    select user_id, title, false, id from show_up_projects where id = any(${ids}::int[])
    on conflict (project_id) do nothing`.execute(db);
  await sql`
    with wanted as (
      select w.cents, f.id as fund_id, f.user_id
        from unnest(${ids}::int[], ${projects.map((p) => p.count)}::int[], ${projects.map((p) => p.cents)}::int[])
             as w(project_id, n, cents)
        join funds f on f.project_id = w.project_id, generate_series(1, w.n)
    ), made as (
      insert into gifts (user_id, amount_cents, status, idempotency_key, receipt_token, completed_at, donor_name)
      select user_id, cents, 'completed', 'seed-' || fund_id || '-' || gen_random_uuid(), gen_random_uuid()::text,
             now(), 'Seeded donor'
        from wanted
      returning id, user_id, amount_cents, idempotency_key
    )
    insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
    select user_id, id, split_part(idempotency_key, '-', 2)::int, amount_cents from made`.execute(db);
}
