import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch, type HttpClient } from '../helpers/test-app.js';
import { startTestApp } from '../helpers/test-app.js';
import { refuseBadAndFlakyOnce, startSmtpSink } from '../helpers/smtp-sink.js';

// Planner requests are deliveries of the one engine, like campaign mail: the same
// claim, rate slot, retry with backoff, daily limit and failure reason.
// flaky@ is refused once (451, temporary), then accepted; bad@ is refused for good (550).
const refusals = refuseBadAndFlakyOnce();
const sink = await startSmtpSink({
  ignoreTo: /^office_/, // each registered church's verification email
  rejectTo: refusals.rejectTo,
});
afterAll(() => sink.close());
const app = await startTestApp(
  { emailSmtpUrl: sink.url },
  { retryBaseSeconds: 1, emailRatePerSecond: 1000, unverifiedDailyRecipients: 3 },
);
await registerChurch(app.url, 'Platform');
const BASE = '/api/service-planner';

/** Polls `read` until `done` holds, at most 20 s; returns the last value read. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function planWith(client: HttpClient, emails: string[]) {
  const plan = (await client.post(`${BASE}/plans`, { title: 'Sunday Service', date: '2030-03-03', startTime: '10:00' }))
    .body;
  for (const email of emails) {
    const m = (await client.post(`${BASE}/members`, { name: email.split('@')[0], email })).body;
    expect((await client.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: m.id })).status).toBe(201);
  }
  return plan as { id: number };
}

const deliveriesOf = (planId: number) =>
  app.db
    .selectFrom('deliveries')
    .select(['address', 'status', 'attempts', 'lastError', 'kind', 'campaignId', 'assignmentId'])
    .where('servicePlanId', '=', planId)
    .orderBy('address')
    .execute();

describe('planner requests through the delivery engine', () => {
  it('retries a temporary SMTP refusal with backoff, then delivers; each press sends once', async () => {
    const church = await registerChurch(app.url, 'Grace');
    const plan = await planWith(church.client, ['good@example.org', 'flaky@example.org']);
    const presses = await Promise.all([1, 2].map(() => church.client.post(`${BASE}/plans/${plan.id}/send-requests`)));
    expect(presses.map((p) => p.status)).toEqual([200, 200]);
    expect(presses.reduce((n, p) => n + (p.body.sent as number), 0)).toBe(2);
    const rows = await until(
      () => deliveriesOf(plan.id),
      (r) => r.every((d) => d.status === 'sent'),
    );
    expect(rows.map((r) => [r.address, r.kind, r.status, r.attempts, r.campaignId])).toEqual([
      ['flaky@example.org', 'planner-request', 'sent', 2, null],
      ['good@example.org', 'planner-request', 'sent', 1, null],
    ]);
    expect(refusals.refused('flaky@example.org')).toBe(1);
    // Accepted once each: the retry did not send good@ again, the second press sent nobody again.
    expect(sink.counts().get('flaky@example.org')).toBe(1);
    expect(sink.counts().get('good@example.org')).toBe(1);
    const mail = sink.messages.find((m) => m.envelopeTo.includes('flaky@example.org'))!;
    expect(mail.parsed.subject).toBe('Can you serve on Sunday, March 3, 2030?');
    expect(mail.parsed.text).toMatch(/Accept: http:\/\/[^\s]+\/serve\/[A-Za-z0-9_-]+\?answer=accept/);
    // Paced by the email rate slots every campaign send takes.
    const slots = await app.db.selectFrom('rateSlots').select('used').where('bucket', '=', 'email').execute();
    expect(slots.reduce((n, s) => n + s.used, 0)).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('a request refused for good shows the reason on the assignment, and the next press asks again', async () => {
    const church = await registerChurch(app.url, 'Hope');
    const plan = await planWith(church.client, ['bad@example.org']);
    expect((await church.client.post(`${BASE}/plans/${plan.id}/send-requests`)).body.sent).toBe(1);
    const a = await until(
      async () => (await church.client.get(`${BASE}/plans/${plan.id}`)).body.assignments[0],
      (x) => x.requestError !== null,
    );
    expect(a.requestedAt).toBeNull();
    expect(a.requestError).toMatch(/550|No such user/);
    expect((await deliveriesOf(plan.id)).map((d) => [d.status, d.attempts])).toEqual([['failed', 1]]);
    // Asked again: a new delivery, the reason cleared while it is on its way (the mail server holds
    // its answer meanwhile, so the worker cannot fail it again before we look).
    sink.pauseRecipients();
    try {
      expect((await church.client.post(`${BASE}/plans/${plan.id}/send-requests`)).body.sent).toBe(1);
      const again = (await church.client.get(`${BASE}/plans/${plan.id}`)).body.assignments[0];
      expect(again.requestError).toBeNull();
      expect(again.requestedAt).not.toBeNull();
      expect(await deliveriesOf(plan.id)).toHaveLength(2);
    } finally {
      sink.resumeRecipients();
    }
    // Refused for good again: the reason is back.
    const refusedAgain = await until(
      async () => (await church.client.get(`${BASE}/plans/${plan.id}`)).body.assignments[0],
      (x) => x.requestError !== null,
    );
    expect(refusedAgain.requestError).toMatch(/550|No such user/);
  }, 30_000);

  it("counts requests against an unverified church's daily limit, refused with the campaign's 429 when over", async () => {
    const church = await registerChurch(app.url, 'Zion');
    const plan = await planWith(church.client, ['z1@example.org', 'z2@example.org']);
    expect((await church.client.post(`${BASE}/plans/${plan.id}/send-requests`)).status).toBe(200);
    expect((await church.client.get('/api/account/status')).body).toMatchObject({ usedLast24h: 2, remaining: 1 });

    const more = await planWith(church.client, ['z3@example.org', 'z4@example.org']);
    const refused = await church.client.post(`${BASE}/plans/${more.id}/send-requests`);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message:
        'These requests would reach 2 people, but until your account email is verified your church can send to at ' +
        'most 3 people a day (2 in the last 24 hours, 1 left). Verify your email on the Account page to lift this limit.',
    });
    // Nothing queued, nobody marked asked: the next press (tomorrow, or once verified) asks them.
    expect(await deliveriesOf(more.id)).toEqual([]);
    const assignments = (await church.client.get(`${BASE}/plans/${more.id}`)).body.assignments;
    expect(assignments.map((x: { requestedAt: string | null }) => x.requestedAt)).toEqual([null, null]);

    // And a campaign of the same church sees the requests' usage.
    const list = (await church.client.post('/api/contact-lists', { name: 'All' })).body;
    const contacts = await app.db
      .insertInto('contacts')
      .values(
        ['c1@example.org', 'c2@example.org'].map((email) => ({
          userId: church.user.id,
          firstName: 'C',
          lastName: email,
          email,
          emailConsent: 'subscribed' as const,
        })),
      )
      .returning('id')
      .execute();
    await app.db
      .insertInto('contactsInLists')
      .values(contacts.map((c) => ({ userId: church.user.id, contactId: c.id, listId: list.id })))
      .execute();
    const campaign = (
      await church.client.post('/api/email-campaigns', {
        name: 'N',
        subject: 'S',
        content: '<p>Hello</p>',
        listIds: [list.id],
      })
    ).body;
    const campaignRefused = await church.client.post(`/api/email-campaigns/${campaign.id}/send`);
    expect(campaignRefused.status).toBe(429);
    expect(campaignRefused.body.message).toContain('This campaign would reach 2 people');
  }, 30_000);
});
