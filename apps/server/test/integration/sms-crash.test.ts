import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SID = 'AC00000000000000000000000000000009';
const TOKEN = 'crash-token';
// After 15 accepted texts the fake Twilio holds every further request: the worker dies with
// requests in flight that Twilio never accepted.
const twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, pauseAfter: 15 });
const app = await startTestApp({ runWorkers: false });
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await twilio.close();
});

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: app.databaseUrl,
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM_NUMBER: '+61400999000',
      TWILIO_API_BASE_URL: twilio.url,
      SMS_CONCURRENCY: '3',
      DELIVERY_CLAIM_LEASE_SECONDS: '4',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

describe('SMS: exactly once across a crash', () => {
  it('a worker killed mid-campaign and a new one started text every number, none twice', async () => {
    const church = await registerChurch(app.url, 'Crash Church');
    const list = (await church.client.post('/api/contact-lists', { name: 'Everyone', type: 'sms' })).body;
    const N = 40;
    for (let i = 0; i < N; i++) {
      const c = (
        await church.client.post('/api/contacts', {
          firstName: `P${i}`,
          lastName: 'X',
          email: `p${i}@example.org`,
          phone: `0412 ${String(100000 + i)}`,
        })
      ).body;
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    const campaign = (
      await church.client.post('/api/sms-campaigns', {
        name: 'Crash',
        content: 'Hi {{firstName}}',
        status: 'ready',
        listIds: [list.id],
      })
    ).body;
    expect((await church.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(200);

    const first = startWorker();
    for (let i = 0; i < 600 && twilio.requests.length < 15; i++) await new Promise((r) => setTimeout(r, 50));
    // Kill once the worker has recorded every text Twilio accepted.
    for (let i = 0; i < 300; i++) {
      const sent = await app.db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      if (Number(sent.n) === 15) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(twilio.requests.length).toBe(15);
    // Let the fake Twilio see the dead worker's connections close before it answers the held
    // requests: they were never accepted, and must not be counted.
    await new Promise((r) => setTimeout(r, 500));
    twilio.resume();

    startWorker();
    const start = Date.now();
    for (;;) {
      const c = (await church.client.get(`/api/sms-campaigns/${campaign.id}`)).body;
      if (c.status === 'sent') break;
      if (Date.now() - start > 60_000) throw new Error(`still ${c.status}: ${JSON.stringify(c.progress)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const counts = new Map<string, number>();
    for (const r of twilio.requests) counts.set(r.To, (counts.get(r.To) ?? 0) + 1);
    expect(counts.size).toBe(N);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }, 120_000);
});
