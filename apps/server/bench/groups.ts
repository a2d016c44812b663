/**
 * pnpm bench:groups — groups at the size of a large church, over HTTP against the real server.
 *
 * Seeds in SQL one church with BENCH_GROUPS groups (default 500), 12 members each (the first a
 * leader), 52 weekly meetings each in 2031 with attendance (about three in four present), so
 * 26,000 meetings and ~234,000 attendance rows. Then times:
 * - `GET /api/groups/attendance` for the whole year of every group, walking its pages (5,000
 *   meetings a page) from the first to the last: the whole walk, median of 5 (target < 300 ms),
 *   and the database's part of it (the service's queries alone);
 * - the public finder page `/c/{handle}/groups` (every active group, rendered on the server):
 *   p95 of 200 requests, filters varied (target < 50 ms).
 * Prints the figures; exits 1 when a target is missed. Uses TEST_DATABASE_URL's server when set,
 * else an embedded PostgreSQL.
 */
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { churchAttendance } from '@lampstand/api/server';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient } from '../test/helpers/test-app.js';
import { percentile, timeRequests } from './lib/latency.js';

const GROUPS = Number(process.env.BENCH_GROUPS ?? 500);
const MEMBERS = 12;
const WEEKS = 52;
const WALK_TARGET_MS = 300;
const FINDER_TARGET_MS = 50;
const HANDLE = 'bench-groups';

