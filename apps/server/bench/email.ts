/**
 * pnpm bench:email — a 20,000-recipient campaign through the real engine (pg-boss workers,
 * deliveries table, nodemailer over SMTP) to an SMTP sink on loopback (the `smtp-server` package).
 * Prints messages per second with no rate limit, then the highest count in any one second with
 * EMAIL_RATE_PER_SECOND=50 (on a smaller campaign, so it finishes in seconds, not minutes).
 * Uses TEST_DATABASE_URL's server when set, else an embedded PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase, startTestServer } from '@lampstand/db/testing';
import { sql } from '@lampstand/db';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server.js';
import { startRuntime } from '../src/app-deps.js';
import { HttpClient } from '../test/helpers/test-app.js';
import { BENCH_EMAIL, createCampaign, seedListContacts, sendCampaign, waitCampaign } from './lib/campaigns.js';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 20_000);
const LIMITED_RECIPIENTS = Number(process.env.BENCH_LIMITED_RECIPIENTS ?? 600);
const LIMIT = 50;

async function startSink() {
  const acceptedAt: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        acceptedAt.push(Date.now());
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}?tls=off`,
    acceptedAt,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function runCampaign(label: string, recipients: number, rate: number | undefined, concurrency: number) {
  const pgServer = await startTestServer();
  const tdb = await createTestDatabase(pgServer.serverUrl, pgServer.templateName);
  const sink = await startSink();
  const config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    port: 0,
    host: '127.0.0.1',
    databaseUrl: tdb.url,
    logLevel: 'silent',
    emailSmtpUrl: sink.url,
    emailRatePerSecond: rate,
    emailConcurrency: concurrency,
  };
  const runtime = await startRuntime(config, tdb.db, tdb.url, { work: true, pollingIntervalSeconds: 0.5 });
  const server = await createServer(config, runtime.deps);
  const url = await server.start();
  try {
    await new HttpClient(url).post('/api/register', {
      username: 'platform',
      password: 'bench-pass',
      churchName: 'Platform',
      email: 'p@example.org',
    });
    const church = new HttpClient(url);
    const tenantId = (
      await church.post('/api/register', {
        username: 'bench',
        password: 'bench-pass',
        churchName: 'Bench Church',
        email: 'b@example.org',
      })
    ).body.id as number;
    // A verified account email: new churches reach only 100 people a day until then.
    await sql`update users set email_verified_at = now() where id = ${tenantId}`.execute(tdb.db);
    const list = (await church.post('/api/contact-lists', { name: 'Everyone', type: 'email' })).body;
    await seedListContacts(tdb.db, tenantId, list.id, recipients, 'person');
    const campaign = await createCampaign(church, 'email', { name: 'Bench', ...BENCH_EMAIL, listIds: [list.id] });
    const t0 = performance.now();
    await sendCampaign(church, campaign);
    await waitCampaign(church, campaign.path, { deadlineS: 3600, pollMs: 200 });
    const seconds = (performance.now() - t0) / 1000;
    const perSecond = new Map<number, number>();
    for (const t of sink.acceptedAt)
      perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    const peak = Math.max(...perSecond.values());
    console.log(
      `${label.padEnd(36)} ${sink.acceptedAt.length.toLocaleString('en-US')} messages in ${seconds.toFixed(1)} s = ${(sink.acceptedAt.length / seconds).toFixed(0)} msg/s; ` +
        `highest in any one second: ${peak}`,
    );
    if (sink.acceptedAt.length !== recipients)
      throw new Error(`sink received ${sink.acceptedAt.length}, expected ${recipients}`);
    return { rate: sink.acceptedAt.length / seconds, peak };
  } finally {
    await server.stop();
    await runtime.close();
    await sink.close();
    await tdb.drop();
    await pgServer.stop();
  }
}

async function main() {
  const concurrency = Number(process.env.EMAIL_CONCURRENCY ?? 16);
  const free = await runCampaign(`no rate limit (${RECIPIENTS} recipients)`, RECIPIENTS, undefined, concurrency);
  const limited = await runCampaign(
    `EMAIL_RATE_PER_SECOND=${LIMIT} (${LIMITED_RECIPIENTS})`,
    LIMITED_RECIPIENTS,
    LIMIT,
    concurrency,
  );
  console.log(`\ntargets: at least 500 msg/s without a limit; never more than ${LIMIT} in one second with the limit`);
  console.log(free.rate >= 500 && limited.peak <= LIMIT ? 'all targets met' : 'TARGET MISSED');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
