/**
 * pnpm bench:eventlog — one church's event writers at once: a 100,000-contact import (the import
 * job's own function, `runContactImport`: a transaction of 1,000 rows and their 1,000
 * `contact.created` events at a time) while a campaign's opens come in (`recordOpen`, what the open
 * pixel runs: a transaction per first open, with its `email.opened`), OPENERS at a time, until the
 * import ends. Prints the events per second each of them recorded while both ran, and each open's
 * time (p50, p95, max), with the load average.
 *
 * It uses only what main already had, so the same file times the code before a change (run it in
 * a checkout of main) and after. Uses TEST_DATABASE_URL's server when set, else an embedded
 * PostgreSQL. BENCH_CONTACTS, BENCH_OPENERS and BENCH_RECIPIENTS set the sizes.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { sql } from '@lampstand/db';
import { recordOpen, runContactImport } from '@lampstand/api/server';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const OPENERS = Number(process.env.BENCH_OPENERS ?? 8);
/** The campaign's recipients: more than the opens the import leaves time for. */
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 60_000);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main(): Promise<number> {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName, { poolMax: OPENERS + 4 });
  const db = tdb.db;
  try {
    const church = await db
      .insertInto('users')
      .values({ username: 'bench-eventlog', email: 'bench@example.org', passwordHash: 'x', churchName: 'Grace' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = await db
      .insertInto('contactLists')
      .values({ userId: church.id, name: 'Everyone' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A campaign already sent to RECIPIENTS people: each delivery's token is what its pixel carries.
    const campaign = await db
      .insertInto('emailCampaigns')
      .values({ userId: church.id, name: 'Advent', subject: 'Advent', status: 'sent', sentAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { rows: tokens } = await sql<{ token: string }>`
      insert into deliveries (user_id, kind, campaign_id, channel, address, first_name, last_name, token, status, sent_at)
      select ${church.id}, 'campaign', ${campaign.id}, 'email', 'reader' || g || '@example.org', 'Reader', g::text,
        md5('open' || g) || md5('pixel' || g), 'sent', now()
      from generate_series(1, ${RECIPIENTS}) g
      returning token`.execute(db);

    const lines = ['First Name,Last Name,Email'];
    for (let i = 0; i < CONTACTS; i++) lines.push(`New,Person ${i},new${i}@example.org`);
    const csv = lines.join('\n');
    const imp = await db
      .insertInto('contactImports')
      .values({
        userId: church.id,
        fileName: 'people.csv',
        csv,
        headers: JSON.stringify(['First Name', 'Last Name', 'Email']),
        totalRows: CONTACTS,
        status: 'queued',
        mapping: JSON.stringify({ 'First Name': 'firstName', 'Last Name': 'lastName', Email: 'email' }),
        listId: list.id,
        progressAt: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`analyze`.execute(db);

    console.log(
      `one church: a ${CONTACTS.toLocaleString('en-US')}-contact import and a campaign's opens ` +
        `(${OPENERS} at a time) at once; load before: ${load()}`,
    );
    let importDone = false;
    let next = 0;
    const latencies: number[] = [];
    const t0 = performance.now();
    const opener = async () => {
      while (!importDone && next < tokens.length) {
        const token = tokens[next++]!.token;
        const s = performance.now();
        await recordOpen(db, token);
        latencies.push(performance.now() - s);
      }
    };
    const openers = Array.from({ length: OPENERS }, opener);
    await runContactImport(db, imp.id);
    const importSeconds = (performance.now() - t0) / 1000;
    importDone = true;
    await Promise.all(openers);
    const opensSeconds = (performance.now() - t0) / 1000;
    const loadAfter = load();

    const { rows } = await sql<{ type: string; n: number }>`
      select type, count(*)::int as n from events where user_id = ${church.id} group by type order by type`.execute(db);
    const count = (type: string) => rows.find((r) => r.type === type)?.n ?? 0;
    const imported = count('contact.created');
    const opened = count('email.opened');
    const done = await db
      .selectFrom('contactImports')
      .select(['status', 'error'])
      .where('id', '=', imp.id)
      .executeTakeFirstOrThrow();
    latencies.sort((a, b) => a - b);
    console.log(
      `import: ${imported.toLocaleString('en-US')} events in ${importSeconds.toFixed(1)} s: ` +
        `${(imported / importSeconds).toFixed(0)} events/s (${done.status}${done.error ? `: ${done.error}` : ''})`,
    );
    console.log(
      `opens: ${opened.toLocaleString('en-US')} events in ${opensSeconds.toFixed(1)} s: ` +
        `${(opened / opensSeconds).toFixed(0)} events/s; an open took p50 ${pct(latencies, 0.5).toFixed(1)} ms, ` +
        `p95 ${pct(latencies, 0.95).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
    );
    console.log(`together: ${((imported + opened) / opensSeconds).toFixed(0)} events/s; load after: ${loadAfter}`);
    if (next >= tokens.length)
      console.log('(the opens ran out of recipients before the import ended: raise BENCH_RECIPIENTS)');
    return done.status === 'completed' && imported === CONTACTS ? 0 : 1;
  } finally {
    await tdb.drop();
    await pgServer.stop();
  }
}

process.exit(await main());
