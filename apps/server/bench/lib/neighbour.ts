import { performance } from 'node:perf_hooks';
import { ownerDb, sql, type Db } from '@lampstand/db';
import { HttpClient } from '../../test/helpers/test-app.js';
import { seedListContacts } from './campaigns.js';
import { percentile } from './latency.js';

/**
 * Another church, beside the one a benchmark loads ("another church's p95 ≤ 2×
 * baseline during each"): it has 2,000 contacts on a list and asks for its first page of contacts
 * (GET /api/contacts/search, 50 a page, as the Contacts screen does), ten times a second. With
 * `gifts`, it also has that many gifts and asks for its first page of them (GET /api/giving/gifts,
 * as the Giving screen does), the two calls taking turns. `baseline()` times each call while the
 * load has not begun; `during()` times them until `stop()`, which prints each call's p50 and p95
 * against its baseline and says whether the p95 is within 2× (the worst call's ratio is returned).
 */
/**
 * One request every PACE_MS at most (10 a second): a busy person at the screen, not a flood. A
 * back-to-back loop (80 a second through the proxy) took half a core from the load it measured.
 */
export const PACE_MS = 100;
const BASELINE_REQUESTS = 150;

/** Times one request (which must answer 200), then waits out the rest of its `paceMs`. */
export async function pacedRequest(request: () => Promise<{ status: number }>, paceMs = PACE_MS): Promise<number> {
  const t = performance.now();
  const res = await request();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`another church's request: HTTP ${res.status}`);
  if (ms < paceMs) await new Promise((r) => setTimeout(r, paceMs - ms));
  return ms;
}

/** The baseline: 10 untimed requests, then BASELINE_REQUESTS paced ones; their times, sorted. */
export async function pacedBaseline(request: () => Promise<{ status: number }>, paceMs = PACE_MS): Promise<number[]> {
  for (let i = 0; i < 10; i++) await request();
  const times: number[] = [];
  while (times.length < BASELINE_REQUESTS) times.push(await pacedRequest(request, paceMs));
  return times.sort((a, b) => a - b);
}

export interface NeighbourResult {
  ratio: number;
  met: boolean;
  /** The fewest requests behind one call's p95 during the load. */
  requests: number;
}

export interface Neighbour {
  baseline(): Promise<void>;
  during(): { stop(label: string): Promise<NeighbourResult> };
}

/** `count` completed card gifts of the church to its first fund (registering made it), with their lines. */
async function seedGifts(db: Db, tenantId: number, count: number) {
  const owner = ownerDb(db);
  const fund = await owner
    .selectFrom('funds')
    .select('id')
    .where('userId', '=', tenantId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await sql`
    insert into gifts (user_id, amount_cents, donor_name, method, status, completed_at, idempotency_key, receipt_token)
    select ${tenantId}, 1000 + g * 7 % 9000, 'Donor ' || g, 'card', 'completed',
           timestamptz '2025-01-01 12:00:00+00' + make_interval(days => g % 365),
           'bench-neighbour-' || g, 'bench-neighbour-receipt-' || g
    from generate_series(1, ${count}::int) g`.execute(owner);
  await sql`
    insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
    select user_id, id, ${fund.id}, amount_cents from gifts where user_id = ${tenantId}`.execute(owner);
}

interface Call {
  label: string;
  request: () => Promise<{ status: number }>;
  alone: number[];
  during: number[];
  /** With BENCH_TRACE: each timed request's start (ms after `during()` began) and its time. */
  trace: { at: number; ms: number }[];
}

export async function startNeighbour(
  url: string,
  db: Db,
  opts: {
    username?: string;
    headers?: Record<string, string>;
    gifts?: number;
    /** One request every `paceMs` at most, in the baseline and during the load alike (default PACE_MS). */
    paceMs?: number;
  } = {},
): Promise<Neighbour> {
  const paceMs = opts.paceMs ?? PACE_MS;
  const username = opts.username ?? 'neighbour';
  const client = new HttpClient(url, opts.headers);
  const id = (
    await client.post('/api/register', {
      username,
      password: 'bench-pass',
      churchName: `${username} church`,
      email: `${username}@example.org`,
    })
  ).body.id as number;
  await sql`update users set email_verified_at = now() where id = ${id}`.execute(db);
  const list = (await client.post('/api/contact-lists', { name: 'Members' })).body as { id: number };
  await seedListContacts(db, id, list.id, 2000, `${username}-`);
  if (opts.gifts) await seedGifts(db, id, opts.gifts);
  await sql`analyze contacts`.execute(ownerDb(db));
  if (opts.gifts) await sql`analyze gifts`.execute(ownerDb(db));
  const calls: Call[] = [
    {
      label: 'first page of contacts',
      request: () => client.get('/api/contacts/search?pageSize=50'),
      alone: [],
      during: [],
      trace: [],
    },
  ];
  if (opts.gifts) {
    calls.push({
      label: 'first page of gifts',
      request: () => client.get('/api/giving/gifts?page=1&pageSize=25'),
      alone: [],
      during: [],
      trace: [],
    });
  }
  return {
    async baseline() {
      for (const c of calls) c.alone = await pacedBaseline(c.request, paceMs);
    },
    during() {
      for (const c of calls) {
        c.during = [];
        c.trace = [];
      }
      let going = true;
      const t0 = performance.now();
      const probe = (async () => {
        for (let i = 0; going; i++) {
          const c = calls[i % calls.length]!;
          const at = performance.now() - t0;
          const ms = await pacedRequest(c.request, paceMs);
          c.during.push(ms);
          c.trace.push({ at, ms });
        }
      })();
      return {
        async stop(label: string) {
          going = false;
          await probe;
          const seconds = (performance.now() - t0) / 1000;
          let worst = 0;
          let requests = Infinity;
          for (const c of calls) {
            const times = c.during.sort((a, b) => a - b);
            const p95 = percentile(times, 95);
            const base = percentile(c.alone, 95);
            const ratio = p95 / base;
            worst = Math.max(worst, ratio);
            requests = Math.min(requests, times.length);
            console.log(
              `another church's ${c.label} during ${label} (${times.length} requests in ${seconds.toFixed(0)} s): ` +
                `p50 ${percentile(c.alone, 50).toFixed(1)} → ${percentile(times, 50).toFixed(1)} ms, ` +
                `p95 ${base.toFixed(1)} → ${p95.toFixed(1)} ms (${ratio.toFixed(2)}×; target ≤ 2×)`,
            );
            // Which requests were slow, and when: to line them up with what the load was doing then.
            if (process.env.BENCH_TRACE) {
              const slow = c.trace.filter((t) => t.ms > 2 * base);
              console.log(
                `  slow (> 2× idle p95): ${slow.map((t) => `${t.ms.toFixed(0)} ms at ${(t.at / 1000).toFixed(2)} s`).join(', ') || 'none'}`,
              );
            }
          }
          return { ratio: worst, met: worst <= 2, requests };
        },
      };
    },
  };
}
