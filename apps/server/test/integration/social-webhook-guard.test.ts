import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// SOCIAL_WEBHOOK_ALLOW_PRIVATE is off here (as in production): a church's webhook may only call
// public addresses, in whatever spelling the address is written.
const app = await startTestApp({ publicUrl: 'http://lampstand.test' }, { retryBaseSeconds: 1, maxAttempts: 3 });
await registerChurch(app.url, 'Platform');

/** A real receiver listening on loopback: it must never be called. */
const receiver = await startWebhookReceiver();
afterAll(() => receiver.close());
const port = new URL(receiver.url).port;

/** The post once its publishing is over (posted or failed). */
async function waitForOutcome(client: HttpClient, id: number, ms = 20_000) {
  const start = Date.now();
  for (;;) {
    const p = (await client.get(`/api/social-posts/${id}`)).body;
    if (p.status !== 'scheduled') return p;
    if (Date.now() - start > ms) throw new Error(`post ${id} is ${p.status} (${p.error})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('The social webhook guard', () => {
  it('refuses private hosts in every spelling when the webhook is saved (400 naming the field)', async () => {
    const church = await registerChurch(app.url, 'Saving Church');
    for (const webhookUrl of [
      `http://[::ffff:127.0.0.1]:${port}/x`,
      `http://[::ffff:7f00:1]:${port}/x`,
      'http://[::ffff:169.254.169.254]/latest/meta-data',
      'http://169.254.169.254/latest/meta-data',
      `http://2130706433:${port}/`,
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a00:1::]/',
      'http://10.0.0.1/hook',
      'http://localhost/hook',
    ]) {
      const res = await church.client.put('/api/social-settings', { webhookUrl });
      expect(res.status, webhookUrl).toBe(400);
      expect(res.body.message, webhookUrl).toBe(
        'Webhook URL must be a public address, not a private, local or reserved network address',
      );
      expect(res.body.issues[0].path, webhookUrl).toBe('webhookUrl');
    }
    expect((await church.client.get('/api/social-settings')).body.webhookUrl).toBeNull();
    const ok = await church.client.put('/api/social-settings', { webhookUrl: 'https://hooks.example.org/lampstand' });
    expect(ok.status).toBe(200);
  });

  it('never calls a loopback receiver behind [::ffff:127.0.0.1], and stores only the generic reason', async () => {
    for (const webhookUrl of [`http://[::ffff:127.0.0.1]:${port}/`, `http://[::ffff:169.254.169.254]:${port}/`]) {
      const church = await registerChurch(app.url, `Stored ${webhookUrl}`);
      // Saved before the save-time check existed: put it in place directly.
      const secret = (await church.client.put('/api/social-settings', { webhookUrl: 'https://hooks.example.org/x' }))
        .body.webhookSecret as string;
      receiver.trust(secret);
      await app.db.updateTable('socialSettings').set({ webhookUrl }).where('userId', '=', church.user.id).execute();
      const created = (
        await church.client.post('/api/social-posts', {
          content: 'Harvest supper',
          scheduledFor: new Date(Date.now() + 300).toISOString(),
          platforms: ['facebook'],
        })
      ).body;
      const failed = await waitForOutcome(church.client, created.id);
      expect(failed.status).toBe('failed');
      expect(failed.error).toBe('The address could not be reached');
      // Refused before connecting: one try, never retried.
      expect(failed.attempts).toBe(1);
    }
    expect(receiver.all).toEqual([]);
    expect(receiver.badSignatures).toBe(0);
  });
});
