import { describe, expect, it } from 'vitest';
import { ownerDb } from '@lampstand/db';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

const app = await startTestApp();
const admin = await registerChurch(app.url, 'Platform');

type Church = Awaited<ReturnType<typeof registerChurch>>;

/** A tRPC query over HTTP, as the web app's link sends it; its data. */
async function query(client: HttpClient, path: string, input?: unknown) {
  const q = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await client.get(`/trpc/${path}${q}`);
  expect(res.status, res.text.slice(0, 400)).toBe(200);
  return res.body.result.data;
}

async function mutate(client: HttpClient, path: string) {
  const res = await client.post(`/trpc/${path}`, {});
  expect(res.status, res.text.slice(0, 400)).toBe(200);
  return res.body.result.data;
}

const search = async (church: Church, q: string) =>
  (await query(church.client, 'search.everything', { q })).results as {
    kind: string;
    id: number;
    name: string;
    note: string | null;
    date: string | null;
  }[];

/** One thing of each kind the header's search finds, every name holding `word`. */
async function oneOfEach(church: Church, word: string) {
  const c = church.client;
  const ids = {
    person: (await addContact(c, { firstName: word, lastName: 'Magdalene', email: `${word}@example.org` })).id,
    list: (await c.post('/api/contact-lists', { name: `${word} Youth Parents`, type: 'both' })).body.id,
    emailCampaign: (
      await c.post('/api/email-campaigns', { name: `${word} appeal`, subject: 'Harvest', content: '<p>Hi</p>' })
    ).body.id,
    smsCampaign: (await c.post('/api/sms-campaigns', { name: `${word} reminder`, content: 'See you tonight' })).body.id,
    landingPage: (
      await c.post('/api/landing-pages', {
        name: `${word} festival`,
        slug: `${word.toLowerCase()}-festival-${church.user.id}`,
      })
    ).body.id,
    plan: (await c.post('/api/service-planner/plans', { title: `${word} Sunday`, date: '2026-12-06' })).body.id,
    song: (await c.post('/api/service-planner/songs', { title: `${word} hymn`, artist: 'Wesley' })).body.id,
  };
  for (const [kind, id] of Object.entries(ids)) expect(id, kind).toBeTypeOf('number');
  return ids;
}

describe('search.everything', () => {
  it("finds each kind by name, a few of each, and never another church's", async () => {
    const grace = await registerChurch(app.url, 'Grace Church');
    const hope = await registerChurch(app.url, 'Hope Church');
    const mine = await oneOfEach(grace, 'Zebedee');
    await oneOfEach(hope, 'Zebedee');

    const found = await search(grace, 'zebedee');
    expect(found.map((r) => [r.kind, r.id])).toEqual(Object.entries(mine));
    expect(found.find((r) => r.kind === 'person')).toMatchObject({
      name: 'Zebedee Magdalene',
      note: 'Zebedee@example.org',
    });
    expect(found.find((r) => r.kind === 'plan')).toMatchObject({ name: 'Zebedee Sunday', date: '2026-12-06' });
    expect(found.find((r) => r.kind === 'song')).toMatchObject({ note: 'Wesley' });

    // Every word counts, in any order; a single letter finds nothing.
    expect((await search(grace, 'sunday zeb')).map((r) => r.kind)).toEqual(['plan']);
    expect(await search(grace, 'z')).toEqual([]);
    // A wildcard is a letter like any other.
    expect(await search(grace, 'zeb%dee')).toEqual([]);

    // At most five of a kind, names starting with what was typed first.
    for (let i = 0; i < 6; i++) await grace.client.post('/api/service-planner/songs', { title: `Old Zebedee ${i}` });
    const songs = (await search(grace, 'zebedee')).filter((r) => r.kind === 'song');
    expect(songs).toHaveLength(5);
    expect(songs[0]!.name).toBe('Zebedee hymn');

    expect((await new HttpClient(app.url).get('/trpc/search.everything?input=%7B%22q%22%3A%22ze%22%7D')).status).toBe(
      401,
    );
  });
});

