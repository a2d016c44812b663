import { afterAll, describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { ownerDb, sql } from '@lampstand/db';
import {
  createWebhookPublisher,
  signSocialWebhook,
  SOCIAL_DRAIN_JOBS,
  verifySocialWebhook,
} from '@lampstand/api/server';
import { registerChurch, startTestApp, type HttpClient } from '../helpers/test-app.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

// Retries after 1 s, then 2 s; a post fails after its third try.
const app = await startTestApp(
  { publicUrl: 'http://lampstand.test' },
  { retryBaseSeconds: 1, maxAttempts: 3, socialWebhookAllowPrivate: true },
);
await registerChurch(app.url, 'Platform');

/** A receiver answering by the post's content: 'fail-once' 500 then 200, 'fail-always' 503, 'refuse' 422. */
const tries = new Map<string, number>();
const receiver = await startWebhookReceiver({
  answer: (_n, body) => {
    const content = String(body.post.content);
    const n = (tries.get(content) ?? 0) + 1;
    tries.set(content, n);
    if (content.startsWith('fail-once')) return n === 1 ? 500 : 200;
    if (content.startsWith('fail-always')) return 503;
    if (content.startsWith('refuse')) return 422;
    return 200;
  },
});
afterAll(() => receiver.close());

async function churchWithWebhook(name: string) {
  const church = await registerChurch(app.url, name);
  const res = await church.client.put('/api/social-settings', { webhookUrl: receiver.url });
  receiver.trust(res.body.webhookSecret);
  return church;
}
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** A post of `content` scheduled `seconds` from now, to Facebook unless `fields` say otherwise. */
async function schedulePost(
  client: HttpClient,
  content: string,
  seconds: number,
  fields: Record<string, unknown> = {},
) {
  const res = await client.post('/api/social-posts', {
    content,
    scheduledFor: inSeconds(seconds),
    platforms: ['facebook'],
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function waitForStatus(client: HttpClient, id: number, status: string, ms = 30_000) {
  const start = Date.now();
  for (;;) {
    const p = (await client.get(`/api/social-posts/${id}`)).body;
    if (p.status === status) return p;
    if (Date.now() - start > ms) throw new Error(`post ${id} is ${p.status} (${p.error})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** The pg-boss job remembered on a post, and its state. */
async function publishJob(postId: number) {
  const post = await app.db
    .selectFrom('socialPosts')
    .select('publishJobId')
    .where('id', '=', postId)
    .executeTakeFirst();
  const id = post?.publishJobId ?? null;
  return id ? { id, state: await jobState(id) } : null;
}
async function jobState(id: string) {
  const { rows } = await sql<{ state: string }>`select state from pgboss.job where id = ${id}::uuid`.execute(
    ownerDb(app.db),
  );
  return rows[0]?.state ?? null;
}
const receivedFor = (id: number) => receiver.all.filter((r) => r.body.post.id === id);

describe('Publishing social posts through the signed webhook', () => {
  it('publishes at the scheduled time, signed, with the post, and records posted and postedAt', async () => {
    const church = await churchWithWebhook('On Time Church');
    const at = inSeconds(2);
    const created = (
      await church.client.post('/api/social-posts', {
        content: 'Sunday service at 10am',
        scheduledFor: at,
        platforms: ['facebook', 'linkedin'],
        imageUrl: '/uploads/sunday.jpg',
        linkUrl: 'https://church.example/sunday',
        tags: ['sunday'],
      })
    ).body;
    const posted = await waitForStatus(church.client, created.id, 'posted');
    expect(posted.postedAt).not.toBeNull();
    expect(posted.error).toBeNull();
    const [got, ...more] = receivedFor(created.id);
    expect(more).toEqual([]);
    expect(got!.at).toBeGreaterThanOrEqual(Date.parse(at));
    expect(Date.parse(posted.postedAt)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(got!.body).toEqual({
      event: 'social_post.publish',
      idempotencyKey: `social-post-${created.id}-${Date.parse(at)}`,
      post: {
        id: created.id,
        content: 'Sunday service at 10am',
        platforms: ['facebook', 'linkedin'],
        imageUrl: 'http://lampstand.test/uploads/sunday.jpg',
        linkUrl: 'https://church.example/sunday',
        tags: ['sunday'],
        scheduledFor: at,
      },
      church: { id: church.user.id, name: 'On Time Church' },
      attempt: 1,
    });
    expect(got!.headers['idempotency-key']).toBe(`social-post-${created.id}-${Date.parse(at)}`);
    expect(got!.headers['x-lampstand-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(receiver.badSignatures).toBe(0);
    // The church's log says it was published (by the system, at its time).
    await eventsSettled(app.db);
    const log = (await church.client.get('/api/events?types=social_post.published,social_post.failed')).body.events;
    expect(log).toMatchObject([
      {
        type: 'social_post.published',
        contactId: null,
        actor: { kind: 'system', id: null },
        data: { post: { id: created.id, name: 'Sunday service at 10am' }, platforms: ['facebook', 'linkedin'] },
      },
    ]);
  });

  it('retries a failed call with backoff, then records it posted', async () => {
    const church = await churchWithWebhook('Retry Church');
    const created = await schedulePost(church.client, 'fail-once: youth night', 0.5, { platforms: ['instagram'] });
    const posted = await waitForStatus(church.client, created.id, 'posted');
    expect(posted).toMatchObject({ attempts: 2, error: null });
    const got = receivedFor(created.id);
    expect(got.map((r) => r.status)).toEqual([500, 200]);
    // The second try came after the backoff (1 s), not at once.
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('fails with the reason after the last retry', async () => {
    const church = await churchWithWebhook('Failing Church');
    const created = await schedulePost(church.client, 'fail-always: bake sale', 0.5);
    const failed = await waitForStatus(church.client, created.id, 'failed');
    // The church is told no more than this: the receiver's status and reply go to the server log.
    expect(failed.error).toBe('The address could not be reached');
    expect(failed.postedAt).toBeNull();
    expect(receivedFor(created.id)).toHaveLength(3);
    // The calendar's list carries the reason too.
    const listed = (await church.client.get('/api/social-posts')).body.find((p: { id: number }) => p.id === created.id);
    expect(listed.error).toBe(failed.error);
  });

  it('fails at once when the receiver refuses the post (4xx)', async () => {
    const church = await churchWithWebhook('Refused Church');
    const created = await schedulePost(church.client, 'refuse: too long for the receiver', 0.5, {
      platforms: ['twitter'],
    });
    const failed = await waitForStatus(church.client, created.id, 'failed');
    expect(failed.error).toBe('The address could not be reached');
    expect(receivedFor(created.id)).toHaveLength(1);
    await eventsSettled(app.db);
    const log = (await church.client.get('/api/events?types=social_post.published,social_post.failed')).body.events;
    expect(log.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      [
        'social_post.failed',
        {
          post: { id: created.id, name: 'refuse: too long for the receiver' },
          platforms: ['twitter'],
          reason: 'The address could not be reached',
        },
      ],
    ]);
  });

  it('publishes a moved post once, at its new time', async () => {
    const church = await churchWithWebhook('Moved Church');
    const created = await schedulePost(church.client, 'Moved: picnic', 2);
    const first = await publishJob(created.id);
    expect(first?.state).toBe('created');
    const later = inSeconds(5);
    const moved = await church.client.put(`/api/social-posts/${created.id}`, {
      content: 'Moved: picnic (new time)',
      scheduledFor: later,
      platforms: ['facebook'],
    });
    expect(moved.status).toBe(200);
    // The job for the old time is cancelled; a new one waits for the new time.
    expect(await jobState(first!.id)).toBe('cancelled');
    const second = await publishJob(created.id);
    expect(second?.id).not.toBe(first!.id);
    expect(second?.state).toBe('created');
    const posted = await waitForStatus(church.client, created.id, 'posted');
    const got = receivedFor(created.id);
    expect(got).toHaveLength(1);
    expect(got[0]!.at).toBeGreaterThanOrEqual(Date.parse(later));
    expect(got[0]!.body.post.content).toBe('Moved: picnic (new time)');
    expect(Date.parse(posted.postedAt)).toBeGreaterThanOrEqual(Date.parse(later));
  });

  it('does not publish a post deleted before its time, nor a draft', async () => {
    const church = await churchWithWebhook('Deleted Church');
    const doomed = await schedulePost(church.client, 'Deleted: never goes out', 1.5);
    const draft = await schedulePost(church.client, 'Draft: not yet', 1.5, { status: 'draft' });
    expect(await publishJob(draft.id)).toBeNull(); // a draft has no job
    const job = await publishJob(doomed.id);
    expect(job?.state).toBe('created');
    expect((await church.client.delete(`/api/social-posts/${doomed.id}`)).status).toBe(200);
    expect(await jobState(job!.id)).toBe('cancelled');
    // A later post of the same church going out shows the jobs ran past the deleted one's time.
    const marker = await schedulePost(church.client, 'Marker after the deleted one', 3);
    await waitForStatus(church.client, marker.id, 'posted');
    await app.runtime.runner.sweep();
    await new Promise((r) => setTimeout(r, 1000));
    expect(receivedFor(doomed.id)).toEqual([]);
    expect(receivedFor(draft.id)).toEqual([]);
    expect((await church.client.get(`/api/social-posts/${draft.id}`)).body.status).toBe('draft');
  });

  it('leaves posts scheduled while no webhook is set, and publishes the due ones once it is', async () => {
    const church = await registerChurch(app.url, 'No Hook Church');
    const created = await schedulePost(church.client, 'Waiting for a webhook', 0.5);
    await new Promise((r) => setTimeout(r, 1500));
    await app.runtime.runner.sweep();
    const waiting = (await church.client.get(`/api/social-posts/${created.id}`)).body;
    expect(waiting).toMatchObject({ status: 'scheduled', attempts: 0, error: null });
    expect(receivedFor(created.id)).toEqual([]);
    // A drain job that has just run (as another church's sweep would have) does not hold back the
    // one setting the webhook asks for.
    const drained = await app.deps.jobs.send('social-post-drain', {}, { singletonKey: 'social-drain-0' });
    await expect.poll(() => jobState(drained!)).toBe('completed');

    const res = await church.client.put('/api/social-settings', { webhookUrl: receiver.url });
    receiver.trust(res.body.webhookSecret);
    await waitForStatus(church.client, created.id, 'posted', 15_000);
    expect(receivedFor(created.id)).toHaveLength(1);
  });

  it('publishes many posts due at once with a few jobs that drain them together, each post once', async () => {
    const church = await registerChurch(app.url, 'Many Posts Church');
    // Forty posts already due and with no job coming (as if their jobs were lost).
    const { rows } = await sql<{ id: number }>`
      insert into social_posts (user_id, content, scheduled_for, platforms, status)
      select ${church.user.id}, 'Batch ' || g, now() - interval '1 second', array['facebook'], 'scheduled'
      from generate_series(1, 40) g returning id`.execute(ownerDb(app.db));
    const since = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(ownerDb(app.db));
    const res = await church.client.put('/api/social-settings', { webhookUrl: receiver.url });
    receiver.trust(res.body.webhookSecret);
    for (const r of rows) await waitForStatus(church.client, r.id, 'posted');
    for (const r of rows) expect(receivedFor(r.id)).toHaveLength(1);
    // The sweep the webhook started queued a handful of drain jobs for all of them, not one per post:
    // at most SOCIAL_DRAIN_JOBS, one waiting per key. (On a loaded machine the forty posts can take
    // longer than a minute, and the minute's sweep may then queue a few more behind running ones.)
    const jobs = await sql<{ n: number; perPost: number }>`
      select count(*)::int as n,
        count(*) filter (where data->>'postId' is not null)::int as "perPost"
      from pgboss.job
      where name in ('social-post-drain', 'social-post-publish') and created_on >= ${since.rows[0]!.now}`.execute(
      ownerDb(app.db),
    );
    expect(jobs.rows[0]!.perPost).toBe(0);
    expect(jobs.rows[0]!.n).toBeGreaterThan(0);
    expect(jobs.rows[0]!.n).toBeLessThanOrEqual(SOCIAL_DRAIN_JOBS * 2);
  });
});

describe('A post being published', () => {
  it('cannot be edited or deleted until the receiver has answered (409), then is posted', async () => {
    const church = await churchWithWebhook('In Flight Church');
    receiver.hold();
    try {
      // Counted before the post exists: its request can arrive before schedulePost's answer does (it
      // did on a loaded machine), and waiting for one more then waited for the retry after the timeout.
      const before = receiver.all.length;
      const created = await schedulePost(church.client, 'In flight: harvest festival', 0.2);
      await receiver.arrived(before + 1);
      const edit = await church.client.put(`/api/social-posts/${created.id}`, {
        content: 'In flight: changed',
        scheduledFor: created.scheduledFor,
        platforms: ['facebook'],
      });
      expect(edit.status).toBe(409);
      expect(edit.body.message).toBe('This post is being published right now; try again in a moment');
      expect((await church.client.delete(`/api/social-posts/${created.id}`)).status).toBe(409);
      receiver.resume();
      await waitForStatus(church.client, created.id, 'posted');
      expect(receivedFor(created.id).map((r) => r.body.post.content)).toEqual(['In flight: harvest festival']);
    } finally {
      receiver.resume();
    }
  });
});

describe('Webhook signatures', () => {
  it('verify with the right secret only, and not when stale', () => {
    const body = '{"post":{"id":1}}';
    const ts = Math.floor(Date.now() / 1000);
    const signature = signSocialWebhook('s3cret', ts, body);
    expect(verifySocialWebhook('s3cret', { signature, timestamp: String(ts) }, body)).toBe(true);
    expect(verifySocialWebhook('other', { signature, timestamp: String(ts) }, body)).toBe(false);
    expect(verifySocialWebhook('s3cret', { signature, timestamp: String(ts) }, `${body} `)).toBe(false);
    expect(verifySocialWebhook('s3cret', { signature, timestamp: String(ts - 600) }, body)).toBe(false);
  });

  it('refuse private and loopback addresses unless allowed (by IP and by name)', async () => {
    const publisher = createWebhookPublisher();
    const req = { secret: 'x', body: '{}', idempotencyKey: 'k' };
    await expect(publisher.publish({ ...req, url: receiver.url })).rejects.toMatchObject({
      message: 'The address could not be reached',
      permanent: true,
    });
    const byName = receiver.url.replace('127.0.0.1', 'localhost');
    await expect(publisher.publish({ ...req, url: byName })).rejects.toMatchObject({
      message: 'The address could not be reached',
      permanent: true,
    });
    await expect(publisher.publish({ ...req, url: 'http://169.254.169.254/latest/meta-data' })).rejects.toMatchObject({
      permanent: true,
    });
  });
});
