import net from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import '../../src/security/route-config.js';
import { registerBodyLimits } from '../../src/security/body-limits.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Request bodies: 1 MiB unless the route says more, multipart only where a route opts in,
// a body that takes too long is cut off.
const app = await startTestApp({ bodyTimeoutMs: 1500 });
const church = await registerChurch(app.url, 'Grace Church');
const { port } = new URL(app.url);

/** Sends raw bytes and resolves with what the server answers before it closes (or after the first answer). */
function raw(head: string, body: string | Buffer = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (/\r\n\r\n/.test(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', (e) => (got ? resolve(got) : reject(e)));
    socket.write(head);
    if (body.length) socket.write(body);
  });
}
const status = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);

describe('body limits', () => {
  it('a 30 MB multipart body to /trpc/auth.login is refused (415) before it is read', async () => {
    const res = await raw(
      'POST /trpc/auth.login HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 31457280\r\n\r\n',
      '--b\r\n',
    );
    expect(status(res)).toBe(415);
  });

  it('a declared 2 MB JSON body to /api/login → 413 without reading it', async () => {
    const res = await raw(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n',
      '{"username":"',
    );
    expect(status(res)).toBe(413);
  });

  it('a chunked body over 1 MiB → 413', async () => {
    const chunk = 'a'.repeat(64 * 1024);
    const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const res = await raw(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      `${(13).toString(16)}\r\n{"username":"\r\n${chunks}`,
    );
    expect(status(res)).toBe(413);
  });

  it('a 2 MB tRPC mutation other than the CSV upload → 413', async () => {
    const res = await church.client.post('/trpc/contacts.create', { firstName: 'a'.repeat(2_000_000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('the CSV upload still takes more than 1 MiB, over REST and tRPC', async () => {
    const csv = `First Name,Last Name,Email\n${'Ann,Lee,ann@example.org\n'.repeat(60_000)}`;
    expect(csv.length).toBeGreaterThan(1_200_000);
    const rest = await church.client.post('/api/contacts/import', { fileName: 'big.csv', csv });
    expect(rest.status).toBe(201);
    const trpc = await church.client.post('/trpc/contactImports.upload', { fileName: 'big.csv', csv });
    expect(trpc.status).toBe(200);
  });

  it('multipart is refused on an ordinary JSON route', async () => {
    const form = new FormData();
    form.set('name', 'Choir');
    const res = await fetch(`${app.url}/api/contact-lists`, { method: 'POST', body: form });
    expect(res.status).toBe(415);
  });
});

describe('body timeout', () => {
  it('a body that trickles in is cut off with 408', async () => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (d) => (got += d.toString()));
      socket.on('close', () => resolve(got));
    });
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 400);
    const res = await answer;
    clearInterval(trickle);
    expect(status(res)).toBe(408);
  });
});

describe('a client that leaves mid-request', () => {
  it('does not bring the server down once the body timeout passes', async () => {
    // Clients send requests (GETs without a body, a POST with half its body) and disconnect before
    // the answer. The body timer fired 30 s later into a stream nobody listened to any more: an
    // unhandled 'error' event, and the process exited (found by the API benchmark).
    const cookie = [...church.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (let i = 0; i < 10; i++) {
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(`GET /trpc/contacts.list?input=%7B%7D HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n\r\n`);
      socket.write(`GET /api/contacts/search HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n\r\n`);
      socket.write(
        'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      await new Promise((r) => setTimeout(r, i));
      socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 2500)); // past bodyTimeoutMs (1500)
    const res = await fetch(`${app.url}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe('a route that opts in to multipart', () => {
  it('takes multipart with config.multipart and its own bodyLimit; others refuse it', async () => {
    const f = Fastify();
    registerBodyLimits(f, { bodyTimeoutMs: 5000 });
    f.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_req, body, done) => done(null, body.length));
    f.post('/api/uploads', { config: { multipart: true }, bodyLimit: 4 * 1024 * 1024 }, async (req) => ({
      bytes: req.body,
    }));
    f.post('/api/other', async () => ({ ok: true }));
    const form = () => {
      const fd = new FormData();
      fd.set('file', new Blob([new Uint8Array(2 * 1024 * 1024)]), 'a.bin');
      return fd;
    };
    const ok = await f.inject({ method: 'POST', url: '/api/uploads', ...(await toInject(form())) });
    expect(ok.statusCode).toBe(200);
    const other = await f.inject({ method: 'POST', url: '/api/other', ...(await toInject(form())) });
    expect(other.statusCode).toBe(415);
    await f.close();
  });
});

async function toInject(fd: FormData) {
  const req = new Request('http://x', { method: 'POST', body: fd });
  return {
    headers: { 'content-type': req.headers.get('content-type')! },
    payload: Buffer.from(await req.arrayBuffer()),
  };
}

it('an ordinary JSON request still works', async () => {
  const res = await new HttpClient(app.url).post('/api/login', { username: 'nobody', password: 'x' });
  expect(res.status).toBe(401);
});
