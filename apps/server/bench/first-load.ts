// pnpm bench:first-load — bytes a browser transfers on a first visit: the page (the staff app's
// index.html, then the check-in station's /station) and the scripts, module preloads and style
// sheets it names, each fetched from the compiled server (dist/main.js) with `accept-encoding: br`,
// with `gzip` and with none. Needs a prior `pnpm build` and a database
// (DATABASE_URL, or TEST_DATABASE_URL's server).
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'lampstand_bench_first_load';
const port = 3000 + Math.floor(Math.random() * 20000);

async function ensureDb(): Promise<string> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [dbName]);
  if (!rowCount) await c.query(`create database ${dbName}`);
  await c.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  return u.toString();
}

/** The bytes on the wire (not decoded) and the headers of one GET. */
function get(p: string, encoding: string): Promise<{ bytes: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: p, headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ bytes: raw.length, body: raw.toString('utf8'), headers: res.headers });
        });
      })
      .on('error', reject);
  });
}

const child = spawn(process.execPath, ['dist/main.js'], {
  cwd: serverDir,
  env: { ...process.env, DATABASE_URL: await ensureDb(), PORT: String(port), LOG_LEVEL: 'warn', RUN_WORKERS: 'false' },
  stdio: 'inherit',
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      if (i > 600) throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The staff app (/) and the check-in station's own page (/station), each with what it names.
  for (const page of ['/', '/station']) {
    const index = await get(page, 'identity');
    const assets = [...index.body.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    const files = [page, ...assets];
    const totals: Record<string, Record<string, number>> = {};
    for (const encoding of ['identity', 'gzip', 'br']) {
      const sums = (totals[encoding] = { html: 0, js: 0, css: 0, all: 0 });
      for (const f of files) {
        const res = await get(f, encoding);
        const kind = f === page ? 'html' : f.endsWith('.css') ? 'css' : 'js';
        sums[kind] += res.bytes;
        sums.all += res.bytes;
      }
    }
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`first load of ${page}: the page + the ${assets.length} scripts and style sheets it names`);
    console.log('encoding   html       js          css        total');
    for (const [encoding, s] of Object.entries(totals)) {
      console.log(
        `${encoding.padEnd(10)} ${kb(s.html!).padEnd(10)} ${kb(s.js!).padEnd(11)} ${kb(s.css!).padEnd(10)} ${kb(s.all!)}`,
      );
    }
  }
} finally {
  child.kill('SIGTERM');
}
