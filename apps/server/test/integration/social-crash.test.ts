import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { countsBy, workerProcesses } from '../helpers/worker-crash.js';

const receiver = await startWebhookReceiver();
// The web process queues jobs but works on none: only the worker processes below publish. Both
// let webhooks reach the loopback receiver (saved by the web process, called by the workers).
const app = await startTestApp({ runWorkers: false, socialWebhookAllowPrivate: true });
const workers = workerProcesses(app.databaseUrl, {
  DELIVERY_CLAIM_LEASE_SECONDS: '4',
  DELIVERY_RETRY_BASE_SECONDS: '1',
  SOCIAL_WEBHOOK_ALLOW_PRIVATE: 'true',
});
afterAll(() => receiver.close());

async function waitForPosted(client: HttpClient, ids: number[]) {
  const start = Date.now();
  for (;;) {
    const posts = (await client.get('/api/social-posts')).body as { id: number; status: string }[];
    const open = posts.filter((p) => ids.includes(p.id) && p.status !== 'posted');
    if (open.length === 0) return;
    if (Date.now() - start > 60_000) throw new Error(`still open: ${JSON.stringify(open)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const church = await registerChurch(app.url, 'Crash Church');
const settings = await church.client.put('/api/social-settings', { webhookUrl: receiver.url });
receiver.trust(settings.body.webhookSecret);

describe('Social posts: published exactly once', () => {
  it('a worker killed mid-publish, and a new one started: the post goes out once', async () => {
    const created = (
      await church.client.post('/api/social-posts', {
        content: 'Crash: Good Friday service',
        scheduledFor: new Date(Date.now() + 1000).toISOString(),
        platforms: ['facebook'],
      })
    ).body;
    // The receiver holds the request: the worker dies while the publish is in flight.
    receiver.hold();
    const first = workers.start();
    await receiver.arrived(1);
    await workers.kill(first);
    // Let the receiver see the dead worker's connection close before it answers: not accepted.
    await new Promise((r) => setTimeout(r, 500));
    receiver.resume();
    expect(receiver.accepted).toHaveLength(0);

    workers.start();
    await waitForPosted(church.client, [created.id]);
    const mine = receiver.accepted.filter((r) => r.body.post.id === created.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body.attempt).toBe(2);
    // Both tries carried the same idempotency key, for receivers that dedupe.
    const keys = new Set(receiver.all.filter((r) => r.body.post.id === created.id).map((r) => r.body.idempotencyKey));
    expect(keys.size).toBe(1);
  }, 120_000);

  it('three workers share twenty due posts: each is published exactly once', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const p = await church.client.post('/api/social-posts', {
        content: `Many: post ${i}`,
        scheduledFor: at,
        platforms: ['twitter'],
      });
      ids.push(p.body.id);
    }
    workers.start();
    workers.start();
    await waitForPosted(church.client, ids);
    // Give any duplicate a moment to land before counting.
    await new Promise((r) => setTimeout(r, 1000));
    const counts = countsBy(
      receiver.accepted.filter((r) => ids.includes(Number(r.body.post.id))),
      (r) => Number(r.body.post.id),
    );
    expect(counts.size).toBe(20);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }, 120_000);
});
