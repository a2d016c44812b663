import { afterAll, describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';

const sink = await startSmtpSink();
afterAll(() => sink.close());
const app = await startTestApp(
  { emailSmtpUrl: sink.url, emailFrom: 'Lampstand <news@lampstand.test>', publicUrl: 'http://lampstand.test' },
  { retryBaseSeconds: 1 },
);
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
await grace.client.put('/api/settings', { postalAddress: '1 Church St\nSpringfield NSW 2000' });

let n = 0;
async function person(church: typeof grace, o: Record<string, unknown> = {}) {
  n++;
  return (
    await church.client.post('/api/contacts', {
      firstName: `First${n}`,
      lastName: `Last${n}`,
      email: `person${n}@example.org`,
      phone: '0412345678',
      ...o,
    })
  ).body;
}
async function listWith(church: typeof grace, contacts: { id: number }[], type = 'both') {
  const list = (await church.client.post('/api/contact-lists', { name: `List ${++n}`, type })).body;
  for (const c of contacts) await church.client.post(`/api/contact-lists/${list.id}/contacts/${c.id}`);
  return list;
}
async function waitForStatus(client: HttpClient, id: number, status: string, timeoutMs = 20_000) {
  const start = Date.now();
  for (;;) {
    const c = (await client.get(`/api/email-campaigns/${id}`)).body;
    if (c.status === status) return c;
    if (Date.now() - start > timeoutMs) throw new Error(`campaign ${id} is ${c.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const campaign = (o: Record<string, unknown> = {}) => ({
  name: 'Easter Sunday',
  subject: 'Join us this Easter, {{firstName}}',
  content:
    '<p>Hi {{firstName}} {{lastName}},</p><p>{{churchName}} invites you. <a href="https://example.org/easter?x=1&amp;y=2">Details</a></p><script>alert(1)</script>',
  status: 'draft',
  listIds: [],
  ...o,
});

describe('email campaign API', () => {
  it('creates a draft, sanitizes the HTML, lists and filters by tab, updates and deletes', async () => {
    const list = await listWith(grace, []);
    const created = await grace.client.post('/api/email-campaigns', campaign({ listIds: [list.id] }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'draft',
      listIds: [list.id],
      scheduledFor: null,
      sentAt: null,
      userId: grace.user.id,
    });
    expect(created.body.content).not.toContain('<script>');
    expect(created.body.content).toContain('href="https://example.org/easter?x=1&amp;y=2"');

    const drafts = await grace.client.get('/api/email-campaigns?status=draft');
    expect(drafts.body.map((c: { id: number }) => c.id)).toContain(created.body.id);
    expect(
      (await grace.client.get('/api/email-campaigns?status=sent')).body.map((c: { id: number }) => c.id),
    ).not.toContain(created.body.id);

    const updated = await grace.client.put(
      `/api/email-campaigns/${created.body.id}`,
      campaign({ name: 'Renamed', listIds: [list.id] }),
    );
    expect(updated.body.name).toBe('Renamed');
    expect((await grace.client.delete(`/api/email-campaigns/${created.body.id}`)).status).toBe(200);
    expect((await grace.client.get(`/api/email-campaigns/${created.body.id}`)).status).toBe(404);
  });

  it('validates with the spec messages', async () => {
    const noContent = await grace.client.post('/api/email-campaigns', campaign({ content: ' ' }));
    expect(noContent.status).toBe(400);
    expect(noContent.body.message).toBe('Email content is required');
    const noName = await grace.client.post('/api/email-campaigns', campaign({ name: '' }));
    expect(noName.body.message).toBe('Campaign name is required');
    const past = await grace.client.post(
      '/api/email-campaigns',
      campaign({
        status: 'scheduled',
        scheduledFor: '2020-01-01T10:00:00Z',
        listIds: [(await listWith(grace, [])).id],
      }),
    );
    expect(past.status).toBe(400);
    expect(past.body.issues[0]).toEqual({
      path: 'scheduledFor',
      message: 'Please choose a date and time in the future',
    });
    const sentStatus = await grace.client.post('/api/email-campaigns', campaign({ status: 'sent' }));
    expect(sentStatus.status).toBe(400);
    const badTest = await grace.client.post('/api/email-campaigns/test', {
      testEmail: '',
      subject: 'x',
      content: '<p>x</p>',
    });
    expect(badTest.body.message).toBe('Please enter a valid email address');
  });

  it("hides another church's campaigns and refuses its lists", async () => {
    const theirs = (await hope.client.post('/api/email-campaigns', campaign())).body;
    expect((await grace.client.get(`/api/email-campaigns/${theirs.id}`)).status).toBe(404);
    expect((await grace.client.put(`/api/email-campaigns/${theirs.id}`, campaign())).status).toBe(404);
    expect((await grace.client.delete(`/api/email-campaigns/${theirs.id}`)).status).toBe(404);
    expect((await grace.client.post(`/api/email-campaigns/${theirs.id}/send`)).status).toBe(404);
    expect((await grace.client.get(`/api/email/campaigns/${theirs.id}/stats`)).status).toBe(404);
    const theirList = await listWith(hope, []);
    expect((await grace.client.post('/api/email-campaigns', campaign({ listIds: [theirList.id] }))).status).toBe(404);
    expect((await new HttpClient(app.url).get('/api/email-campaigns')).status).toBe(401);
  });

  it('really sends a test email', async () => {
    const before = sink.messages.length;
    const res = await grace.client.post('/api/email-campaigns/test', {
      testEmail: grace.user.email,
      subject: 'Hello {{firstName}}',
      content: '<p>Test for {{churchName}}</p>',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, to: grace.user.email, message: `Sent to ${grace.user.email}.` });
    await sink.waitFor(before + 1);
    const msg = sink.messages[before]!;
    expect(msg.envelopeTo).toEqual([grace.user.email]);
    expect(msg.parsed.subject).toMatch(/^\[Test\] Hello /);
    expect(msg.parsed.html).toContain('Test for Grace Church');
  });
});

describe('test emails are no open relay', () => {
  it('go only to the account email or a contact', async () => {
    const outside = await grace.client.post('/api/email-campaigns/test', {
      testEmail: 'victim@elsewhere.example',
      subject: 'Buy now',
      content: '<p>Spam</p>',
    });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('Test emails go to your account email or to one of your contacts');
    expect(outside.body.issues[0].path).toBe('testEmail');
  });

  it('at most 20 an hour per church', async () => {
    const church = await registerChurch(app.url, 'Busy Church');
    const send = () =>
      church.client.post('/api/email-campaigns/test', {
        testEmail: church.user.email,
        subject: 's',
        content: '<p>x</p>',
      });
    for (let i = 1; i <= 20; i++) expect((await send()).status, `test email ${i}`).toBe(200);
    const next = await send();
    expect(next.status).toBe(429);
    expect(next.body.message).toBe('At most 20 test emails an hour. Please try again later.');
  });
});

describe('sending over SMTP', () => {
  it('snapshots subscribed recipients once per address, fills merge tags, adds unsubscribe headers and footer, then tracks', async () => {
    const ann = await person(grace, { firstName: 'Ann', lastName: "O'Neil", email: 'ann@example.org' });
    const annAgain = await person(grace, { firstName: 'Annie', email: 'ANN@example.org' }); // same address
    const ben = await person(grace, { firstName: 'Ben', email: 'ben@example.org' });
    const una = await person(grace, { firstName: 'Una', email: 'una@example.org' });
    await grace.client.put(`/api/contacts/${una.id}/consent`, { channel: 'email', status: 'unsubscribed' });
    const list = await listWith(grace, [ann, annAgain, ben, una]);
    const other = await listWith(grace, [ben]); // Ben is in both lists: still one message

    // The confirmation's count is the send's own: the same people, counted before anything goes out.
    const count = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [list.id, other.id] });
    expect(count.status).toBe(200);
    expect(count.body.recipients).toBe(2);
    expect(count.body.lists.map((l: { id: number }) => l.id).sort()).toEqual([list.id, other.id].sort());

    const c = (await grace.client.post('/api/email-campaigns', campaign({ listIds: [list.id, other.id] }))).body;
    const before = sink.messages.length;
    const sent = await grace.client.post(`/api/email-campaigns/${c.id}/send`);
    expect(sent.status).toBe(200);
    // Two messages can be out before the answer is read back, so 'sent' is as right as 'sending'.
    expect(sent.body.recipientCount).toBe(2);
    expect(['sending', 'sent']).toContain(sent.body.status);
    const done = await waitForStatus(grace.client, c.id, 'sent');
    expect(done.progress).toEqual({ total: 2, sent: 2, failed: 0, pending: 0 });
    expect(done.sentAt).toBeTruthy();

    const mine = sink.messages.slice(before);
    expect(mine.map((m) => m.envelopeTo[0]).sort()).toEqual(['ann@example.org', 'ben@example.org']);
    const toAnn = mine.find((m) => m.envelopeTo[0] === 'ann@example.org')!;
    expect(toAnn.parsed.subject).toBe('Join us this Easter, Ann');
    expect(toAnn.parsed.from?.text).toBe('"Grace Church" <news@lampstand.test>');
    // The name filled into the sanitized content, escaped where it stands (the apostrophe an
    // entity, shown as one); the text part has it as typed.
    expect(toAnn.parsed.html).toContain('Hi Ann O&#39;Neil,');
    expect(toAnn.parsed.text).toContain("Hi Ann O'Neil,");
    expect(toAnn.parsed.html).toContain('Grace Church invites you.');
    expect(toAnn.parsed.html).toContain('1 Church St<br>Springfield NSW 2000');
    expect(toAnn.parsed.html).not.toContain('https://example.org/easter?x=1&amp;y=2"'); // rewritten through the tracker
    expect(toAnn.parsed.text).toContain('Unsubscribe: http://lampstand.test/u/');
    const listUnsub = toAnn.header('list-unsubscribe')!;
    expect(listUnsub).toMatch(/http:\/\/lampstand\.test\/u\/[a-f0-9]{64}/);
    expect(toAnn.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    // Open pixel and tracked click, through the real server.
    const local = (u: string) => u.replace('http://lampstand.test', app.url);
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(toAnn.parsed.html as string)![1]!.replace(/&amp;/g, '&');
    const px = await fetch(local(pixel));
    expect(px.status).toBe(200);
    expect(px.headers.get('content-type')).toBe('image/gif');
    const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(toAnn.parsed.html as string)![1]!.replace(/&amp;/g, '&');
    const click = await fetch(local(link), { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://example.org/easter?x=1&y=2');
    const forged = await fetch(local(link).replace(/u=[^&]+/, `u=${encodeURIComponent('https://evil.example')}`), {
      redirect: 'manual',
    });
    expect(forged.status).toBe(404);

    // One-click unsubscribe (RFC 8058), no login.
    const unsubUrl = local(/<([^>]+)>/.exec(listUnsub)![1]!);
    const post = await fetch(unsubUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    const annNow = (await grace.client.get(`/api/contacts/${ann.id}`)).body;
    expect(annNow.consent.email).toMatchObject({ status: 'unsubscribed', source: 'one-click unsubscribe' });

    const stats = await grace.client.get(`/api/email/campaigns/${c.id}/stats`);
    expect(stats.body).toEqual({ recipients: 2, sent: 2, opened: 1, clicked: 1, bounced: 0, unsubscribed: 1 });

    // The send, the first open, the click and the unsubscribe are Ann's events.
    await fetch(local(pixel)); // a second load is counted, not news
    const timeline = (await grace.client.get(`/api/contacts/${ann.id}/events?limit=6`)).body.events;
    const ref = { id: c.id, name: 'Easter Sunday' };
    expect(timeline.map((e: { type: string; actor: { kind: string } }) => [e.type, e.actor.kind])).toEqual([
      ['email.unsubscribed', 'public'],
      ['consent.changed', 'public'],
      ['email.clicked', 'public'],
      ['email.opened', 'public'],
      ['email.sent', 'system'],
      ['list.member_added', 'user'],
    ]);
    expect(timeline[2].data).toMatchObject({ campaign: ref, url: 'https://example.org/easter?x=1&y=2' });
    expect(timeline[4].data).toMatchObject({
      person: { name: "Ann O'Neil", email: 'ann@example.org' },
      campaign: ref,
      deliveryId: expect.any(Number),
    });
    expect(timeline[1].data).toMatchObject({
      channel: 'email',
      from: 'subscribed',
      to: 'unsubscribed',
      reason: 'one-click unsubscribe',
    });
    await eventsSettled(app.db);
    const sentEvents = (await grace.client.get('/api/events?types=campaign.sent')).body.events;
    expect(sentEvents.map((e: { data: unknown }) => e.data)).toContainEqual({
      campaign: ref,
      channel: 'email',
      recipients: 2,
    });

    // The next campaign skips Ann.
    const next = (await grace.client.post('/api/email-campaigns', campaign({ listIds: [list.id] }))).body;
    const before2 = sink.messages.length;
    await grace.client.post(`/api/email-campaigns/${next.id}/send`);
    await waitForStatus(grace.client, next.id, 'sent');
    expect(sink.messages.slice(before2).map((m) => m.envelopeTo[0])).toEqual(['ben@example.org']);

    // Sent campaigns cannot be edited or sent again.
    expect((await grace.client.put(`/api/email-campaigns/${c.id}`, campaign({ listIds: [list.id] }))).status).toBe(409);
    expect((await grace.client.post(`/api/email-campaigns/${c.id}/send`)).status).toBe(409);
  });

  it('the unsubscribe link asks first, then unsubscribes', async () => {
    const zoe = await person(grace, { firstName: 'Zoe', email: 'zoe@example.org' });
    const list = await listWith(grace, [zoe]);
    const c = (await grace.client.post('/api/email-campaigns', campaign({ listIds: [list.id] }))).body;
    const before = sink.messages.length;
    await grace.client.post(`/api/email-campaigns/${c.id}/send`);
    await sink.waitFor(before + 1);
    const url = /Unsubscribe: (\S+)/
      .exec(sink.messages[before]!.parsed.text!)![1]!
      .replace('http://lampstand.test', app.url);
    const page = await fetch(url);
    expect(await page.text()).toContain('<button type="submit">Unsubscribe</button>');
    expect((await grace.client.get(`/api/contacts/${zoe.id}`)).body.consent.email.status).toBe('subscribed');
    const confirm = await fetch(url, { method: 'POST' });
    expect(await confirm.text()).toContain('You are unsubscribed');
    expect((await grace.client.get(`/api/contacts/${zoe.id}`)).body.consent.email).toMatchObject({
      status: 'unsubscribed',
      source: 'unsubscribe link',
    });
  });

  it('refuses to send to nobody', async () => {
    const empty = await listWith(grace, []);
    const c = (await grace.client.post('/api/email-campaigns', campaign({ listIds: [empty.id] }))).body;
    const res = await grace.client.post(`/api/email-campaigns/${c.id}/send`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Nobody to send to: the list has no subscribed contacts with an email address');
    expect((await grace.client.get(`/api/email-campaigns/${c.id}`)).body.status).toBe('draft');
  });

  it('starts a scheduled campaign at its time', async () => {
    const sam = await person(grace, { firstName: 'Sam', email: 'sam@example.org' });
    const list = await listWith(grace, [sam]);
    const at = new Date(Date.now() + 2500).toISOString();
    const c = (
      await grace.client.post(
        '/api/email-campaigns',
        campaign({ status: 'scheduled', scheduledFor: at, listIds: [list.id] }),
      )
    ).body;
    expect(c).toMatchObject({ status: 'scheduled', scheduledFor: at });
    expect(
      (await grace.client.get('/api/email-campaigns?status=scheduled')).body.map((x: { id: number }) => x.id),
    ).toContain(c.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await grace.client.get(`/api/email-campaigns/${c.id}`)).body.status).toBe('scheduled');
    const done = await waitForStatus(grace.client, c.id, 'sent', 15_000);
    expect(new Date(done.startedAt).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime() - 50);
    expect(sink.counts().get('sam@example.org')).toBe(1);
  });
});

describe('POST /api/email-campaigns/recipient-count', () => {
  it('counts subscribed contacts with an email once per address, names the lists, and sends nothing', async () => {
    const withEmail = await person(grace, { email: 'count-a@example.org' });
    const noEmail = await person(grace, { email: '' });
    const gone = await person(grace, { email: 'count-b@example.org' });
    await grace.client.put(`/api/contacts/${gone.id}/consent`, { channel: 'email', status: 'unsubscribed' });
    const list = await listWith(grace, [withEmail, noEmail, gone]);
    const empty = await listWith(grace, []);
    const before = sink.messages.length;
    const res = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [list.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ recipients: 1, lists: [{ id: list.id, name: list.name }] });
    const none = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [empty.id] });
    expect(none.body.recipients).toBe(0);
    expect(sink.messages.length).toBe(before);
  });

  it("answers 404 for another church's list, 400 without lists, 401 signed out", async () => {
    const theirs = await listWith(hope, []);
    const mine = await listWith(grace, []);
    const other = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [mine.id, theirs.id] });
    expect(other.status).toBe(404);
    const bad = await grace.client.post('/api/email-campaigns/recipient-count', { listIds: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please select a contact list');
    expect((await grace.client.post('/api/email-campaigns/recipient-count', { listIds: ['x'] })).status).toBe(400);
    const anon = await new HttpClient(app.url).post('/api/email-campaigns/recipient-count', { listIds: [mine.id] });
    expect(anon.status).toBe(401);
  });
});
