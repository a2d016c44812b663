import { describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, portalMessagesSent } from '../helpers/portal.js';

// The public group finder at /c/{handle}/groups: its filters, what it never shows (the address,
// the leaders, a point finer than the suburb), 'Ask to join' for each way of joining, the
// per-address limit, and another church's group.
const app = await startTestApp({ mapTileUrl: 'https://tiles.test/{z}/{x}/{y}.png' });
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const handle = await giveHandle(app.db, grace.user.id, 'grace-finder');
await giveHandle(app.db, hope.user.id, 'hope-finder');
const g = grace.client;

const leader = await addContact(g, { firstName: 'Lydia', lastName: 'Leader', email: 'lydia.f@example.org' });
const member = await addContact(g, { firstName: 'Mo', lastName: 'Member', email: 'mo.f@example.org' });
const create = async (client: typeof g, fields: Record<string, unknown>) => {
  const res = await client.post('/api/groups', fields);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
};
const tuesday = await create(g, {
  name: 'Tuesday Night',
  type: 'Small group',
  frequency: 'weekly',
  weekday: 2,
  time: '19:00',
  address: '12 Hidden Lane',
  area: 'Northside',
  areaPrecision: 'suburb',
  latitude: -33.871234,
  longitude: 151.209876,
  tags: ['kid-friendly'],
  joinMode: 'open',
  leaderContactIds: [leader.id],
});
const thursday = await create(g, {
  name: 'Thursday Class',
  type: 'Class',
  frequency: 'weekly',
  weekday: 4,
  address: '7 Secret Street',
  area: 'Westfield',
  areaPrecision: 'none',
  latitude: -33.9,
  longitude: 151.1,
  tags: ['Spanish'],
  joinMode: 'request',
});
const full = await create(g, {
  name: 'Full House',
  frequency: 'by_arrangement',
  capacity: 1,
  joinMode: 'open',
  area: 'Northside',
  leaderContactIds: [leader.id],
});
const closed = await create(g, { name: 'Closed Team', type: 'Team', frequency: 'by_arrangement', joinMode: 'closed' });
const archived = await create(g, { name: 'Old Group', frequency: 'by_arrangement', joinMode: 'open' });
await g.delete(`/api/groups/${archived.id}`);
await g.post(`/api/groups/${thursday.id}/members`, { contactIds: [member.id] });
const hopeGroup = await create(hope.client, { name: 'Hope Group', frequency: 'by_arrangement', joinMode: 'open' });

