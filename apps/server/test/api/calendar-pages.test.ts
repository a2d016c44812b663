import { describe, expect, it } from 'vitest';
import { calendarDue, createEvent, demoPay, inHours, MINUTE } from '../helpers/calendar.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle } from '../helpers/portal.js';

// The public event pages: the church's list (published public events only), an event's page
// (link-only events reachable by their slug, members-only and drafts not, another church's slug
// 404), its registration form posted as a browser would (worded errors by their fields, several
// attendees, the waitlist, the payment page), a waitlist offer's page claiming the seat, and a
// ticket's page with its QR code.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-events');
await giveHandle(app.db, hope.user.id, 'hope-events');
const g = grace.client;

const open = await createEvent(g, {
  title: 'Christmas breakfast',
  slug: 'christmas-breakfast',
  times: [{ startsAt: inHours(72), endsAt: inHours(74), capacity: 2 }],
  ticketTypes: [{ name: 'Adult', priceCents: 0 }],
  locationName: 'Church hall',
  address: '1 Main St, Springfield',
  questions: [
    { kind: 'choice', label: 'Dietary needs', choices: ['None', 'Vegetarian'], required: true },
    { scope: 'attendee', kind: 'yes_no', label: 'First time?' },
  ],
});
const [diet, firstTime] = open.questions;
const linkOnly = await createEvent(g, { title: 'Leaders retreat', slug: 'leaders-retreat', visibility: 'link' });
const members = await createEvent(g, { title: 'Members meeting', slug: 'members-meeting', visibility: 'members' });
const draft = await createEvent(g, { title: 'Draft picnic', slug: 'draft-picnic', status: 'draft' });
const hopeEvent = await createEvent(hope.client, { title: 'Hope concert', slug: 'hope-concert' });
const paid = await createEvent(g, {
  title: 'Youth camp',
  slug: 'youth-camp',
  times: [{ startsAt: inHours(96), capacity: 1 }],
  ticketTypes: [{ name: 'Camper', priceCents: 2500 }],
});

const page = (path: string) =>
  fetch(`${app.url}${path}`).then(async (r) => ({ status: r.status, text: await r.text(), headers: r.headers }));
async function post(path: string, form: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of ([] as string[]).concat(v)) body.append(k, x);
  const r = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
    redirect: 'manual',
  });
  return { status: r.status, text: await r.text() };
}
const breakfastForm = (name: string, extra: Record<string, string | string[]> = {}) => ({
  count: '1',
  key: `form-${name.replace(/\W/g, '')}-${Date.now()}`,
  'registrant.name': name,
  'registrant.email': `${name.toLowerCase().replace(/\W+/g, '.')}@example.org`,
  'attendees.0.name': name,
  'attendees.0.ticketTypeId': String(open.ticketTypes[0]!.id),
  [`answers.${diet!.id}`]: 'None',
  ...extra,
});

