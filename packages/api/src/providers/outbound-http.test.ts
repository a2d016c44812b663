import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboundError, UNREACHABLE_MESSAGE, outboundFetch } from './outbound-http.js';

/** A receiver on loopback that counts every request it gets. */
const hits: string[] = [];
const server = http.createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  if (req.url === '/ok') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  if (req.url === '/big') return res.writeHead(200).end(Buffer.alloc(5000));
  if (req.url === '/slow') return; // never answers
  if (req.url === '/to-ok') return res.writeHead(302, { location: '/ok' }).end();
  if (req.url === '/to-private') return res.writeHead(302, { location: 'http://10.1.2.3/x' }).end();
  if (req.url === '/to-mapped')
    return res.writeHead(307, { location: `http://[::ffff:a9fe:a9fe]/latest/meta-data` }).end();
  if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  hits.length = 0;
});

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  expect((err as Error).message).toBe(UNREACHABLE_MESSAGE);
  return err as OutboundError;
}

describe('the guarded outbound client', () => {
  it('fetches from an allowed address', async () => {
    const res = await outboundFetch(`${base}/ok`, { reach: 'loopback' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello');
    expect(hits).toEqual(['GET /ok']);
  });

  it.each([
    `http://127.0.0.1:${port}/ok`,
    `http://[::ffff:127.0.0.1]:${port}/ok`,
    `http://[::ffff:7f00:1]:${port}/ok`,
    `http://[::127.0.0.1]:${port}/ok`,
    `http://2130706433:${port}/ok`,
    `http://0x7f000001:${port}/ok`,
    `http://0177.0.0.1:${port}/ok`,
    `http://localhost:${port}/ok`,
  ])('never calls a listening loopback receiver at %s', async (url) => {
    const err = await failure(outboundFetch(url, { method: 'POST', body: '{}' }));
    expect(err.failure).toBe('forbidden-address');
    expect(hits).toEqual([]);
  });

  it('follows redirects through the same check: to an allowed address yes, to a private one no', async () => {
    const ok = await outboundFetch(`${base}/to-ok`, { reach: 'loopback' });
    expect(ok.status).toBe(200);
    expect(ok.url).toBe(`${base}/ok`);
    expect((await failure(outboundFetch(`${base}/to-private`, { reach: 'loopback' }))).failure).toBe(
      'forbidden-address',
    );
    expect((await failure(outboundFetch(`${base}/to-mapped`, { reach: 'loopback' }))).failure).toBe(
      'forbidden-address',
    );
    expect((await failure(outboundFetch(`${base}/loop`, { reach: 'loopback', maxRedirects: 2 }))).failure).toBe(
      'redirects',
    );
    expect(hits).toEqual([
      'GET /to-ok',
      'GET /ok',
      'GET /to-private',
      'GET /to-mapped',
      'GET /loop',
      'GET /loop',
      'GET /loop',
    ]);
  });

  it('caps the body and the time, and keeps socket details out of the message', async () => {
    expect((await failure(outboundFetch(`${base}/big`, { reach: 'loopback', maxBytes: 1000 }))).failure).toBe(
      'too-large',
    );
    expect((await failure(outboundFetch(`${base}/slow`, { reach: 'loopback', timeoutMs: 200 }))).failure).toBe(
      'timeout',
    );
    // A closed port: the detail (for the log) says so, the message does not.
    const closed = await failure(outboundFetch('http://127.0.0.1:1/', { reach: 'loopback' }));
    expect(closed.failure).toBe('connect');
    expect(closed.detail).toMatch(/ECONNREFUSED/);
    expect((await failure(outboundFetch('file:///etc/passwd'))).failure).toBe('invalid-url');
    expect((await failure(outboundFetch('http://user:pw@example.org/'))).failure).toBe('invalid-url');
  });

  it('reaches private addresses only with reach private', async () => {
    const res = await outboundFetch(`http://[::ffff:127.0.0.1]:${port}/ok`, { reach: 'private' });
    expect(res.status).toBe(200);
  });
});
