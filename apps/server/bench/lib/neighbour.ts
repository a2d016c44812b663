import { performance } from 'node:perf_hooks';
import { sql, type Db } from '@lampstand/db';
import { HttpClient } from '../../test/helpers/test-app.js';
import { seedListContacts } from './campaigns.js';
import { percentile, timeRequests } from './latency.js';

/**
 * Another church, beside the one a benchmark loads (issue 33 §4: "another church's p95 ≤ 2×
 * baseline during each"): it has 2,000 contacts on a list and asks for its first page of contacts
 * (GET /api/contacts/search, 50 a page, as the Contacts screen does), back to back. `baseline()`
 * times it while the load has not begun; `during()` times it until `stop()`, which prints its
 * p50 and p95 against the baseline and says whether the p95 is within 2×.
 */
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
  await sql`analyze contacts`.execute(db);
  const firstPage = () => client.get('/api/contacts/search?pageSize=50');
  let alone: number[] = [];
  return {
    async baseline() {
      alone = await timeRequests('baseline', { warmUp: 20, rounds: 200 }, firstPage);
    },
    during() {
      const times: number[] = [];
      let going = true;
      const t0 = performance.now();
      const probe = (async () => {
        while (going) times.push(...(await timeRequests('during', { warmUp: 0, rounds: 10 }, firstPage)));
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
