/**
 * The bare server of bench:api: Fastify + @fastify/cookie + `pg`, nothing else. For each endpoint it
 * replays the statements the app ran for that request (recorded by bench/api.ts from the app's own
 * pool, with the same parameters): it unsigns the same session cookie, reads the same session row
 * (401 without one) and the user, then runs the endpoint's statements — in parallel as the app does
 * for reads, on one client in order for a transaction — and sends the rows as JSON (the landing page
 * sends the HTML the app served, as the app serves it from its page cache).
 *
 * Env: DATABASE_URL, PORT, SESSION_SECRET, RECORDING (path of the JSON written by bench/api.ts).
 */
import fs from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyCookie, { Signer } from '@fastify/cookie';
import pg from 'pg';

export interface RecordedStatement {
  text: string;
  values: unknown[];
}
export interface RecordedEndpoint {
  method: string;
  path: string;
  auth: boolean;
  sid: string | null;
  statements: RecordedStatement[];
  html?: string;
}

const recording = JSON.parse(fs.readFileSync(process.env.RECORDING!, 'utf8')) as {
  cookieName: string;
  endpoints: RecordedEndpoint[];
};
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const signer = new Signer(process.env.SESSION_SECRET!);
const app = Fastify({ logger: false });
await app.register(fastifyCookie);

const isSessionRead = (s: RecordedStatement) => /\bfrom "?sessions"?/.test(s.text);
/** The app reads the session's users with the session (session-store.ts); an older app read them next. */
const readsUsers = (s: RecordedStatement | undefined) => s !== undefined && /\bfrom "?users"?/.test(s.text);

interface Plan {
  e: RecordedEndpoint;
  sessionRead?: RecordedStatement;
  user?: RecordedStatement;
  after: RecordedStatement[];
  inTransaction: boolean;
}
// Endpoints by method and full URL (two share a path and differ in the query string).
const plans = new Map<string, Plan>();
for (const e of recording.endpoints) {
  const sessionRead = e.statements.find(isSessionRead);
  const after = e.statements.filter((s) => s !== sessionRead);
  const user = e.auth && !readsUsers(sessionRead) ? after.shift() : undefined; // the signed-in user, read after the session
  plans.set(`${e.method} ${e.path}`, {
    e,
    sessionRead,
    user,
    after,
    inTransaction: after.some((s) => /^begin/i.test(s.text)),
  });
}

async function handle(plan: Plan, req: FastifyRequest, reply: FastifyReply) {
  const { e, sessionRead, user, after } = plan;
  if (e.auth) {
    const raw = req.cookies[recording.cookieName];
    const unsigned = raw ? signer.unsign(raw) : { valid: false, value: null };
    if (!unsigned.valid || !unsigned.value || !sessionRead) return reply.code(401).send({ message: 'Not signed in' });
    const values = sessionRead.values.map((v) => (v === e.sid ? unsigned.value : v));
    const { rows } = await pool.query(sessionRead.text, values);
    if (!rows[0]?.sess?.userId) return reply.code(401).send({ message: 'Not signed in' });
    if (user) await pool.query(user.text, user.values);
  }
  let results: unknown[][];
  if (plan.inTransaction) {
    const client = await pool.connect();
    try {
      results = [];
      for (const s of after) results.push((await client.query(s.text, s.values)).rows);
    } finally {
      client.release();
    }
  } else {
    results = await Promise.all(after.map(async (s) => (await pool.query(s.text, s.values)).rows));
  }
  if (e.html !== undefined) return reply.type('text/html; charset=utf-8').send(e.html);
  return results.length === 1 ? results[0] : results;
}

for (const key of new Set(recording.endpoints.map((e) => `${e.method} ${e.path.split('?')[0]}`))) {
  const [method, url] = key.split(' ');
  app.route({
    method: method as 'GET',
    url: url!,
    handler: async (req, reply) => {
      const plan = plans.get(`${req.method} ${req.url}`);
      if (!plan) return reply.code(404).send({ message: 'Not found' });
      return handle(plan, req, reply);
    },
  });
}
app.get('/healthz', async () => {
  await pool.query('select 1');
  return { status: 'ok' };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
