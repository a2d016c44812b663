import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, startTestApp } from '../helpers/test-app.js';
import { checkinChurch } from '../helpers/checkin.js';
import { startPrintBridge } from '../../src/cli/print-bridge.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const g = await checkinChurch(app.url, 'Grace Church');
const hope = await checkinChurch(app.url, 'Hope Chapel');

/** A label printer's raw port on loopback: what it receives, connection by connection. */
async function fakePrinter(port = 0): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let data = '';
    socket.on('data', (c) => (data += c.toString('utf8')));
    socket.on('end', () => received.push(data));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port, received };
}

/** The labels of a ZPL stream: each `^XA … ^XZ`, with its field data (`^FD…^FS`). */
function parseZpl(zpl: string): string[][] {
  return [...zpl.matchAll(/\^XA([\s\S]*?)\^XZ/g)].map((m) =>
    [...m[1]!.matchAll(/\^FD([\s\S]*?)\^FS/g)].map((f) => f[1]!),
  );
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

const checkIn = await g.station.post('/api/check-ins', {
  familyId: g.parent.id,
  children: [
    { childId: g.baby.id, roomId: g.nursery.id },
    { childId: g.kid.id, roomId: g.k2.id },
  ],
});
const code: string = checkIn.body.securityCode;

describe('labels', () => {
  it('are ZPL: a name tag per child (name, room, allergy mark and note, code, date) and a pickup tag', async () => {
    const res = await g.station.get(`/api/check-in/labels?securityCode=${code}&format=zpl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/zpl/);
    const labels = parseZpl(res.text);
    expect(labels).toHaveLength(3);
    const jesse = labels.find((l) => l[0] === 'Jesse')!;
    expect(jesse).toEqual(['Jesse', 'K–2', '!', 'Allergy: Peanuts', g.today, code]);
    expect(labels.find((l) => l[0] === 'Obed')).toEqual(['Obed', 'Nursery', g.today, code]);
    expect(labels[2]).toEqual(['PICKUP TAG', 'Obed, Jesse', g.today, code]);
  });

  it('are a PDF sized 2.25″×1.25″ or 4″×2″', async () => {
    const small = await g.station.get(`/api/check-in/labels?securityCode=${code}&format=pdf`);
    expect(small.headers.get('content-type')).toMatch(/application\/pdf/);
    expect(small.text.startsWith('%PDF')).toBe(true);
    expect(small.text).toMatch(/\/MediaBox \[0 0 162 90\]/);
    expect(small.text.match(/\/Type \/Page\b/g)).toHaveLength(3);
    const large = await g.station.get(`/api/check-in/labels?securityCode=${code}&format=pdf&size=4x2`);
    expect(large.text).toMatch(/\/MediaBox \[0 0 288 144\]/);
  });

  it('refuse an unknown code, and another church’s', async () => {
    expect((await g.station.get('/api/check-in/labels?securityCode=ZZZZ')).status).toBe(404);
    expect((await hope.station.get(`/api/check-in/labels?securityCode=${code}`)).status).toBe(404);
    expect((await g.station.get('/api/check-in/labels?securityCode=ABCD&format=png')).body.message).toBe(
      'Format must be zpl or pdf',
    );
  });
});

describe('the print bridge', () => {
  it('forwards a label to the printer’s port; the printer receives the child’s name and code', async () => {
    const printer = await fakePrinter();
    closers.push(() => new Promise((r) => printer.server.close(() => r())));
    const bridge = await startPrintBridge({ secret: 's3cret-bridge', printer: `127.0.0.1:${printer.port}`, port: 0 });
    closers.push(bridge.close);
    const zpl = (await g.station.get(`/api/check-in/labels?securityCode=${code}&format=zpl`)).text;

    const refused = await fetch(`${bridge.url}/print`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: JSON.stringify({ zpl }),
    });
    expect(refused.status).toBe(401);

    const res = await fetch(`${bridge.url}/print`, {
      method: 'POST',
      headers: { authorization: 'Bearer s3cret-bridge', 'content-type': 'application/json' },
      body: JSON.stringify({ zpl }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'printed', queued: 0 });
    await expect.poll(() => printer.received.length).toBe(1);
    const labels = parseZpl(printer.received[0]!);
    expect(printer.received[0]!.trimStart().startsWith('^XA')).toBe(true);
    expect(printer.received[0]!.trimEnd().endsWith('^XZ')).toBe(true);
    const child = labels.find((l) => l[0] === 'Obed')!;
    expect(child).toContain(code);
    expect(child).toContain('Nursery');
  });

  it('queues a label when the printer does not answer, says so, and prints it when the printer is back', async () => {
    // A free port with nobody listening.
    const probe = await fakePrinter();
    const port = probe.port;
    await new Promise<void>((r) => probe.server.close(() => r()));
    const bridge = await startPrintBridge({
      secret: 'another-secret',
      printer: `127.0.0.1:${port}`,
      port: 0,
      connectTimeoutMs: 500,
      retryMs: 60_000,
    });
    closers.push(bridge.close);
    const zpl = (await g.station.get(`/api/check-in/labels?securityCode=${code}&format=zpl`)).text;
    const res = await fetch(`${bridge.url}/print`, {
      method: 'POST',
      headers: { authorization: 'Bearer another-secret', 'content-type': 'application/json' },
      body: JSON.stringify({ zpl }),
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { status: string; message: string };
    expect(body.status).toBe('queued');
    expect(body.message).toMatch(/did not answer: the label is queued.*Print as PDF/);

    const bad = await fetch(`${bridge.url}/print`, {
      method: 'POST',
      headers: { authorization: 'Bearer another-secret', 'content-type': 'application/json' },
      body: JSON.stringify({ zpl: 'hello' }),
    });
    expect(bad.status).toBe(400);

    const printer = await fakePrinter(port);
    closers.push(() => new Promise((r) => printer.server.close(() => r())));
    await bridge.flush();
    await expect.poll(() => printer.received.length).toBe(1);
    expect(bridge.queued()).toBe(0);
    expect(parseZpl(printer.received[0]!).some((l) => l.includes(code))).toBe(true);
  });
});
