import { describe, expect, it, vi } from 'vitest';
import { HttpClient, startTestApp } from '../helpers/test-app.js';
import { UNTRUSTED_PROXY_WARNING } from '../../src/security/proxy-warning.js';

// Behind a proxy without TRUST_PROXY, every visitor looks like the proxy to the
// throttles; the server says so once in its log, not on every request.
const proxied = (url: string) => new HttpClient(url, { 'x-forwarded-for': '203.0.113.7' });

/** The warnings the server's logger is given while `run` runs. */
async function warningsDuring(app: Awaited<ReturnType<typeof startTestApp>>, run: () => Promise<void>) {
  const warn = vi.spyOn(app.server.app.log, 'warn');
  try {
    await run();
    return warn.mock.calls.map((args) => args.find((a) => typeof a === 'string'));
  } finally {
    warn.mockRestore();
  }
}

describe('the TRUST_PROXY warning', () => {
  it('is logged once, at the first request with X-Forwarded-For, while TRUST_PROXY is unset', async () => {
    const app = await startTestApp();
    const messages = await warningsDuring(app, async () => {
      expect((await new HttpClient(app.url).get('/healthz')).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await proxied(app.url).get('/healthz')).status).toBe(200);
      expect((await proxied(app.url).get('/api/user')).status).toBe(401);
    });
    expect(messages).toEqual([UNTRUSTED_PROXY_WARNING]);
    expect(UNTRUSTED_PROXY_WARNING).toMatch(/TRUST_PROXY/);
    expect(UNTRUSTED_PROXY_WARNING).toMatch(/throttling/);
  });

  it('is not logged when TRUST_PROXY is set', async () => {
    const app = await startTestApp({ trustProxy: 1 });
    const messages = await warningsDuring(app, async () => {
      for (let i = 0; i < 2; i++) expect((await proxied(app.url).get('/healthz')).status).toBe(200);
    });
    expect(messages).toEqual([]);
  });
});
