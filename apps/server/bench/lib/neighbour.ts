import { performance } from 'node:perf_hooks';
import { ownerDb, sql, type Db } from '@lampstand/db';
import { HttpClient } from '../../test/helpers/test-app.js';
import { seedListContacts } from './campaigns.js';
import { percentile } from './latency.js';

/**
 * Another church, beside the one a benchmark loads ("another church's p95 ≤ 2×
 * baseline during each"): it has 2,000 contacts on a list and asks for its first page of contacts
 * (GET /api/contacts/search, 50 a page, as the Contacts screen does), ten times a second. `baseline()`
 * times it while the load has not begun; `during()` times it until `stop()`, which prints its
 * p50 and p95 against the baseline and says whether the p95 is within 2×.
 */
/**
 * One request every PACE_MS at most (10 a second): a busy person at the screen, not a flood. A
 * back-to-back loop (80 a second through the proxy) took half a core from the load it measured.
 */
export const PACE_MS = 100;
const BASELINE_REQUESTS = 150;

/** Times one request (which must answer 200), then waits out the rest of its PACE_MS. */
export async function pacedRequest(request: () => Promise<{ status: number }>): Promise<number> {
  const t = performance.now();
  const res = await request();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`another church's request: HTTP ${res.status}`);
  if (ms < PACE_MS) await new Promise((r) => setTimeout(r, PACE_MS - ms));
  return ms;
}

/** The baseline: 10 untimed requests, then BASELINE_REQUESTS paced ones; their times, sorted. */
export async function pacedBaseline(request: () => Promise<{ status: number }>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await request();
  const times: number[] = [];
  while (times.length < BASELINE_REQUESTS) times.push(await pacedRequest(request));
  return times.sort((a, b) => a - b);
}

export interface Neighbour {
  baseline(): Promise<void>;
  during(): { stop(label: string): Promise<{ ratio: number; met: boolean }> };
}

export async function startNeighbour(
  url: string,
  db: Db,
  opts: { username?: string; headers?: Record<string, string> } = {},
): Promise<Neighbour> {
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
  await sql`analyze contacts`.execute(ownerDb(db));
  const firstPage = () => client.get('/api/contacts/search?pageSize=50');
  let alone: number[] = [];
  return {
    async baseline() {
      alone = await pacedBaseline(firstPage);
    },
    during() {
      const times: number[] = [];
      let going = true;
      const t0 = performance.now();
      const probe = (async () => {
        while (going) times.push(await pacedRequest(firstPage));
      })();
      return {
        async stop(label: string) {
          going = false;
          await probe;
          const seconds = (performance.now() - t0) / 1000;
          times.sort((a, b) => a - b);
          const p95 = percentile(times, 95);
          const base = percentile(alone, 95);
          const ratio = p95 / base;
          console.log(
            `another church's first page of contacts during ${label} (${times.length} requests in ${seconds.toFixed(0)} s): ` +
              `p50 ${percentile(alone, 50).toFixed(1)} → ${percentile(times, 50).toFixed(1)} ms, ` +
              `p95 ${base.toFixed(1)} → ${p95.toFixed(1)} ms (${ratio.toFixed(2)}×; target ≤ 2×)`,
          );
          return { ratio, met: ratio <= 2 };
        },
      };
    },
  };
}