describe('the event list and pages', () => {
  it('lists only published public events, and the church home links to it', async () => {
    const list = await page(`/c/${handle}/events`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('Christmas breakfast');
    expect(list.text).toContain('Youth camp');
    for (const hidden of ['Leaders retreat', 'Members meeting', 'Draft picnic', 'Hope concert'])
      expect(list.text).not.toContain(hidden);
    expect(list.headers.get('cache-control')).toBe('public, max-age=30');
    const home = await page(`/c/${handle}`);
    expect(home.text).toContain(`href="/c/${handle}/events"`);
  });

  it('shows an event with its time, place, seats and Add to calendar; link-only events by their link', async () => {
    const res = await page(`/c/${handle}/events/christmas-breakfast`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Church hall, 1 Main St, Springfield');
    expect(res.text).toContain('2 left');
    expect(res.text).toContain(`href="/c/${handle}/events/christmas-breakfast/calendar.ics"`);
    expect(res.text).not.toMatch(/<script>/);
    const ics = await page(`/c/${handle}/events/christmas-breakfast/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(ics.text).toContain('SUMMARY:Christmas breakfast');
    expect((await page(`/c/${handle}/events/${linkOnly.slug}`)).status).toBe(200);
  });

  it('shows a map tile with a pin when the place has coordinates, beside the map-search link', async () => {
    const one = await g.patch(`/api/calendar/events/${open.id}`, { latitude: 39.7817 });
    expect(one.status).toBe(400);
    expect(one.body.issues[0]).toMatchObject({
      path: 'longitude',
      message: 'Give both latitude and longitude, or neither',
    });
    const far = await g.patch(`/api/calendar/events/${open.id}`, { latitude: 91, longitude: 0 });
    expect(far.body.issues[0]).toMatchObject({ path: 'latitude', message: 'Latitude must be between -90 and 90' });
    const set = await g.patch(`/api/calendar/events/${open.id}`, { latitude: 39.7817, longitude: -89.6501 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ latitude: 39.7817, longitude: -89.6501, address: '1 Main St, Springfield' });
    const res = await page(`/c/${handle}/events/christmas-breakfast`);
    expect(res.text).toContain(
      '<img src="https://tile.openstreetmap.org/15/8223/12431.png" alt="Map of Church hall, 1 Main St, Springfield"',
    );
    expect(res.text).toContain(
      '<span class="pin" style="left:217px;top:46px"></span><small>© OpenStreetMap contributors</small>',
    );
    expect(res.text).toContain('href="https://www.openstreetmap.org/search?query=1%20Main%20St%2C%20Springfield"');
    expect(res.text).not.toMatch(/<script/);
    // Taken off the map: no tile (the link stays).
    await g.patch(`/api/calendar/events/${open.id}`, { latitude: null, longitude: null });
    expect((await page(`/c/${handle}/events/christmas-breakfast`)).text).not.toContain('class="map"');
  });

  it('answers 404 for drafts, members-only events, another church’s slug and unknown handles', async () => {
    expect((await page(`/c/${handle}/events/${draft.slug}`)).status).toBe(404);
    expect((await page(`/c/${handle}/events/${members.slug}`)).status).toBe(404);
    expect((await page(`/c/${handle}/events/${hopeEvent.slug}`)).status).toBe(404);
    expect((await page(`/c/no-such-church/events`)).status).toBe(404);
    const other = await post(`/c/${handle}/events/${hopeEvent.slug}/register`, breakfastForm('Eve Other'));
    expect(other.status).toBe(404);
  });
});

let payment: { intentId: string; clientSecret: string } | undefined;

describe('the registration form', () => {
  it('shows the worded error by its field, and keeps what was typed', async () => {
    const res = await post(
      `/c/${handle}/events/christmas-breakfast/register`,
      breakfastForm('Ann Lee', { [`answers.${diet!.id}`]: '' }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain(`id="f-answers-${diet!.id}-err">&quot;Dietary needs&quot; needs an answer`);
    expect(res.text).toContain('value="Ann Lee"');
  });

  it('adds an attendee without script, then registers both with their answers', async () => {
    const more = await post(`/c/${handle}/events/christmas-breakfast/register`, {
      ...breakfastForm('Ann Lee'),
      change: 'add',
    });
    expect(more.status).toBe(200);
    expect(more.text).toContain('Attendee 2');
    const res = await post(`/c/${handle}/events/christmas-breakfast/register`, {
      ...breakfastForm('Ann Lee'),
      count: '2',
      [`attendees.0.answers.${firstTime!.id}`]: 'yes',
      'attendees.1.name': 'Kid Lee',
      'attendees.1.ticketTypeId': String(open.ticketTypes[0]!.id),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('You are registered');
    const reg = await app.db
      .selectFrom('calendarRegistrations')
      .select(['id', 'status', 'seats'])
      .where('email', '=', 'ann.lee@example.org')
      .executeTakeFirstOrThrow();
    expect(reg).toMatchObject({ status: 'confirmed', seats: 2 });
    const answers = await g.get(`/api/registrations/${reg.id}`);
    expect(answers.body.answers).toEqual(
      expect.arrayContaining([expect.objectContaining({ label: 'First time?', value: true })]),
    );
    expect((await page(`/c/${handle}/events/christmas-breakfast`)).text).toContain('Full: waitlist');
  });

  it('puts the next person on the waitlist and says so in words', async () => {
    const res = await post(`/c/${handle}/events/christmas-breakfast/register`, breakfastForm('Ben Wait'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are on the waitlist');
    expect(res.text).toContain('Nothing has been charged');
  });

  it('asks a paid registration to pay, holding the seats for 10 minutes (demo mode)', async () => {
    const res = await post(`/c/${handle}/events/youth-camp/register`, {
      count: '1',
      key: `camp-${Date.now()}`,
      'registrant.name': 'Cam Per',
      'registrant.email': 'cam.per@example.org',
      'attendees.0.name': 'Cam Per',
      'attendees.0.ticketTypeId': String(paid.ticketTypes[0]!.id),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('Your seats are held for 10 minutes');
    expect(res.text).toContain('Demo mode: no card is charged.');
    const data = JSON.parse(/<script type="application\/json" id="pay-data">(.*?)<\/script>/.exec(res.text)![1]!);
    expect(data).toMatchObject({ mode: 'demo', back: `/c/${handle}/events/youth-camp?paid=1` });
    payment = data;
    // Before payment there is no script at all: the event page and its form are plain HTML.
    expect((await page(`/c/${handle}/events/youth-camp`)).text).not.toContain('<script');
  });
});

describe('a waitlist offer and a ticket', () => {
  it('claims an offered seat from the emailed link, and shows the ticket with its QR code', async () => {
    // Ann cancels: Ben, waiting, is offered the seat.
    const ann = await app.db
      .selectFrom('calendarRegistrations')
      .select('id')
      .where('email', '=', 'ann.lee@example.org')
      .executeTakeFirstOrThrow();
    expect((await g.post(`/api/registrations/${ann.id}/cancel`, {})).status).toBe(200);
    await calendarDue(app, new Date(Date.now() + MINUTE));
    const ben = await app.db
      .selectFrom('calendarRegistrations')
      .select(['id', 'status', 'offerToken'])
      .where('email', '=', 'ben.wait@example.org')
      .executeTakeFirstOrThrow();
    expect(ben.status).toBe('offered');
    const offer = await page(`/events/offers/${ben.offerToken}`);
    expect(offer.status).toBe(200);
    expect(offer.text).toContain('A seat came free');
    const claimed = await post(`/events/offers/${ben.offerToken}`, {});
    expect(claimed.status).toBe(200);
    expect(claimed.text).toContain('You are registered');
    const again = await post(`/events/offers/${ben.offerToken}`, {});
    expect(again.status).toBe(404);

    const ticket = await app.db
      .selectFrom('calendarAttendees')
      .select('ticketToken')
      .where('registrationId', '=', ben.id)
      .executeTakeFirstOrThrow();
    const t = await page(`/tickets/${ticket.ticketToken}`);
    expect(t.status).toBe(200);
    expect(t.text).toContain('Ben Wait');
    expect(t.text).toContain('src="data:image/png;base64,');
    expect((await page('/tickets/not-a-real-ticket-token-000')).status).toBe(404);
  });

  it('pays a held registration in demo mode', async () => {
    const reg = await app.db
      .selectFrom('calendarRegistrations')
      .select(['id', 'status'])
      .where('email', '=', 'cam.per@example.org')
      .executeTakeFirstOrThrow();
    expect(reg.status).toBe('held');
    await demoPay(new HttpClient(app.url), payment!);
    await expect.poll(async () => (await g.get(`/api/registrations/${reg.id}`)).body.status).toBe('confirmed');
    const thanks = await page(`/c/${handle}/events/youth-camp?paid=1`);
    expect(thanks.text).toContain('your payment is received');
  });
});

describe("a landing page's Register block", () => {
  it("shows the event's date and a Register button to its page; another church's event is left out", async () => {
    const res = await g.post('/api/landing-pages', {
      name: 'Christmas',
      slug: `christmas-${Date.now()}`,
      published: true,
      content: {
        blocks: [
          { id: 'h', type: 'hero', headline: 'Christmas at Grace', subheading: '' },
          { id: 'r', type: 'register', eventId: open.id, buttonText: 'Save my seat' },
          { id: 'x', type: 'register', eventId: hopeEvent.id, buttonText: 'Not ours' },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const landing = await page(`/p/${res.body.slug}`);
    expect(landing.status).toBe(200);
    expect(landing.text).toContain(`<a class="btn" href="/c/${handle}/events/christmas-breakfast">Save my seat</a>`);
    expect(landing.text).toContain('<h2>Christmas breakfast</h2>');
    expect(landing.text).not.toContain('Not ours');
  });
});
