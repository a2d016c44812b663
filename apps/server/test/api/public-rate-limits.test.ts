import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startFakeOpenAi } from '../helpers/fake-openai.js';
import { projectPayload } from '../helpers/show-up.js';

// Limits on the public and costly endpoints, counted in PostgreSQL
// (`rate_limit_buckets`, shared by every instance): Show Up giving per address, AI copy per church
// and per address. A refusal is 429 with `Retry-After` and the usual { message, code }.

const openai = await startFakeOpenAi({ apiKey: 'sk-test-key' });
afterAll(() => openai.close());
const app = await startTestApp({
  trustProxy: 1,
  donationsPerAddressPerHour: 3,
  aiGenerationsPerHour: 4,
  aiGenerationsPerAddressPerHour: 3,
  openaiApiKey: 'sk-test-key',
  openaiBaseUrl: openai.baseURL,
  openaiModel: 'test-model',
});
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');

/** A visitor behind the trusted proxy, seen from `ip`. */
const from = (ip: string, client?: HttpClient) => {
  const c = new HttpClient(app.url, { 'x-forwarded-for': ip });
  if (client) c.cookies = client.cookies;
  return c;
};

function expectThrottled(res: { status: number; body: unknown; headers: Headers }, message: string) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ message, code: 'TOO_MANY_REQUESTS' });
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(3600);
}

describe('Show Up giving, per address', () => {
  it('starts 3 gifts an hour from one address, then 429; another address is not affected', async () => {
    const project = (await grace.client.post('/api/show-up/projects', projectPayload())).body as { id: number };
    const gift = (client: HttpClient) =>
      client.post('/api/show-up/donations/prepare', {
        projectId: project.id,
        amount: 25,
        donorName: 'Lydia',
        donorEmail: 'lydia@example.org',
        isAnonymous: false,
      });
    const visitor = from('203.0.113.10');
    const prepared = [];
    for (let i = 0; i < 3; i++) {
      const res = await gift(visitor);
      expect(res.status, res.text).toBe(200);
      prepared.push(res.body as { paymentIntentId: string; clientSecret: string });
    }
    expectThrottled(await gift(visitor), 'Too many gifts from this address. Please try again later.');
    // Completing a demo payment counts against the same bucket.
    expectThrottled(
      await visitor.post('/api/show-up/donations/demo-complete', {
        paymentIntent: prepared[0]!.paymentIntentId,
        clientSecret: prepared[0]!.clientSecret,
      }),
      'Too many gifts from this address. Please try again later.',
    );
    // tRPC answers the same status and header.
    const trpc = await visitor.post('/trpc/showUp.prepareDonation', {
      projectId: project.id,
      amount: 25,
      donorName: 'Lydia',
      donorEmail: 'lydia@example.org',
      isAnonymous: false,
    });
    expect(trpc.status).toBe(429);
    expect(Number(trpc.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = from('203.0.113.11');
    expect((await gift(other)).status).toBe(200);
    const done = await other.post('/api/show-up/donations/demo-complete', {
      paymentIntent: prepared[1]!.paymentIntentId,
      clientSecret: prepared[1]!.clientSecret,
    });
    expect(done.status, done.text).toBe(200);
  });

  it('reads gifts by payment id 30 times an hour from one address (10 per gift allowed), then 429', async () => {
    const visitor = from('203.0.113.20');
    for (let i = 0; i < 30; i++)
      expect((await visitor.get('/api/show-up/donations/by-payment/pi_unknown')).status).toBe(404);
    expectThrottled(
      await visitor.get('/api/show-up/donations/by-payment/pi_unknown'),
      'Too many requests from this address. Please try again later.',
    );
  });
});

describe('AI copy, per church and per address', () => {
  const section = { churchName: 'G', section: 'headline', context: '' };
  const answer = () => openai.reply({ kind: 'json', content: JSON.stringify({ content: 'Welcome home' }) });

  it('3 generations an hour from one address across churches, then 429 before the model is called', async () => {
    const a = await registerChurch(app.url, 'Church A');
    const b = await registerChurch(app.url, 'Church B');
    const ip = '198.51.100.7';
    for (const church of [a, a, b]) {
      answer();
      expect((await from(ip, church.client).post('/api/ai-generator/section', section)).status).toBe(200);
    }
    const calls = openai.requests.length;
    expectThrottled(
      await from(ip, b.client).post('/api/ai-generator/section', section),
      'Too many AI generations from this address. Please try again later.',
    );
    expectThrottled(
      await from(ip, a.client).post('/api/ai-generator/landing-page', {
        churchName: 'G',
        purpose: 'event',
        topic: 'Easter',
        targetAudience: 'families',
      }),
      'Too many AI generations from this address. Please try again later.',
    );
    expect(openai.requests.length).toBe(calls);
    // The same church from another address goes on.
    answer();
    expect((await from('198.51.100.8', b.client).post('/api/ai-generator/section', section)).status).toBe(200);
  });

  it('4 generations an hour per church whatever the address; counted before the call, so a burst cannot pass', async () => {
    const church = await registerChurch(app.url, 'Church C');
    for (let i = 0; i < 10; i++) answer();
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        from(`192.0.2.${i + 1}`, church.client).post('/api/ai-generator/section', section),
      ),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(4);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(4);
    for (const r of refused)
      expectThrottled(r, 'Your church has used its 4 AI generations for this hour. Please try again later.');
    expect((await from('192.0.2.99', church.client).get('/api/ai-generator/status')).body).toEqual({
      enabled: true,
      remaining: 0,
    });
  });
});

describe('registration and login answer Retry-After too', () => {
  it('a refused login carries Retry-After', async () => {
    const client = from('192.0.2.200');
    const attempt = () => client.post('/api/login', { username: grace.user.username, password: 'x'.repeat(8) });
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    expectThrottled(await attempt(), 'Too many failed login attempts. Please try again in 15 minutes.');
  });
});
