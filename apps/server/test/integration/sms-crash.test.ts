import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeTwilio } from '../helpers/fake-twilio.js';
import {
  countsBy,
  listOfContacts,
  waitForCampaignSent,
  waitForSentDeliveries,
  workerProcesses,
} from '../helpers/worker-crash.js';

const SID = 'AC00000000000000000000000000000009';
const TOKEN = 'crash-token';
// After 15 accepted texts the fake Twilio holds every further request: the worker dies with
// requests in flight that Twilio never accepted.
const twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN, pauseAfter: 15 });
const app = await startTestApp({ runWorkers: false });
const workers = workerProcesses(app.databaseUrl, {
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: TOKEN,
  TWILIO_FROM_NUMBER: '+61400999000',
  TWILIO_API_BASE_URL: twilio.url,
  SMS_CONCURRENCY: '3',
  DELIVERY_CLAIM_LEASE_SECONDS: '4',
});
afterAll(() => twilio.close());

describe('SMS: exactly once across a crash', () => {
  it('a worker killed mid-campaign and a new one started text every number, none twice', async () => {
    const church = await registerChurch(app.url, 'Crash Church');
    const N = 40;
    const list = await listOfContacts(church.client, {
      list: { name: 'Everyone', type: 'sms' },
      count: N,
      contact: (i) => ({
        firstName: `P${i}`,
        lastName: 'X',
        email: `p${i}@example.org`,
        phone: `0412 ${String(100000 + i)}`,
      }),
    });
    const campaign = (
      await church.client.post('/api/sms-campaigns', {
        name: 'Crash',
        content: 'Hi {{firstName}}',
        status: 'ready',
        listIds: [list.id],
      })
    ).body;
    expect((await church.client.post(`/api/sms-campaigns/${campaign.id}/send`)).status).toBe(200);

    const first = workers.start();
    for (let i = 0; i < 600 && twilio.requests.length < 15; i++) await new Promise((r) => setTimeout(r, 50));
    // Kill once the worker has recorded every text Twilio accepted.
    await waitForSentDeliveries(app.db, 15);
    await workers.kill(first);
    expect(twilio.requests.length).toBe(15);
    // Let the fake Twilio see the dead worker's connections close before it answers the held
    // requests: they were never accepted, and must not be counted.
    await new Promise((r) => setTimeout(r, 500));
    twilio.resume();

    workers.start();
    await waitForCampaignSent(church.client, `/api/sms-campaigns/${campaign.id}`);
    const counts = countsBy(twilio.requests, (r) => r.To);
    expect(counts.size).toBe(N);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }, 120_000);
});