describe('waiting.counts, waiting.bell and waiting.markAllRead', () => {
  /** A church with one of each thing that waits, written as the features write them. */
  async function busyChurch(name: string) {
    const church = await registerChurch(app.url, name);
    const db = ownerDb(app.db);
    const userId = church.user.id;
    const person = await addContact(church.client, { firstName: 'Ruth', lastName: 'Moab' });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await db
      .insertInto('tasks')
      .values([
        { userId, title: 'Call Ruth', dueOn: yesterday, contactId: person.id },
        { userId, title: 'Visit Ruth', dueOn: nextMonth, contactId: person.id },
        { userId, title: 'Done already', dueOn: yesterday, status: 'done' },
      ])
      .execute();
    await db
      .insertInto('conversations')
      .values([
        { userId, phoneE164: '+61412000001', contactId: person.id, unreadCount: 2, lastMessagePreview: 'Yes please' },
        { userId, phoneE164: '+61412000002', unreadCount: 0, lastMessagePreview: 'Thanks' },
      ])
      .execute();
    await db
      .insertInto('profileUpdateProposals')
      .values({
        userId,
        contactId: person.id,
        status: 'pending',
        changes: JSON.stringify({ email: { from: null, to: 'ruth@example.org' }, phone: { from: null, to: '0412' } }),
      })
      .execute();
    const endpoint = await db
      .insertInto('webhookEndpoints')
      .values({ userId, url: 'https://hooks.example.org/lampstand', secret: 'enc:v1:test', description: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('webhookDeliveries')
      .values({
        userId,
        endpointId: endpoint.id,
        type: 'contact.created',
        status: 'failed',
        attempts: 8,
        lastAttemptAt: new Date(),
      })
      .execute();
    return church;
  }

  it('counts what waits for the church: approvals, unread texts, tasks due, and the bell', async () => {
    const grace = await busyChurch('Grace Counts');
    await busyChurch('Hope Counts');
    expect(await query(grace.client, 'waiting.counts')).toEqual({
      profileUpdates: 1,
      conversations: 2,
      tasksDue: 1,
      // Two open tasks, a conversation, an approval and a failed delivery.
      bellUnread: 5,
    });
    const bell = await query(grace.client, 'waiting.bell');
    expect(bell.unread).toBe(5);
    const byKind = Object.fromEntries(
      (bell.items as { kind: string; title: string; detail: string; unread: boolean }[]).map((i) => [
        `${i.kind}:${i.title}`,
        i,
      ]),
    );
    expect(Object.keys(byKind).sort()).toEqual([
      'approval:Ruth Moab',
      'reply:Ruth Moab',
      'task:Call Ruth',
      'task:Visit Ruth',
      'webhook:Could not reach hooks.example.org',
    ]);
    expect(byKind['approval:Ruth Moab']!.detail).toBe('Changes Email, Phone');
    expect(byKind['reply:Ruth Moab']!.detail).toBe('Yes please');
    expect(byKind['webhook:Could not reach hooks.example.org']!.detail).toBe('Gave up after 8 tries');
    expect(Object.values(byKind).every((i) => i.unread)).toBe(true);
  });

  it('marks read per person: the church reading its bell leaves an administrator acting as it unread', async () => {
    const grace = await busyChurch('Grace Reads');
    const after = await mutate(grace.client, 'waiting.markAllRead');
    expect(after.bellUnread).toBe(0);
    // Read items stay listed, read; the badges still count what waits.
    const bell = await query(grace.client, 'waiting.bell');
    expect(bell.items).toHaveLength(5);
    expect(bell.items.every((i: { unread: boolean }) => !i.unread)).toBe(true);
    expect(await query(grace.client, 'waiting.counts')).toMatchObject({
      profileUpdates: 1,
      tasksDue: 1,
      bellUnread: 0,
    });

    // An administrator acting as the church has their own mark.
    const acting = new HttpClient(app.url);
    await acting.post('/api/login', { username: admin.user.username, password: admin.password });
    expect((await acting.post(`/api/admin/impersonate/${grace.user.id}`)).status).toBe(200);
    expect((await query(acting, 'waiting.counts')).bellUnread).toBe(5);

    // A new reply after the mark is unread again, for the church too.
    await ownerDb(app.db)
      .updateTable('conversations')
      .set({ unreadCount: 3, lastMessageAt: new Date(Date.now() + 1000), lastMessagePreview: 'One more thing' })
      .where('userId', '=', grace.user.id)
      .where('unreadCount', '>', 0)
      .execute();
    const again = await query(grace.client, 'waiting.bell');
    expect(again.unread).toBe(1);
    expect(again.items.filter((i: { unread: boolean }) => i.unread).map((i: { detail: string }) => i.detail)).toEqual([
      'One more thing',
    ]);
    expect((await query(grace.client, 'waiting.counts')).conversations).toBe(3);
  });
});
