/**
 * pnpm bench:schedule — an auto-schedule proposal for a season.
 *
 * Seeds one church with BENCH_MEMBERS members (default 200), 10 positions (each member qualified
 * for 1–3), 52 weekly plans, a blockout for one member in five, a monthly limit for one in four,
 * and a quarter of history (the last 13 Sundays served); then times the proposal for all 52 plans
 * × 10 positions as the church's own handle (row-level security on, as a request runs it), the
 * database reads included. Prints p50/max of 10 rounds; exits 1 when the median is over 2 s.
 *
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { proposeScheduleFor } from '@lampstand/api/server';
import { percentile } from './lib/latency.js';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200);
const PLANS = 52;
const POSITIONS = 10;
const TARGET_MS = 2000;

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = tdb.db;
  try {
    const church = await db
      .insertInto('users')
      .values({ username: 'bench-schedule', passwordHash: 'x', churchName: 'Bench Church', email: 'b@x.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const t = church.id;
    await sql`insert into team_positions (user_id, name) select ${t}, 'Position ' || i from generate_series(1, ${POSITIONS}) i`.execute(
      db,
    );
    await sql`
      insert into team_members (user_id, name, email, max_per_month)
      select ${t}, 'Member ' || i, 'm' || i || '@x.test', case when i % 4 = 0 then 2 end
      from generate_series(1, ${MEMBERS}) i`.execute(db);
    const positions = await db.selectFrom('teamPositions').select('id').where('userId', '=', t).orderBy('id').execute();
    const members = await db.selectFrom('teamMembers').select('id').where('userId', '=', t).orderBy('id').execute();
    await db
      .insertInto('teamMemberPositions')
      .values(
        members.flatMap((m, i) =>
          Array.from({ length: 1 + (i % 3) }, (_, k) => ({
            teamMemberId: m.id,
            positionId: positions[(i + k * 3) % POSITIONS]!.id,
          })),
        ),
      )
      .execute();
    // 52 Sundays from 2031-01-05, and 13 before them already served.
    await sql`
      insert into service_plans (user_id, title, date)
      select ${t}, 'Sunday', date '2031-01-05' + 7 * i from generate_series(-13, ${PLANS - 1}) i`.execute(db);
    const plans = await db
      .selectFrom('servicePlans')
      .select(['id', 'date'])
      .where('userId', '=', t)
      .orderBy('date')
      .execute();
    const past = plans.slice(0, 13);
    const season = plans.slice(13);
    await db
      .insertInto('servicePlanAssignments')
      .values(
        past.flatMap((p, w) =>
          positions.map((pos, k) => ({
            userId: t,
            servicePlanId: p.id,
            teamMemberId: members[(w * POSITIONS + k) % members.length]!.id,
            positionId: pos.id,
            status: 'confirmed' as const,
            token: `bench-${p.id}-${k}`,
          })),
        ),
      )
      .execute();
    await db
      .insertInto('teamMemberBlockouts')
      .values(
        members
          .filter((_, i) => i % 5 === 0)
          .map((m, i) => ({
            userId: t,
            teamMemberId: m.id,
            startsOn: season[(i * 7) % season.length]!.date,
            endsOn: season[Math.min(season.length - 1, ((i * 7) % season.length) + 2)]!.date,
          })),
      )
      .execute();
    await sql`analyze`.execute(ownerDb(db));

    const handle = tenantDb(db, t);
    const input = { planIds: season.map((p) => p.id), positionIds: positions.map((p) => p.id) };
    const times: number[] = [];
    let filled = 0;
    let unfilled = 0;
    for (let round = 0; round < 10; round++) {
      const t0 = performance.now();
      const proposal = await proposeScheduleFor(handle, t, input);
      times.push(performance.now() - t0);
      filled = proposal.assignments.length;
      unfilled = proposal.unfilled.length;
    }
    const p50 = percentile(
      [...times].sort((a, b) => a - b),
      50,
    );
    const max = Math.max(...times);
    console.log(
      `Proposal for ${PLANS} plans × ${POSITIONS} positions × ${MEMBERS} members: ${filled} filled, ${unfilled} unfilled`,
    );
    console.log(`  p50 ${p50.toFixed(0)} ms, max ${max.toFixed(0)} ms (target < ${TARGET_MS} ms)`);
    if (p50 > TARGET_MS) {
      console.error(`FAIL: the proposal's median ${p50.toFixed(0)} ms is over ${TARGET_MS} ms`);
      process.exitCode = 1;
    }
  } finally {
    await tdb.drop();
    await pgServer.stop();
  }
}

await main();
