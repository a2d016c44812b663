import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Own file (own database: the overall bucket is spent here). Redeeming a station's pairing code is
// limited per address (10 wrong codes in 15 minutes) and over all addresses together (200), counted
// in PostgreSQL before the code is looked up; a right code gives its attempt back.
const app = await startTestApp({ trustProxy: 1 });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');

const from = (ip: string) => new HttpClient(app.url, { 'x-forwarded-for': ip });
const TOO_MANY = {
  message: 'Too many wrong pairing codes. Please wait a few minutes, then enter the code again.',
  code: 'TOO_MANY_REQUESTS',
};

async function pairingCode(name: string): Promise<string> {
  const res = await grace.client.post('/api/check-in/stations', { name, kind: 'self' });
  expect(res.status).toBe(201);
  return res.body.pairingCode as string;
}

function expectThrottled(res: { status: number; body: unknown; headers: Headers }) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(TOO_MANY);
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(15 * 60);
}

describe('pairing a station, rate-limited', () => {
  it('right codes use no allowance; 10 wrong codes from one address, then 429 (the right code too); another address pairs', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await from('203.0.113.1').post('/api/check-in/pair', { code: await pairingCode(`Ok ${i}`) });
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 10; i++) {
      const res = await from('203.0.113.1').post('/api/check-in/pair', { code: 'WRONG234' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('That pairing code is not right, or it has expired: ask staff for a new one');
    }
    const code = await pairingCode('Lobby');
    expectThrottled(await from('203.0.113.1').post('/api/check-in/pair', { code }));
    const other = await from('203.0.113.2').post('/api/check-in/pair', { code });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ name: 'Lobby', kind: 'self', paired: true });
  });

  it('200 wrong codes from many addresses together: then every address waits', async () => {
    // With the 10 of the test above, 19 addresses × 10 make 200: five addresses at a time, each
    // trying its 10 wrong codes one after another.
    const addresses = Array.from({ length: 19 }, (_, i) => `198.51.100.${i + 1}`);
    for (let batch = 0; batch < addresses.length; batch += 5) {
      const statuses = await Promise.all(
        addresses.slice(batch, batch + 5).map(async (ip) => {
          const out: number[] = [];
          for (let i = 0; i < 10; i++)
            out.push((await from(ip).post('/api/check-in/pair', { code: `WRONG${i}AB` })).status);
          return out;
        }),
      );
      expect(statuses.flat().every((s) => s === 400)).toBe(true);
    }
    expectThrottled(await from('192.0.2.77').post('/api/check-in/pair', { code: await pairingCode('Late') }));
  });
});
