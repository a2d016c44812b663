import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// After 20 accepted messages the sink holds every further reply: the worker is then killed while
// its messages wait for the server's 250, none of them accepted. (A crash in the instant between
// the server's 250 and the worker recording it would resend that one message: SMTP cannot close
// that window; it is what the stable Message-ID per delivery is for.)
const sink = await startSmtpSink({ replyDelayMs: 20, pauseAfter: 20 });
const app = await startTestApp({ runWorkers: false, emailSmtpUrl: sink.url });
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await sink.close();
});

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: app.databaseUrl,
      EMAIL_SMTP_URL: sink.url,
      EMAIL_CONCURRENCY: '3',
      DELIVERY_CLAIM_LEASE_SECONDS: '4',
      PUBLIC_URL: 'http://lampstand.test',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

describe('exactly once across a crash', () => {
  it('a worker killed mid-campaign and a new one started deliver to every recipient, none twice', async () => {
    const church = await registerChurch(app.url, 'Crash Church');
    const list = (await church.client.post('/api/contact-lists', { name: 'Everyone' })).body;
    const RECIPIENTS = 80;
    for (let i = 0; i < RECIPIENTS; i++) {
      const c = (
        await church.client.post('/api/contacts', {
          firstName: `P${i}`,
          lastName: 'X',
          email: `p${i}@example.org`,
          phone: '0412345678',
        })
      ).body;
      await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
    }
    const campaign = (
      await church.client.post('/api/email-campaigns', {
        name: 'Crash test',
        subject: 'Hi {{firstName}}',
        content: '<p>Hello</p>',
        listIds: [list.id],
      })
    ).body;
    expect((await church.client.post(`/api/email-campaigns/${campaign.id}/send`)).status).toBe(200);

    const first = startWorker();
    await sink.waitFor(20, 30_000);
    // Kill only once the worker has recorded every message the server accepted (all 250s read).
    for (let i = 0; i < 300; i++) {
      const sent = await app.db
        .selectFrom('deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      if (Number(sent.n) === 20) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(sink.messages.length).toBe(20);
    const stuck = await app.db.selectFrom('deliveries').select('id').where('status', '=', 'sending').execute();
    expect(stuck.length).toBeGreaterThan(0); // in flight when it died
    await new Promise((r) => setTimeout(r, 500)); // the sink sees the dead worker's connections close
    sink.resume();
    const mid = (await church.client.get(`/api/email-campaigns/${campaign.id}`)).body;
    expect(mid.status).toBe('sending');

    startWorker();
    const start = Date.now();
    for (;;) {
      const c = (await church.client.get(`/api/email-campaigns/${campaign.id}`)).body;
      if (c.status === 'sent') break;
      if (Date.now() - start > 60_000) throw new Error(`still ${c.status}: ${JSON.stringify(c.progress)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const counts = sink.counts();
    expect(counts.size).toBe(RECIPIENTS);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    const stats = (await church.client.get(`/api/email/campaigns/${campaign.id}/stats`)).body;
    expect(stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, bounced: 0 });
  }, 120_000);
});
