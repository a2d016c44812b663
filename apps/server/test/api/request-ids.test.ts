import { describe, expect, it } from 'vitest';
import { HttpClient, startTestApp } from '../helpers/test-app.js';

// Every answer names its request id (as every log line of that request does).
const app = await startTestApp();

describe('request ids', () => {
  it('each answer has an X-Request-Id, a new one per request', async () => {
    const a = await new HttpClient(app.url).get('/api/user');
    const b = await new HttpClient(app.url).get('/api/user');
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('a sane incoming X-Request-Id is kept; a hostile one is replaced', async () => {
    const kept = await new HttpClient(app.url, { 'x-request-id': 'lb-1234.abc' }).get('/healthz');
    expect(kept.headers.get('x-request-id')).toBe('lb-1234.abc');
    const replaced = await new HttpClient(app.url, { 'x-request-id': 'a b<script>' }).get('/healthz');
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

it('the logger configuration (redaction of credentials) is valid when logging is on', async () => {
  const logging = await startTestApp({ logLevel: 'fatal' });
  expect((await new HttpClient(logging.url).get('/healthz')).status).toBe(200);
});
