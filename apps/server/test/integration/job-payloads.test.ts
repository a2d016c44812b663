import { afterAll, describe, expect, it } from 'vitest';
import PgBoss from 'pg-boss';
import { ownerDb, sql } from '@lampstand/db';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');

// A sender that is not the app's typed queue: pg-boss itself, on the same database.
const rawBoss = new PgBoss({
  connectionString: app.databaseUrl,
  schema: 'pgboss',
  max: 1,
  supervise: false,
  schedule: false,
  migrate: false,
});
await rawBoss.start();
afterAll(() => rawBoss.stop({ graceful: false, wait: true }));

const owner = ownerDb(app.db);

/** An uploaded one-row import, marked queued as `startImport` marks it, but with no job sent. */
async function queuedImport(email: string): Promise<number> {
  const csv = ['First Name,Surname,E-mail', `Ada,Lovelace,${email}`].join('\r\n');
  const upload = await grace.client.post('/api/contacts/import', { fileName: 'one.csv', csv });
  expect(upload.status).toBe(201);
  const { id, suggestedMapping } = upload.body as { id: number; suggestedMapping: Record<string, string> };
  await sql`update contact_imports set status = 'queued', mapping = ${JSON.stringify(suggestedMapping)}::jsonb,
    progress_at = now() where id = ${id}`.execute(owner);
  return id;
}

async function job(id: string) {
  const { rows } = await sql<{ state: string; retryCount: number; message: string | null }>`
    select state, retry_count as "retryCount", output->>'message' as message
    from pgboss.job where id = ${id}::uuid`.execute(owner);
  return rows[0];
}
const importStatus = async (id: number) => (await grace.client.get(`/api/contacts/import/${id}`)).body.status;

describe('job payloads are checked against their schema (packages/api/src/jobs.ts)', () => {
  it('the typed sender refuses a bad payload, naming the job and the field, and queues nothing', async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where name = 'contact-import'`.execute(owner);
    await expect(app.deps.jobs.send('contact-import', { importId: '7' } as never)).rejects.toThrow(
      /^Job contact-import has a bad payload: importId: Invalid input: expected number, received string$/,
    );
    await expect(app.deps.jobs.send('social-post-publish', { postID: 7 } as never)).rejects.toThrow(
      /^Job social-post-publish has a bad payload: \(payload\): Unrecognized key: "postID"$/,
    );
    const after = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where name = 'contact-import'`.execute(owner);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('a job inserted with a bad payload fails once with the schema message; its handler never runs', async () => {
    const importId = await queuedImport('ada@example.org');
    // A numeric string: PostgreSQL would take it as the id, so the handler would run the import.
    const jobId = (await rawBoss.send('contact-import', { importId: String(importId) }))!;
    await expect.poll(async () => (await job(jobId))?.state, { timeout: 30_000, interval: 250 }).toBe('failed');
    expect(await job(jobId)).toEqual({
      state: 'failed',
      retryCount: 0,
      message: 'Job contact-import has a bad payload: importId: Invalid input: expected number, received string',
    });
    // The queue's retry limit (3) did not apply, and the import was never claimed or run.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await job(jobId))?.state).toBe('failed');
    expect(await importStatus(importId)).toBe('queued');
    expect((await grace.client.get('/api/contacts')).body).toEqual([]);

    // The same import with a good payload runs: the handler is what the bad one was kept from.
    const goodId = (await rawBoss.send('contact-import', { importId }))!;
    await expect.poll(async () => (await job(goodId))?.state, { timeout: 30_000, interval: 250 }).toBe('completed');
    expect(await importStatus(importId)).toBe('completed');
    expect((await grace.client.get('/api/contacts')).body).toMatchObject([{ email: 'ada@example.org' }]);
  });
});

describe('events-retention', () => {
  it('is scheduled daily; the job deletes the events past the church retention, nothing newer', async () => {
    const { rows } = await sql<{
      cron: string;
    }>`select cron from pgboss.schedule where name = 'events-retention'`.execute(owner);
    expect(rows).toEqual([{ cron: '17 3 * * *' }]);
    const aged = (days: number) =>
      sql<{ id: number }>`insert into events (user_id, type, actor_kind, payload, occurred_at)
        values (${grace.user.id}, 'contact.deleted', 'system', '{}'::jsonb, now() - make_interval(days => ${days}::int))
        returning id`.execute(owner);
    const old = (await aged(731)).rows[0]!.id;
    const recent = (await aged(729)).rows[0]!.id;
    const id = (await rawBoss.send('events-retention', {}))!;
    await expect.poll(async () => (await job(id))?.state, { timeout: 15_000 }).toBe('completed');
    const { rows: left } = await sql<{ id: number }>`
      select id from events where id in (${old}, ${recent})`.execute(owner);
    expect(left.map((r) => Number(r.id))).toEqual([Number(recent)]);
  });
});
