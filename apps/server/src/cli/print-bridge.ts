import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/**
 * The print bridge: one small command a church runs on a computer on its own network, because a
 * hosted server cannot reach a label printer there. A check-in station sends it a label's ZPL over
 * HTTP with the shared secret (`POST /print`, `Authorization: Bearer <secret>`); the bridge writes
 * the ZPL to the printer's raw port (TCP 9100) and answers `printed`, or, when the printer does not
 * answer, keeps the label in its queue (retried every few seconds) and answers `queued` with words
 * the station shows ('Print as PDF' at once). Node's own modules only: the file runs on its own.
 *
 *   PRINT_BRIDGE_SECRET=… node --import tsx print-bridge.ts --printer 192.168.1.50:9100 [--port 9180] [--host 0.0.0.0]
 */

export interface BridgeOptions {
  secret: string;
  /** The printer's address (host:port, port 9100 when left out). */
  printer: string;
  port?: number;
  host?: string;
  /** How long a printer has to accept the connection. */
  connectTimeoutMs?: number;
  /** How often queued labels are tried again. */
  retryMs?: number;
  log?: (line: string) => void;
}

const MAX_LABEL_BYTES = 256 * 1024;

export function parsePrinter(spec: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(spec.trim());
  if (!m) throw new Error(`Printer must be host or host:port, not '${spec}'`);
  return { host: m[1]!, port: m[2] ? Number(m[2]) : 9100 };
}

/** Write ZPL to a printer's raw port; resolves once the bytes are handed over and the socket closed. */
export function sendToPrinter(printer: { host: string; port: number }, zpl: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: printer.host, port: printer.port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('The printer did not answer in time')));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.end(zpl, 'utf8', () => resolve());
    });
  });
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_LABEL_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startPrintBridge(opts: BridgeOptions) {
  const printer = parsePrinter(opts.printer);
  const timeout = opts.connectTimeoutMs ?? 3000;
  const log = opts.log ?? (() => {});
  const queue: string[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length > 0) {
        await sendToPrinter(printer, queue[0]!, timeout);
        queue.shift();
        log(`printed a queued label (${queue.length} left)`);
      }
    } catch {
      // Still not answering: the labels wait for the next try.
    } finally {
      flushing = false;
    }
  }
  const timer = setInterval(() => void flush(), opts.retryMs ?? 5000);
  timer.unref();

  const send = (res: ServerResponse, status: number, body: Record<string, unknown>) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    // A station's page calls from its own origin: CORS with the secret as the guard, and Chrome's
    // private-network preflight answered.
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('access-control-allow-headers', 'authorization, content-type');
    res.setHeader('access-control-allow-methods', 'GET, POST');
    res.setHeader('access-control-allow-private-network', 'true');
    res.setHeader('vary', 'origin');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const auth = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(auth, opts.secret)) return send(res, 401, { message: 'The print bridge secret is not right' });
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/status')
      return send(res, 200, { printer: opts.printer, queued: queue.length });
    if (req.method !== 'POST' || path !== '/print') return send(res, 404, { message: 'Not found' });
    void (async () => {
      const body = await readBody(req);
      if (body === null) return send(res, 413, { message: 'A label is at most 256 KB' });
      let zpl: unknown;
      try {
        zpl = (JSON.parse(body) as { zpl?: unknown }).zpl;
      } catch {
        zpl = undefined;
      }
      if (typeof zpl !== 'string' || !/\^XA[\s\S]*\^XZ/.test(zpl))
        return send(res, 400, { message: 'Send the label as JSON { "zpl": "^XA…^XZ" }' });
      if (queue.length === 0) {
        try {
          await sendToPrinter(printer, zpl, timeout);
          log(`printed a label (${zpl.length} bytes)`);
          return send(res, 200, { status: 'printed', queued: 0 });
        } catch {
          // Falls through to the queue.
        }
      }
      queue.push(zpl);
      log(`printer ${opts.printer} did not answer: label queued (${queue.length})`);
      return send(res, 202, {
        status: 'queued',
        queued: queue.length,
        message: `The printer (${opts.printer}) did not answer: the label is queued and prints when it does. Print as PDF now if the family is waiting.`,
      });
    })().catch(() => send(res, 500, { message: 'The print bridge failed' }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 9180, opts.host ?? '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 9180);
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    queued: () => queue.length,
    flush,
    close: () => {
      clearInterval(timer);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.PRINT_BRIDGE_SECRET;
  const printer = arg('printer') ?? process.env.PRINTER;
  if (!secret || !printer) {
    console.error('Usage: PRINT_BRIDGE_SECRET=… print-bridge --printer host[:9100] [--port 9180] [--host 127.0.0.1]');
    process.exit(2);
  }
  const bridge = await startPrintBridge({
    secret,
    printer,
    port: Number(arg('port') ?? 9180),
    host: arg('host') ?? '127.0.0.1',
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  console.log(`Print bridge at ${bridge.url}, printing to ${printer}`);
}
