import crypto from 'node:crypto';
import http from 'node:http';

// An integrator's endpoint on loopback, checking Lampstand's webhooks as the Standard Webhooks
// specification says, written here from the specification (not with Lampstand's own signing code):
// the key is the base64 after `whsec_`; a signature is `v1,` + base64 HMAC-SHA256 of
// `${webhook-id}.${webhook-timestamp}.${raw body}`; the header lists several, space-separated.

export interface ReceivedWebhook {
  id: string;
  timestamp: number;
  signatures: string[];
  body: { type: string; timestamp: string; data: Record<string, any> };
  raw: string;
  status: number;
}

function specVerify(secret: string, id: string, timestamp: string, raw: string, header: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest();
  return header.split(' ').some((s) => {
    const [v, sig] = s.split(',');
    const given = Buffer.from(sig ?? '', 'base64');
    return v === 'v1' && given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

/**
 * Answers what `answer` says (200 by default) to a well-signed request from a trusted secret, 401
 * otherwise; `hold()` keeps requests waiting (a worker can die meanwhile).
 */
export async function startStandardReceiver(opts: { answer?: (n: number, w: ReceivedWebhook) => number } = {}) {
  const secrets = new Set<string>();
  const all: ReceivedWebhook[] = [];
  const accepted: ReceivedWebhook[] = [];
  let badSignatures = 0;
  let gate: Promise<void> | null = null;
  let openGate = () => {};
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id'] ?? '');
        const ts = String(req.headers['webhook-timestamp'] ?? '');
        const sig = String(req.headers['webhook-signature'] ?? '');
        const fresh = Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
        if (!fresh || ![...secrets].some((s) => specVerify(s, id, ts, raw, sig))) {
          badSignatures++;
          res.writeHead(401).end('bad signature');
          return;
        }
        const w: ReceivedWebhook = {
          id,
          timestamp: Number(ts),
          signatures: sig.split(' '),
          body: JSON.parse(raw) as ReceivedWebhook['body'],
          raw,
          status: 200,
        };
        w.status = opts.answer?.(all.length + 1, w) ?? 200;
        all.push(w);
        for (const f of waiters.splice(0)) f();
        while (gate) await gate;
        if (req.socket.destroyed) return;
        if (w.status < 300) accepted.push(w);
        res.writeHead(w.status, { 'content-type': 'text/plain' }).end(w.status < 300 ? `ok ${id}` : `no (${w.status})`);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    all,
    accepted,
    get badSignatures() {
      return badSignatures;
    },
    trust(secret: string) {
      secrets.add(secret);
    },
    hold() {
      gate ??= new Promise<void>((r) => (openGate = r));
    },
    resume() {
      gate = null;
      openGate();
    },
    /** Resolves once `count` well-signed requests have arrived (fails after 20 s). */
    async arrived(count: number): Promise<void> {
      const until = Date.now() + 20_000;
      while (all.length < count) {
        if (Date.now() > until) throw new Error(`${all.length} of ${count} webhooks arrived`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
