/**
 * pnpm bench:activity — a person's Activity tab stays fast on a long story.
 *
 * Seeds one church with BENCH_EVENTS events (default 200,000) spread over 2,000 contacts, and one
 * contact with 5,000 of its own, in INSERT … SELECT over generate_series; then times the timeline's
 * query as the church's own handle (row-level security on, as a request runs it): the first page,
 * a page deep in the story (the 150th), and the first page filtered to gifts. Prints p50/p95/max
 * of 200 rounds each; exits 1 when a p95 is over 200 ms.
 *
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import { ownerDb, sql, tenantDb } from '@lampstand/db';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { contactActivity } from '@lampstand/api/server';
import { percentile, timeRequests } from './lib/latency.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const OWN = 5_000;
const TARGET_P95_MS = 200;

async function main() {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const db = tdb.db;
  try {
    const church = await db
      .insertInto('users')
      .values({ username: 'bench-activity', passwordHash: 'x', churchName: 'Bench Church', email: 'b@x.test' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      insert into contacts (user_id, first_name, last_name, email)
      select ${church.id}, 'Person', i::text, 'p' || i || '@x.test' from generate_series(1, 2000) i`.execute(db);
    const [first] = await db.selectFrom('contacts').select('id').orderBy('id').limit(1).execute();
    const contactId = first!.id;
    const t0 = performance.now();
    const types = ['email.opened', 'email.sent', 'donation.succeeded', 'signup.received', 'list.member_added'];
    await sql`
      insert into events (user_id, type, contact_id, actor_kind, payload)
      select ${church.id}, (${sql.val(types)}::text[])[1 + i % 5],
        (select min(id) from contacts) + 1 + (i % 1999), 'system',
        jsonb_build_object('person', jsonb_build_object('name', 'Person'), 'campaign', jsonb_build_object('id', 1, 'name', 'News'), 'deliveryId', i)
      from generate_series(1, ${EVENTS - OWN}) i`.execute(db);
    await sql`
      insert into events (user_id, type, contact_id, actor_kind, payload)
      select ${church.id}, (${sql.val(types)}::text[])[1 + i % 5], ${contactId}, 'system',
        jsonb_build_object('person', jsonb_build_object('name', 'Person 1'), 'campaign', jsonb_build_object('id', 1, 'name', 'News'), 'deliveryId', i)
      from generate_series(1, ${OWN}) i`.execute(db);
    await sql`analyze events`.execute(ownerDb(db));
    console.log(
      `Seeded ${EVENTS.toLocaleString('en')} events (${OWN.toLocaleString('en')} on one contact) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const handle = tenantDb(db, church.id);
    // The 150th page's cursor: the id 149 pages of 25 in.
    const ids = await handle
      .selectFrom('events')
      .select('id')
      .where('contactId', '=', contactId)
      .orderBy('id', 'desc')
      .offset(149 * 25)
      .limit(1)
      .executeTakeFirstOrThrow();
    const cases = {
      'first page (25 newest)': () => contactActivity(handle, church.id, { contactId, limit: 25 }),
      '150th page (cursor)': () => contactActivity(handle, church.id, { contactId, cursor: ids.id + 1, limit: 25 }),
      'first page, gifts only': () => contactActivity(handle, church.id, { contactId, kinds: ['donation'], limit: 25 }),
    };
    let failed = false;
    console.log(`\nA contact's timeline, as the church's handle (${OWN.toLocaleString('en')} events of theirs):`);
    for (const [label, run] of Object.entries(cases)) {
      const times = await timeRequests(label, { warmUp: 20, rounds: 200 }, run);
      const p95 = percentile(times, 95);
      if (p95 > TARGET_P95_MS) failed = true;
      console.log(
        `  ${label.padEnd(26)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms`,
      );
    }
    console.log(failed ? `\nFAIL: a p95 is over ${TARGET_P95_MS} ms` : `\nOK: every p95 under ${TARGET_P95_MS} ms`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await tdb.drop();
    await pgServer.stop();
  }
}

await main();
