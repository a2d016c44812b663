import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import {
  listOfContacts,
  waitForCampaignSent,
  waitForSentDeliveries,
  workerProcesses,
} from '../helpers/worker-crash.js';

// After 20 accepted messages the sink holds every further reply: the worker is then killed while
// its messages wait for the server's 250, none of them accepted. (A crash in the instant between
// the server's 250 and the worker recording it would resend that one message: SMTP cannot close
// that window; it is what the stable Message-ID per delivery is for.)
const sink = await startSmtpSink({ replyDelayMs: 20, pauseAfter: 20, ignoreTo: /^office_/ });
const app = await startTestApp({ runWorkers: false, emailSmtpUrl: sink.url });
const workers = workerProcesses(app.databaseUrl, {
  EMAIL_SMTP_URL: sink.url,
  EMAIL_CONCURRENCY: '3',
  DELIVERY_CLAIM_LEASE_SECONDS: '4',
  PUBLIC_URL: 'http://lampstand.test',
});
afterAll(() => sink.close());

describe('exactly once across a crash', () => {
  it('a worker killed mid-campaign and a new one started deliver to every recipient, none twice', async () => {
    const church = await registerChurch(app.url, 'Crash Church');
    const RECIPIENTS = 80;
    const list = await listOfContacts(church.client, {
      list: { name: 'Everyone' },
      count: RECIPIENTS,
      contact: (i) => ({ firstName: `P${i}`, lastName: 'X', email: `p${i}@example.org`, phone: '0412345678' }),
    });
    const campaign = (
      await church.client.post('/api/email-campaigns', {
        name: 'Crash test',
        subject: 'Hi {{firstName}}',
        content: '<p>Hello</p>',
        listIds: [list.id],
      })
    ).body;
    expect((await church.client.post(`/api/email-campaigns/${campaign.id}/send`)).status).toBe(200);

    const first = workers.start();
    await sink.waitFor(20, 30_000);
    // Kill only once the worker has recorded every message the server accepted (all 250s read).
    await waitForSentDeliveries(app.db, 20);
    await workers.kill(first);
    expect(sink.messages.length).toBe(20);
    const stuck = await app.db.selectFrom('deliveries').select('id').where('status', '=', 'sending').execute();
    expect(stuck.length).toBeGreaterThan(0); // in flight when it died
    await new Promise((r) => setTimeout(r, 500)); // the sink sees the dead worker's connections close
    sink.resume();
    const mid = (await church.client.get(`/api/email-campaigns/${campaign.id}`)).body;
    expect(mid.status).toBe('sending');

    workers.start();
    await waitForCampaignSent(church.client, `/api/email-campaigns/${campaign.id}`);
    const counts = sink.counts();
    expect(counts.size).toBe(RECIPIENTS);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    const stats = (await church.client.get(`/api/email/campaigns/${campaign.id}/stats`)).body;
    expect(stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, bounced: 0 });
  }, 120_000);
});