const get = async (path: string) => {
  const res = await fetch(app.url + path, { redirect: 'manual' });
  return { status: res.status, text: await res.text(), headers: res.headers };
};
const ask = async (groupId: number, fields: Record<string, string>, h = handle) => {
  const res = await fetch(`${app.url}/c/${h}/groups/${groupId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
};
/** The names of the groups listed (each card's heading). */
const listed = (html: string) => [...html.matchAll(/<li><h2>([^<]+)<\/h2>/g)].map((m) => m[1]);
const requestOf = (email: string) =>
  app.db
    .selectFrom('groupJoinRequests')
    .select(['status', 'contactId', 'groupId'])
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const memberOf = (groupId: number, contactId: number) =>
  app.db
    .selectFrom('groupMembers')
    .select(['role', 'leftOn'])
    .where('groupId', '=', groupId)
    .where('contactId', '=', contactId)
    .executeTakeFirst();
const emailTo = async (to: string) => {
  await portalMessagesSent(app.db);
  return app.db
    .selectFrom('outboxMessages')
    .select(['subject', 'text'])
    .where('toAddress', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirst();
};

describe('the public group finder', () => {
  it('lists the church’s active groups and filters by day, type, tag and area', async () => {
    const all = await get(`/c/${handle}/groups`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toContain('text/html');
    expect(listed(all.text)).toEqual(['Tuesday Night', 'Thursday Class', 'Closed Team', 'Full House']);
    expect(all.text).not.toContain('Old Group');
    expect(all.text).not.toContain('Hope Group');
    expect(all.text).toContain('<p role="status">4 groups</p>');
    expect(all.text).toContain('Tuesdays at 7:00 PM');
    expect(listed((await get(`/c/${handle}/groups?day=2`)).text)).toEqual(['Tuesday Night']);
    expect(listed((await get(`/c/${handle}/groups?day=4`)).text)).toEqual(['Thursday Class']);
    expect(listed((await get(`/c/${handle}/groups?type=class`)).text)).toEqual(['Thursday Class']);
    expect(listed((await get(`/c/${handle}/groups?tag=Kid-Friendly`)).text)).toEqual(['Tuesday Night']);
    expect(listed((await get(`/c/${handle}/groups?area=Northside`)).text)).toEqual(['Tuesday Night', 'Full House']);
    // A group showing no area is never found by its area.
    expect(listed((await get(`/c/${handle}/groups?area=Westfield`)).text)).toEqual([]);
    const none = await get(`/c/${handle}/groups?day=2&type=Class`);
    expect(none.text).toContain('No group matches these choices');
    // The filters offer what the groups have, and keep the choice.
    expect(all.text).toContain('<option value="Spanish">Spanish</option>');
    expect((await get(`/c/${handle}/groups?day=2`)).text).toContain('<option value="2" selected>Tuesday</option>');
    expect(all.text).toContain('<form class="filters" method="get"');
  });

  it('never shows the address or the leaders, and maps only a suburb, at its rounded point', async () => {
    const all = await get(`/c/${handle}/groups`);
    const page = await get(`/c/${handle}/groups/${tuesday.id}`);
    for (const html of [all.text, page.text, (await get(`/c/${handle}/groups/${thursday.id}`)).text]) {
      expect(html).not.toContain('Hidden Lane');
      expect(html).not.toContain('Secret Street');
      expect(html).not.toContain('Lydia');
      expect(html).not.toContain('Leader');
      expect(html).not.toContain('-33.871234');
      expect(html).not.toContain('151.209876');
    }
    // One map: Tuesday's suburb, the tile of the point rounded to two decimals (-33.87, 151.21).
    expect(all.text.match(/class="map"/g)).toHaveLength(1);
    expect(all.text).toContain('alt="Map of the area around Northside"');
    expect(all.text).toMatch(/src="https:\/\/tiles\.test\/13\/7536\/4915\.png"/);
    // The group showing no area: neither its area nor a map.
    const thursdayPage = await get(`/c/${handle}/groups/${thursday.id}`);
    expect(thursdayPage.text).not.toContain('Westfield');
    expect(thursdayPage.text).not.toContain('class="map"');
  });

  it('joins an open group at once, with a confirmation email through the delivery engine', async () => {
    const form = await get(`/c/${handle}/groups/${tuesday.id}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<button class="btn" type="submit">Join</button>');
    const res = await ask(tuesday.id, { name: 'Olive Open', email: 'olive.f@example.org', phone: '555 0100' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You have joined Tuesday Night.');
    const request = await requestOf('olive.f@example.org');
    expect(request).toMatchObject({ status: 'approved', groupId: tuesday.id });
    expect(await memberOf(tuesday.id, request.contactId!)).toMatchObject({ role: 'member', leftOn: null });
    const contact = await app.db
      .selectFrom('contacts')
      .select(['userId', 'emailConsent', 'firstName', 'lastName'])
      .where('id', '=', request.contactId!)
      .executeTakeFirstOrThrow();
    expect(contact).toEqual({
      userId: grace.user.id,
      emailConsent: 'unsubscribed',
      firstName: 'Olive',
      lastName: 'Open',
    });
    const delivery = await app.db
      .selectFrom('deliveries')
      .select(['kind', 'channel', 'status'])
      .where('address', '=', 'olive.f@example.org')
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ kind: 'portal', channel: 'email' });
    const mail = await emailTo('olive.f@example.org');
    expect(mail?.subject).toBe('You have joined Tuesday Night');
    expect(mail?.text).toContain('A leader will be in touch');
    const joined = await app.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'group.member_joined')
      .where('contactId', '=', request.contactId!)
      .executeTakeFirstOrThrow();
    expect(joined.payload).toMatchObject({ via: 'finder' });
  });

  it('records a request for a request group, and for a full open group', async () => {
    const form = await get(`/c/${handle}/groups/${thursday.id}`);
    expect(form.text).toContain('<button class="btn" type="submit">Ask to join</button>');
    const res = await ask(thursday.id, { name: 'Rita Request', email: 'rita.f@example.org', note: 'Spanish speaker' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Your request to join Thursday Class is with its leaders.');
    const request = await requestOf('rita.f@example.org');
    expect(request.status).toBe('pending');
    expect(await memberOf(thursday.id, request.contactId!)).toBeUndefined();
    expect((await emailTo('rita.f@example.org'))?.subject).toBe('Your request to join Thursday Class');

    // Full House holds its leader and nobody else.
    const fullPage = await get(`/c/${handle}/groups/${full.id}`);
    expect(fullPage.text).toContain('This group is full.');
    const asked = await ask(full.id, { name: 'Fay Full', email: 'fay.f@example.org' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Request sent');
    const fullRequest = await requestOf('fay.f@example.org');
    expect(fullRequest.status).toBe('pending');
    expect(await memberOf(full.id, fullRequest.contactId!)).toBeUndefined();
    expect((await emailTo('fay.f@example.org'))?.text).toContain('The group is full at the moment');
    const requested = await app.db
      .selectFrom('events')
      .select('type')
      .where('type', '=', 'group.join_requested')
      .where('contactId', 'in', [request.contactId!, fullRequest.contactId!])
      .execute();
    expect(requested).toHaveLength(2);
  });

  it('refuses a closed group with the worded message, and a form without a name or email', async () => {
    const page = await get(`/c/${handle}/groups/${closed.id}`);
    expect(page.text).toContain('This group is not taking new members at the moment.');
    expect(page.text).not.toContain('<form class="su"');
    const res = await ask(closed.id, { name: 'Cal Closed', email: 'cal.f@example.org' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('This group is not taking new members. Please ask the church about another group.');
    const stored = app.db.selectFrom('groupJoinRequests').select('id').where('email', '=', 'cal.f@example.org');
    expect(await stored.execute()).toEqual([]);
    const bad = await ask(tuesday.id, { name: '', email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('aria-invalid="true" aria-describedby="email-error"');
  });

  it('takes five asks an hour from one address, then 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await ask(thursday.id, { name: 'Ray Repeat', email: 'Ray.F@example.org' });
      expect(res.status, `ask ${i + 1}`).toBe(200);
    }
    const sixth = await ask(thursday.id, { name: 'Ray Repeat', email: 'ray.f@example.org' });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(sixth.text).toContain('Too many requests from this address');
  });

  it("answers 404 for another church's group, an archived or unknown one", async () => {
    for (const id of [hopeGroup.id, archived.id, 999_999, 'abc']) {
      expect((await get(`/c/${handle}/groups/${id}`)).status, `page ${id}`).toBe(404);
      expect((await ask(id as number, { name: 'Xa', email: 'x.f@example.org' })).status, `join ${id}`).toBe(404);
    }
    expect((await get('/c/no-such-church/groups')).status).toBe(404);
    // Hope's own group is found under Hope's handle.
    expect((await get(`/c/hope-finder/groups/${hopeGroup.id}`)).status).toBe(200);
    expect(
      await app.db.selectFrom('groupJoinRequests').select('id').where('email', '=', 'x.f@example.org').execute(),
    ).toEqual([]);
  });
});
