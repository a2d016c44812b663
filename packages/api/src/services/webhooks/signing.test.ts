import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, verifyWebhook, webhookHeaders } from './signing.js';

// The test vector of the Standard Webhooks reference libraries (libraries/go/webhook_test.go).
const KEY = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MSG = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' };

describe('Standard Webhooks signatures', () => {
  it('signs as the reference libraries do', () => {
    expect(signWebhook(KEY, MSG)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('a new secret is whsec_ and 32 key bytes in base64', () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
  });

  it('signs with every secret, space-separated; a receiver with either verifies', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const now = 1_700_000_000;
    const h = webhookHeaders([a, b], { id: 'msg_1', timestamp: now, body: '{}' });
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    const given = { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] };
    expect(verifyWebhook(a, given, '{}', { now: now * 1000 })).toBe(true);
    expect(verifyWebhook(b, given, '{}', { now: now * 1000 })).toBe(true);
    expect(verifyWebhook(newWebhookSecret(), given, '{}', { now: now * 1000 })).toBe(false);
    // A changed body, or a timestamp out of tolerance, fails.
    expect(verifyWebhook(a, given, '{ }', { now: now * 1000 })).toBe(false);
    expect(verifyWebhook(a, given, '{}', { now: (now + 301) * 1000 })).toBe(false);
  });
});
