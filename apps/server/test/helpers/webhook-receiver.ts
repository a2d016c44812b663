import http from 'node:http';
import { verifySocialWebhook } from '@lampstand/api/server';

export interface ReceivedPublish {
  body: {
    event: string;
    idempotencyKey: string;
    post: Record<string, unknown>;
    church: Record<string, unknown>;
    attempt: number;
  };
  headers: http.IncomingHttpHeaders;
  /** When it arrived (ms). */
  at: number;
  /** The status answered. */
  status: number;
}

/**
 * A church's own service receiving Lampstand's social-post webhooks, on loopback: it checks the
 * HMAC-SHA256 signature and the timestamp with the secret it was given, answers 401 to a bad one,
 * and otherwise answers what `answer` says (200 by default). `accepted` holds the posts it took
 * (2xx answered to a client still connected).
 */
export async function startWebhookReceiver(
  opts: { answer?: (n: number, body: ReceivedPublish['body']) => number } = {},
) {
  const secrets = new Set<string>();
  const all: ReceivedPublish[] = [];
  const accepted: ReceivedPublish[] = [];
  let badSignatures = 0;
  let gate: Promise<void> | null = null;
  let openGate = () => {};
  let onArrive = () => {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on(
      'end',
      () =>
        void (async () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = {
            signature: String(req.headers['x-lampstand-signature'] ?? ''),
            timestamp: String(req.headers['x-lampstand-timestamp'] ?? ''),
          };
          if (![...secrets].some((s) => verifySocialWebhook(s, headers, raw))) {
            badSignatures++;
            res.writeHead(401).end('bad signature');
            return;
          }
          const body = JSON.parse(raw) as ReceivedPublish['body'];
          const n = all.length + 1;
          const status = opts.answer?.(n, body) ?? 200;
          const rec = { body, headers: req.headers, at: Date.now(), status };
          all.push(rec);
          onArrive();
          while (gate) await gate;
          // A client that was killed meanwhile gets nothing: the post was not accepted.
          if (req.socket.destroyed) return;
          if (status >= 200 && status < 300) accepted.push(rec);
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(status < 300 ? { id: `recv-${n}` } : { error: `refused with ${status}` }));
        })(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/lampstand`,
    all,
    accepted,
    get badSignatures() {
      return badSignatures;
    },
    trust(secret: string) {
      secrets.add(secret);
    },
    /** Hold every request (after recording its arrival) until resume(). */
    hold() {
      if (!gate) gate = new Promise<void>((r) => (openGate = r));
    },
    resume() {
      if (gate) {
        gate = null;
        openGate();
      }
    },
    /** Resolves when `count` requests have arrived. */
    arrived(count: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (all.length >= count) resolve();
        };
        const prev = onArrive;
        onArrive = () => {
          prev();
          check();
        };
        check();
      });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
