/**
 * The processes and loopback peers of the scale-out benchmarks (bench:scale, bench:sunday): the
 * compiled API and worker processes (`dist/main.js`, `dist/worker.js`, what `pnpm serve` and `pnpm
 * worker` run) with their logs in one folder, a round-robin proxy in front of the API processes, an
 * SMTP sink and a webhook receiver. Needs `pnpm build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Proc {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

const children = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const c of children) c.kill('SIGKILL');
    process.exit(130);
  });

/** Start, stop and wait for the compiled server's processes, each logging to `logDir/<name>.log`. */
export function processesIn(logDir: string) {
  function startProcess(name: string, entry: string, env: Record<string, string>): Proc {
    const out = fs.openSync(path.join(logDir, `${name}.log`), 'a');
    // BENCH_CPU_PROF_DIR: every API and worker process writes a V8 CPU profile there when it exits.
    const prof = process.env.BENCH_CPU_PROF_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
      : [];
    const child = spawn(process.execPath, [...prof, '--enable-source-maps', path.join(serverDir, 'dist', entry)], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', out, out],
    });
    children.add(child);
    const exited = new Promise<void>((r) => child.once('exit', () => (children.delete(child), r())));
    return { name, child, exited };
  }

  async function stopProcess(p: Proc, signal: NodeJS.Signals = 'SIGTERM') {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
    await Promise.race([p.exited, sleep(25_000).then(() => p.child.kill('SIGKILL'))]);
  }

  async function waitHealthy(url: string) {
    const t0 = performance.now();
    for (;;) {
      try {
        if ((await fetch(`${url}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      if (performance.now() - t0 > 30_000) throw new Error(`${url} did not become healthy (logs in ${logDir})`);
      await sleep(100);
    }
  }

  async function waitForLine(p: Proc, text: string) {
    const file = path.join(logDir, `${p.name}.log`);
    const t0 = performance.now();
    while (!fs.readFileSync(file, 'utf8').includes(text)) {
      if (p.child.exitCode !== null) throw new Error(`${p.name} exited (logs in ${file})`);
      if (performance.now() - t0 > 30_000) throw new Error(`${p.name} did not start (logs in ${file})`);
      await sleep(100);
    }
  }
  return { startProcess, stopProcess, waitHealthy, waitForLine };
}

/** The tiny round-robin proxy in front of the API processes. */
export async function startProxy(upstreams: string[]) {
  let next = 0;
  const hits = upstreams.map(() => 0);
  const server = http.createServer((req, res) => {
    const i = next++ % upstreams.length;
    hits[i]!++;
    const target = new URL(req.url ?? '/', upstreams[i]);
    // The Host the visitor asked for, as a load balancer passes it on (origin checks compare the two).
    const up = http.request(target, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// ---- sinks ----

/** SMTP sink: every accepted transaction with its recipients, Message-ID and time. */
export async function startSmtpSink() {
  const received: { rcpt: string[]; messageId: string; at: number }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 8192) head += c.toString('latin1');
      });
      stream.on('end', () => {
        const messageId = /^message-id:\s*<([^>]+)>/im.exec(head)?.[1] ?? '';
        received.push({ rcpt: session.envelope.rcptTo.map((r) => r.address), messageId, at: Date.now() });
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}?tls=off`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Social webhook receiver: every POST with its idempotency key. */
export async function startWebhookSink() {
  const received: { key: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ key: String(req.headers['idempotency-key'] ?? ''), at: Date.now() });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `post-${received.length}` }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