async function seed(db: Parameters<typeof ownerDb>[0], t: number) {
  const o = ownerDb(db);
  await sql`insert into church_profiles (user_id, handle) values (${t}, ${HANDLE})`.execute(o);
  await sql`
    insert into groups (user_id, name, type, frequency, weekday, meets_at, address, area, latitude, longitude,
      tags, join_mode, capacity)
    select ${t}, 'Group ' || i, (array['Small group', 'Class', 'Team'])[1 + i % 3], 'weekly', i % 7,
      time '18:00' + (i % 4) * interval '30 minutes', i || ' Bench Street', 'Suburb ' || (i % 40),
      -33.8 - (i % 40) * 0.01, 151.2 + (i % 40) * 0.01,
      case when i % 5 = 0 then array['kid-friendly'] else '{}' end,
      (array['open', 'request', 'closed'])[1 + i % 3], case when i % 10 = 0 then 12 end
    from generate_series(1, ${GROUPS}) i`.execute(o);
  await sql`
    insert into contacts (user_id, first_name, last_name, email)
    select ${t}, 'Member', 'No ' || i, 'member' || i || '@bench.test'
    from generate_series(1, ${GROUPS * MEMBERS}) i`.execute(o);
  // Member k of group n is the church's ((n - 1) * 12 + k)th contact; the first of each leads.
  await sql`
    with g as (select id, row_number() over (order by id) as n from groups where user_id = ${t}),
    c as (select id, row_number() over (order by id) as n from contacts where user_id = ${t})
    insert into group_members (user_id, group_id, contact_id, role, joined_on)
    select ${t}, g.id, c.id, case when (c.n - 1) % ${MEMBERS} = 0 then 'leader' else 'member' end, date '2030-01-01'
    from g join c on (c.n - 1) / ${MEMBERS} = g.n - 1`.execute(o);
  await sql`
    insert into group_meetings (user_id, group_id, meets_on, meets_at, attendance_recorded_at, visitors)
    select ${t}, g.id, date '2031-01-01' + (g.weekday - 3 + 7) % 7 + 7 * w, g.meets_at, now(),
      case when w % 4 = 0 then array['A visitor'] else '{}' end
    from groups g cross join generate_series(0, ${WEEKS - 1}) w
    where g.user_id = ${t}`.execute(o);
  await sql`
    insert into group_attendance (user_id, meeting_id, contact_id)
    select ${t}, m.id, b.contact_id
    from group_meetings m join group_members b on b.group_id = m.group_id
    where m.user_id = ${t} and (m.id + b.contact_id) % 4 <> 0`.execute(o);
  // As autovacuum leaves an insert-mostly table: analysed, and its visibility map set (index-only scans).
  await sql`vacuum analyze`.execute(o);
}

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    runWorkers: false,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: false });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  try {
    const church = new HttpClient(url);
    const reg = { username: 'bench', password: 'bench-pass', churchName: 'Bench Church', email: 'b@example.org' };
    const tenantId = (await church.post('/api/register', reg)).body.id as number;
    const s0 = performance.now();
    await seed(tdb.db, tenantId);
    const counts = await sql<{ meetings: number; present: number }>`
      select (select count(*)::int from group_meetings) as meetings,
        (select count(*)::int from group_attendance) as present`.execute(ownerDb(tdb.db));
    const { meetings, present } = counts.rows[0]!;
    console.log(
      `seeded ${GROUPS} groups × ${WEEKS} meetings × ${MEMBERS} members: ${meetings.toLocaleString('en-US')} meetings, ` +
        `${present.toLocaleString('en-US')} present, in ${((performance.now() - s0) / 1000).toFixed(1)} s`,
    );

    /** The whole year of every group, page after page: the time, the pages and the meetings read. */
    const walk = async () => {
      const t0 = performance.now();
      let cursor: string | null = null;
      let pages = 0;
      let read = 0;
      do {
        const res = await church.get(
          `/api/groups/attendance?from=2031-01-01&to=2031-12-31&limit=5000${cursor ? `&cursor=${cursor}` : ''}`,
        );
        if (res.status !== 200) throw new Error(`attendance: HTTP ${res.status} ${res.text.slice(0, 200)}`);
        pages++;
        read += res.body.meetings.length;
        cursor = res.body.nextCursor;
      } while (cursor);
      return { ms: performance.now() - t0, pages, read };
    };
    await walk();
    const walks = [];
    for (let i = 0; i < 5; i++) walks.push(await walk());
    const walkMs = percentile(
      walks.map((w) => w.ms).sort((a, b) => a - b),
      50,
    );
    if (walks[0]!.read !== meetings) throw new Error(`the walk read ${walks[0]!.read} of ${meetings} meetings`);
    console.log(
      `GET /api/groups/attendance, a year of all groups: ${walks[0]!.pages} pages, ${walks[0]!.read.toLocaleString('en-US')} meetings, ` +
        `median ${walkMs.toFixed(0)} ms, max ${Math.max(...walks.map((w) => w.ms)).toFixed(0)} ms (target < ${WALK_TARGET_MS} ms)`,
    );

    // The database's part of the walk: the same pages read by the service under the church's row policy.
    const handle = tenantDb(tdb.db, tenantId);
    const sqlWalk = async () => {
      const t0 = performance.now();
      let cursor: string | undefined;
      do {
        const page = await churchAttendance(handle, tenantId, {
          from: '2031-01-01',
          to: '2031-12-31',
          cursor,
          limit: 5000,
        });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return performance.now() - t0;
    };
    await sqlWalk();
    const sqlTimes: number[] = [];
    for (let i = 0; i < 5; i++) sqlTimes.push(await sqlWalk());
    console.log(
      `  of which the database (the service's queries): median ${percentile(
        sqlTimes.sort((a, b) => a - b),
        50,
      ).toFixed(0)} ms`,
    );

    const filters = ['', '?day=2', '?type=Class', '?tag=kid-friendly', '?area=Suburb%207', '?day=5&type=Team'];
    const finder = await timeRequests('finder', { warmUp: 20, rounds: 200 }, (i) =>
      fetch(`${url}/c/${HANDLE}/groups${filters[i % filters.length]}`).then(async (r) => {
        await r.arrayBuffer();
        return r;
      }),
    );
    const finderP95 = percentile(finder, 95);
    console.log(
      `GET /c/{handle}/groups at ${GROUPS} groups: p50 ${percentile(finder, 50).toFixed(1)} ms, ` +
        `p95 ${finderP95.toFixed(1)} ms (target < ${FINDER_TARGET_MS} ms)`,
    );

    if (walkMs > WALK_TARGET_MS) {
      console.error(`FAIL: the attendance walk's median ${walkMs.toFixed(0)} ms is over ${WALK_TARGET_MS} ms`);
      process.exitCode = 1;
    }
    if (finderP95 > FINDER_TARGET_MS) {
      console.error(`FAIL: the finder's p95 ${finderP95.toFixed(1)} ms is over ${FINDER_TARGET_MS} ms`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    await runtime.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

await main();
