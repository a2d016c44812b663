import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb, ownerDb, sql } from '@lampstand/db';
import { createTestDatabase } from '@lampstand/db/testing';
import '@lampstand/db/test/provided';
import { ReadRouting } from '../../src/read-routing.js';
import { HttpClient, registerChurch, startAppOn } from '../helpers/test-app.js';

// With DATABASE_READ_URL, reads that may lag (the dashboard, reports, exports, the
// events API, statements) go to a replica; a session or key that wrote in the last seconds reads
// from the primary; writes always go to the primary. The "replica" here is a second database that
// replication never reaches, so every answer shows which database it came from. (`pnpm
// bench:replica` runs against a real streaming replica.)
const WINDOW_SECONDS = 30;
const primary = await createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'));
const replica = await createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'));
const db = createDb(primary.url, { max: 3, readUrls: [replica.url] });
const app = await startAppOn(
  {
    db,
    url: primary.url,
    async drop() {
      await primary.drop();
    },
  },
  { readYourWritesSeconds: WINDOW_SECONDS, databaseReadUrls: [replica.url] },
);
afterAll(async () => {
  await app.stop();
  await db.destroy();
  await replica.drop();
});

const church = await registerChurch(app.url, 'Grace Church');
// The replica's copy of the church: the same account, and 42 contacts by its count.
await ownerDb(replica.db)
  .insertInto('users')
  .values({
    id: church.user.id,
    username: church.user.username,
    passwordHash: 'x',
    churchName: 'Grace Church',
    email: church.user.email,
  })
  .execute();
await sql`insert into contact_counts (user_id, day, added) values (${church.user.id}, current_date, 42)`.execute(
  ownerDb(replica.db),
);

const contactsShown = async (client: HttpClient) => {
  const res = await client.get('/api/dashboard/stats');
  expect(res.status, res.text).toBe(200);
  return res.body.contactsCount as number;
};
/** Moves the app's read-your-writes clock past the window (no real waiting). */
let shift = 0;
const pastTheWindow = () => {
  shift += (WINDOW_SECONDS + 1) * 1000;
  app.deps.reads.now = () => Date.now() + shift;
};

describe('reads from a replica, with read-your-writes', () => {
  it('reads from the primary right after a write, and from the replica once the window has passed', async () => {
    expect(church.client.cookies.has('ls_wrote')).toBe(true); // registering was a write
    expect(await contactsShown(church.client)).toBe(0); // the primary: a new church
    pastTheWindow();
    expect(await contactsShown(church.client)).toBe(42); // the replica
  });

  it('writes always go to the primary, and the writer then reads its own write', async () => {
    pastTheWindow();
    const created = await church.client.post('/api/contacts', {
      firstName: 'Maria',
      lastName: 'Lopez',
      email: 'maria@example.org',
      phone: '0413000001',
    });
    expect(created.status, created.text).toBe(201);
    expect(await contactsShown(church.client)).toBe(1);
    const inPrimary = await ownerDb(db).selectFrom('contacts').select('id').where('id', '=', created.body.id).execute();
    const inReplica = await ownerDb(replica.db).selectFrom('contacts').select('id').execute();
    expect(inPrimary).toHaveLength(1);
    expect(inReplica).toHaveLength(0);
  });

  it('remembers an API key that wrote (no cookie), and only that key', async () => {
    const made = await church.client.post('/api/api-keys', { name: 'Sync' });
    expect(made.status, made.text).toBe(201);
    const writer = new HttpClient(app.url, { authorization: `Bearer ${made.body.token}` });
    const other = await church.client.post('/api/api-keys', { name: 'Reports', scope: 'read' });
    const reader = new HttpClient(app.url, { authorization: `Bearer ${other.body.token}` });
    expect(await contactsShown(writer)).toBe(42);
    const created = await writer.post('/api/contacts', {
      firstName: 'Ken',
      lastName: 'Adams',
      email: 'ken@example.org',
      phone: '0413000002',
    });
    expect(created.status, created.text).toBe(201);
    expect(writer.cookies.size).toBe(0);
    expect(await contactsShown(writer)).toBe(2);
    expect(await contactsShown(reader)).toBe(42);
    pastTheWindow();
    expect(await contactsShown(writer)).toBe(42);
  });

  it('signs in and reads sessions on the primary (the replica has no sessions)', async () => {
    pastTheWindow();
    const res = await church.client.get('/api/user');
    expect(res.status).toBe(200);
    expect(res.body.churchName).toBe('Grace Church');
  });

  it('changes nothing without DATABASE_READ_URL: every read on the primary, no cookie', async () => {
    const alone = createDb(primary.url, { max: 1 });
    try {
      const routing = new ReadRouting(alone, WINDOW_SECONDS);
      expect(routing.enabled).toBe(false);
      expect(routing.handleFor({ headers: {}, cookies: {} })).toBe(alone);
    } finally {
      await alone.destroy();
    }
  });
});
