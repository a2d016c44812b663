import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { createOutboxTransport } from '../../providers/email.js';
import { createWebhook } from './endpoints.js';
import { sendTestWebhook } from './deliveries.js';
import { defaultSenderOptions } from './sender.js';
import { startBackground } from '../background/runner.js';
import { webhookWork } from './worker.js';

// A worker never sends one delivery twice itself. With a lease that has always run
// out (0 s: the condition a slow try on a loaded machine reaches), the worker's own next claims
// must not take back the try it still has in flight.
const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

const tries: string[] = [];
let answer = () => {};
const firstAnswered = new Promise<void>((r) => (answer = r));
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    tries.push(String(req.headers['webhook-id']));
    // The first try hangs until the test lets it answer.
    void (tries.length === 1 ? firstAnswered : Promise.resolve()).then(() => res.end('ok'));
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
afterAll(() => new Promise((r) => receiver.close(r)));
const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const until = async (check: () => Promise<boolean> | boolean) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
};

describe('the webhook worker', () => {
  it('does not claim back a try it has in flight when its lease ran out (one try, not two)', async () => {
    const hook = await createWebhook({ db, policy: { allowHttp: true, reach: 'loopback' } }, church.id, {
      url,
      eventTypes: null,
      description: null,
    });
    // The delivery written straight away (a test event): this test is about the worker's claim, not
    // the event log (log.test.ts and the dispatcher's tests cover the way there).
    await sendTestWebhook(db, church.id, { id: hook.id });
    const runner = startBackground([
      webhookWork(
        {
          db,
          email: createOutboxTransport(db),
          emailFrom: 'Lampstand <no-reply@localhost>',
          publicUrl: 'http://localhost',
        },
        { ...defaultSenderOptions(), reach: 'loopback', leaseSeconds: 0, concurrency: 4, sweepMs: 5 },
      ),
    ]);
    try {
      await until(() => tries.length > 0);
      // The worker looks for due deliveries again and again while the try is in flight.
      for (let i = 0; i < 30; i++) {
        runner.wake('webhooks', 'deliveries');
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(tries).toHaveLength(1);
      answer();
      await until(async () => {
        const d = await db.selectFrom('webhookDeliveries').select('status').executeTakeFirst();
        return d?.status === 'delivered';
      });
    } finally {
      answer();
      await runner.stop();
    }
    expect(tries).toHaveLength(1);
    const d = await db.selectFrom('webhookDeliveries').select(['attempts', 'status']).executeTakeFirstOrThrow();
    expect(d).toEqual({ attempts: 1, status: 'delivered' });
  });
});
