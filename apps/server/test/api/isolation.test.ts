import { isDeepStrictEqual } from 'node:util';
import { eventsSettled } from '@lampstand/api/server';
import { ownerDb, sql } from '@lampstand/db';
import { describe, expect, it } from 'vitest';
import { SCHEDULES } from '../../src/jobs/handlers.js';
import { restRoutes, type RestRoute } from '../../src/rest/route-list.js';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { baseline, type Schema } from '../helpers/openapi-values.js';
import { createEvent, register } from '../helpers/calendar.js';
import { pairStation } from '../helpers/checkin.js';

// Tenant isolation proven for every route, generated from the ONE route table. For
// every row with a path parameter, church B (signed in) calls it with church A's ids: the answer is
// 404 (or 403), and everything church A can read is unchanged afterwards. A new row whose path
// parameter has no seed below fails the test, so no route can skip the matrix.
const app = await startTestApp();
const SCHEDULED_NAMES = SCHEDULES.map((s) => s.name);
const admin = await registerChurch(app.url, 'Platform Team'); // first account: admin
const a = await registerChurch(app.url, 'Church A');
const b = await registerChurch(app.url, 'Church B');

type Operation = { requestBody?: { content: { 'application/json': { schema: Schema } } } };
const doc = (await new HttpClient(app.url).get('/api/openapi.json')).body as {
  paths: Record<string, Record<string, Operation>>;
};

/** A valid body for a row: the required fields of its OpenAPI schema, with overrides. */
function body(method: string, path: string, overrides: Record<string, unknown> = {}) {
  const schema = doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content['application/json']?.schema;
  return { ...((minimal(schema) as Record<string, unknown> | undefined) ?? {}), ...overrides };
}

/** The smallest plausible value of a schema: required properties only, strings guessed by name. */
function minimal(schema: Schema | undefined, key = ''): unknown {
  if (!schema) return undefined;
  if (schema.type === 'object' || schema.properties) {
    const req = new Set(schema.required ?? []);
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([k]) => req.has(k))
        .map(([k, v]) => [k, minimal(v, k)]),
    );
  }
  if (schema.type === 'array')
    return schema.minLength
      ? [minimal(schema.items)]
      : [minimal(schema.items)].filter((v) => v !== undefined).slice(0, 1);
  const value = baseline(schema);
  if (typeof value !== 'string' || schema.enum) return value;
  if (/url$|^website$/i.test(key)) return 'https://example.org/a.png';
  if (/color$/i.test(key)) return '#112233';
  if (/email$/i.test(key)) return 'seed@example.org';
  if (/time$/i.test(key)) return '09:00';
  if (/date|On$/i.test(key)) return '2030-01-05';
  return value;
}

const seedFailures: string[] = [];

/** Create as `client` through the row `POST path` (ids filled in), expecting 2xx; returns the body. */
async function create(
  client: HttpClient,
  path: string,
  ids: Record<string, number | string> = {},
  overrides: Record<string, unknown> = {},
) {
  const url = path.replace(/\{(\w+)\}/g, (_, k: string) => String(ids[k]));
  const res = await client.post(url, body('POST', path, overrides));
  if (res.status >= 300) seedFailures.push(`POST ${url} → ${res.status} ${res.text}`);
  return (res.status < 300 ? res.body : { id: 0 }) as { id: number } & Record<string, unknown>;
}

// One of every church-scoped resource, for church A.
const person = (n: number) => ({
  email: `p${n}@example.org`,
  phone: `412 345 67${n}`,
  metadata: { countryCode: '+61' },
});
const contact = await create(a.client, '/api/contacts', {}, person(1));
const other = await create(a.client, '/api/contacts', {}, person(2));
const list = await create(a.client, '/api/contact-lists', {}, { name: 'Choir' });
await a.client.post(`/api/contact-lists/${list.id}/contacts`, { contactIds: [contact.id] });
const family = await create(a.client, '/api/contacts/{id}/family', { id: contact.id }, { relatedContactId: other.id });
const group = await create(a.client, '/api/child-groups', {}, { name: 'Juniors' });
const child = await create(a.client, '/api/contacts/{id}/children', { id: contact.id }, { name: 'Tim' });
const upload = await create(
  a.client,
  '/api/contacts/import',
  {},
  { fileName: 'a.csv', csv: 'Name,Email\nA,a@b.org\n' },
);
const email = await create(a.client, '/api/email-campaigns', {}, { listIds: [list.id] });
const sms = await create(a.client, '/api/sms-campaigns', {}, { listIds: [list.id] });
const page = await create(a.client, '/api/landing-pages', {}, { slug: 'church-a-easter' });
// A sign-up of church A (through its published page's form) that brought a phone.
await create(
  a.client,
  '/api/landing-pages',
  {},
  {
    slug: 'church-a-camp',
    published: true,
    content: { blocks: [{ id: 'form', type: 'signup', fields: ['phone'] }] },
  },
);
const signupRes = await new HttpClient(app.url).post('/p/church-a-camp/signup/form', {
  name: 'Seed Person',
  email: 'p1@example.org',
  phone: '0499 999 999',
});
if (signupRes.status !== 200) seedFailures.push(`sign-up → ${signupRes.status} ${signupRes.text}`);
const signup = await app.db.selectFrom('landingPageSignups').select('id').executeTakeFirstOrThrow();
const qr = await create(a.client, '/api/qr-codes', {}, { destinationUrl: 'https://example.org/' });
const plan = await create(a.client, '/api/service-planner/plans');
const itemType = await create(a.client, '/api/service-planner/item-types', {}, { name: 'Reading' });
const item = await create(a.client, '/api/service-planner/plans/{planId}/items', { planId: plan.id });
const song = await create(a.client, '/api/service-planner/songs');
const position = await create(a.client, '/api/service-planner/positions', {}, { name: 'Drums' });
const member = await create(a.client, '/api/service-planner/members', {}, { email: 'drummer@example.org' });
const blockout = await create(
  a.client,
  '/api/service-planner/members/{memberId}/blockouts',
  { memberId: member.id },
  { startsOn: '2031-01-01', endsOn: '2031-01-02' },
);
const assignment = await create(
  a.client,
  '/api/service-planner/plans/{planId}/assignments',
  { planId: plan.id },
  { memberId: member.id, positionId: position.id },
);
const project = await create(
  a.client,
  '/api/show-up/projects',
  {},
  { description: 'A food drive for the town. '.repeat(3) },
);
const post = await create(a.client, '/api/social-posts');
const apiKey = await create(a.client, '/api/api-keys');
const webhook = await create(a.client, '/api/webhooks', {}, { url: 'https://example.org/hook' });
// Off, with one delivery written here: the worker leaves it as it is while the probes run.
await a.client.patch(`/api/webhooks/${webhook.id}`, { enabled: false });
const webhookDelivery = await app.db
  .insertInto('webhookDeliveries')
  .values({ userId: a.user.id, endpointId: webhook.id, type: 'webhook.test', status: 'delivered' })
  .returning('id')
  .executeTakeFirstOrThrow();
// A conversation of church A (with a number it knows no contact for) and a quick reply.
const conversation = await app.db
  .insertInto('conversations')
  .values({ userId: a.user.id, phoneE164: '+61412555001' })
  .returning('id')
  .executeTakeFirstOrThrow();
const quickReply = await create(a.client, '/api/sms-quick-replies', {}, { title: 'Hi', body: 'Hello' });
const suppression = await app.db
  .insertInto('emailSuppressions')
  .values({ userId: a.user.id, email: 'gone@example.org', reason: 'hard_bounce' })
  .returning('id')
  .executeTakeFirstOrThrow();
// Keywords are for a church's own number.
await app.db.insertInto('churchSettings').values({ userId: a.user.id, smsFromNumber: '+61400100200' }).execute();
const smsKeyword = await create(a.client, '/api/sms-keywords', {}, { keyword: 'PRAY', replyText: 'We are praying' });
const sendingDomain = await create(a.client, '/api/sending-domains', {}, { domain: 'church-a.example' });
// A platform template assigned to church A only: church B may not use it.
const template = await create(admin.client, '/api/admin/marketing-templates', {}, { type: 'email', isActive: true });
await create(admin.client, '/api/admin/assignments', {}, { userId: a.user.id, templateId: template.id });

// A plan template of church A (made from its plan).
const planTemplate = await create(a.client, '/api/service-planner/templates', {}, { planId: plan.id, name: 'Seed' });

// Giving: a fund, a recurring gift (as the giving page makes one) and a batch.
const fund = await create(a.client, '/api/funds', {}, { name: 'Missions' });
const schedule = await app.db
  .insertInto('giftSchedules')
  .values({
    userId: a.user.id,
    donorName: 'Seed Donor',
    donorEmail: 'donor@example.org',
    frequency: 'monthly',
    startDate: '2031-01-01',
    nextDate: '2031-01-01',
    status: 'active',
    amountCents: 1000,
    manageToken: 'isolation-seed-manage-token',
    idempotencyKey: 'isolation-seed-schedule',
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const batch = await create(a.client, '/api/giving/batches', {}, { batchDate: '2031-01-01', expectedTotalCents: 0 });
const batchWithLine = await create(
  a.client,
  '/api/giving/batches/{id}/lines',
  { id: batch.id },
  { fundId: fund.id, amountCents: 100, method: 'cash' },
);
const batchLine = (batchWithLine.lines as { id: number }[] | undefined)?.[0] ?? { id: 0 };
const statementRun = await create(a.client, '/api/giving/statements', {}, { from: '2030-01-01', to: '2030-12-31' });
// Its job builds in a thread of its own, seconds later: church A's data is read once it is done.
let statementStatus = '';
for (let i = 0; i < 1200 && statementStatus !== 'done'; i++) {
  statementStatus = (await a.client.get(`/api/giving/statements/${statementRun.id}`)).body.status;
  if (statementStatus !== 'done') await new Promise((resolve) => setTimeout(resolve, 100));
}
if (statementStatus !== 'done') seedFailures.push(`the statement run was never built (${statementStatus})`);
// A journey (with an enrolment) and a follow-up task of church A.
const journeyFields = { name: 'A journey', trigger: { kind: 'manual' }, steps: [] };
const journey = await create(a.client, '/api/journeys', {}, journeyFields);
const task = await app.db
  .insertInto('tasks')
  .values({ userId: a.user.id, title: 'Call', dueOn: '2030-01-01' })
  .returning('id')
  .executeTakeFirstOrThrow();
// An earlier "Export everything" of church A (written here: no job builds it while the probes run).
const churchExport = await app.db
  .insertInto('exports')
  .values({ userId: a.user.id, requestedBy: a.user.id, status: 'failed' })
  .returning('id')
  .executeTakeFirstOrThrow();

// A move-in import of church A (its dry run stored; the upload itself is multipart, tested in imports.test.ts).
const moveIn = await app.db
  .insertInto('imports')
  .values({
    userId: a.user.id,
    fileName: 'people.csv',
    source: 'planning-center-people',
    kind: 'people',
    csv: 'Person ID,First Name,Last Name,Household ID\n1,A,B,2\n',
    preview: JSON.stringify({ rows: 1, people: null, gifts: null, problems: [] }),
  })
  .returning('id')
  .executeTakeFirstOrThrow();

// A small group of church A: a member, a meeting and a request to join (as its public page writes one).
const smallGroup = await create(
  a.client,
  '/api/groups',
  {},
  { name: 'Tuesday Night', frequency: 'by_arrangement', joinMode: 'request' },
);
await create(a.client, '/api/groups/{id}/members', { id: smallGroup.id }, { contactIds: [contact.id] });
const otherGroup = await create(
  a.client,
  '/api/groups',
  {},
  { name: 'Wednesday Night', frequency: 'by_arrangement', joinMode: 'request' },
);
const meeting = await create(a.client, '/api/groups/{id}/meetings', { id: smallGroup.id }, { date: '2030-01-05' });
const joinRequest = await app.db
  .insertInto('groupJoinRequests')
  .values({ userId: a.user.id, groupId: smallGroup.id, name: 'Seed Joiner', email: 'joiner@example.org' })
  .returning('id')
  .executeTakeFirstOrThrow();

// Check-in of church A: a service, a room, a paired station and a check-in of its contact's child.
const checkinService = await create(
  a.client,
  '/api/check-in/services',
  {},
  { name: 'Sunday 9:00', weekday: 0, startsAt: '09:00' },
);
const room = await create(a.client, '/api/check-in/rooms', {}, { name: 'Nursery', serviceIds: [checkinService.id] });
const { client: stationClient, station } = await pairStation(app.url, a);
const checkinRes = await stationClient.post('/api/check-ins', {
  familyId: contact.id,
  serviceId: checkinService.id,
  children: [{ childId: child.id, roomId: room.id }],
});
if (checkinRes.status !== 201) seedFailures.push(`check-in → ${checkinRes.status} ${checkinRes.text}`);
const checkinBody = checkinRes.body as { securityCode?: string; checkins?: { id: number }[] };
const checkin = checkinBody.checkins?.[0] ?? { id: 0 };

// A published calendar event of church A with one registration (through the public route).
const calendarEvent = await createEvent(a.client);
const registrationRes = await register(new HttpClient(app.url), calendarEvent);
if (registrationRes.status >= 300)
  seedFailures.push(`registration → ${registrationRes.status} ${registrationRes.text}`);
const registration = { id: (registrationRes.body as { registrationId: number }).registrationId };

// The registration's confirmation email goes out in the background (and logs `email.sent`): wait
// for every queued message to be sent, so the snapshot taken before the probes is church A's last word.
async function queuedMessages(): Promise<number> {
  const row = await app.db
    .selectFrom('deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', ['pending', 'sending'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
for (let i = 0; i < 1500 && (await queuedMessages()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
if ((await queuedMessages()) > 0) seedFailures.push('a message queued while seeding was never sent');

// Then no background work while the probes run: every queued job done, the batched visit counts
// written, and the app's background work (jobs, their clock, journeys, webhooks) stopped. On a busy
// machine the probes take minutes, and a clock job (the conversation digest, seat holds) that ran
// between the two snapshots changed church A's answers without church B doing anything. The
// probes are answered 404 or 403 before anything is queued, so they need no worker.
async function jobsWaiting(): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from pgboss.job
    where state in ('created', 'retry', 'active') and start_after <= now() and name <> all(${SCHEDULED_NAMES})
  `.execute(ownerDb(app.db));
  return Number(rows[0]!.n);
}
for (let i = 0; i < 1500 && (await jobsWaiting()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
if ((await jobsWaiting()) > 0) seedFailures.push('a job queued while seeding never ran');
await app.deps.pages.visits.flush();
await app.runtime.runner.stop();
// And the event log settled: `/api/events` shows an event once every transaction older than it has
// ended, on the whole PostgreSQL server (the other test files' included), so church A's last events
// could appear between the two snapshots.
await eventsSettled(app.db);

/** `<segment before the parameter>/{parameter}` → church A's id (or slug) for it. */
const seeds: Record<string, number | string> = {
  'contacts/{id}': contact.id,
  'contacts/{contactId}': contact.id,
  'donors/{contactId}': contact.id,
  'contact-lists/{id}': list.id,
  'contact-lists/{listId}': list.id,
  'lists/{listId}': list.id,
  'family/{linkId}': family.id,
  'children/{childId}': child.id,
  'child-groups/{id}': group.id,
  'import/{id}': upload.id,
  'imports/{id}': moveIn.id,
  'email-campaigns/{id}': email.id,
  'campaigns/{id}': email.id,
  'sms-campaigns/{id}': sms.id,
  'landing-pages/{id}': page.id,
  'slug/{slug}': 'church-a-easter',
  'landing-page-signups/{id}': signup.id,
  'qr-codes/{id}': qr.id,
  'plans/{id}': plan.id,
  'plans/{planId}': plan.id,
  'items/{id}': item.id,
  'item-types/{id}': itemType.id,
  'songs/{id}': song.id,
  'members/{id}': member.id,
  'members/{memberId}': member.id,
  'blockouts/{id}': blockout.id,
  'positions/{id}': position.id,
  'assignments/{id}': assignment.id,
  'projects/{id}': project.id,
  'projects/{projectId}': project.id,
  'social-posts/{id}': post.id,
  'api-keys/{id}': apiKey.id,
  'webhooks/{id}': webhook.id,
  'deliveries/{deliveryId}': webhookDelivery.id,
  'templates/{id}': template.id,
  'service-planner/templates/{id}': planTemplate.id,
  'funds/{id}': fund.id,
  'recurring/{id}': schedule.id,
  'batches/{id}': batch.id,
  'lines/{lineId}': batchLine.id,
  'statements/{runId}': statementRun.id,
  'conversations/{id}': conversation.id,
  'sms-quick-replies/{id}': quickReply.id,
  'sms-keywords/{id}': smsKeyword.id,
  'suppressions/{id}': suppression.id,
  'sending-domains/{id}': sendingDomain.id,
  'journeys/{id}': journey.id,
  'tasks/{id}': task.id,
  'exports/{id}': churchExport.id,
  'groups/{id}': smallGroup.id,
  'members/{contactId}': contact.id,
  'meetings/{meetingId}': meeting.id,
  'requests/{requestId}': joinRequest.id,
  'services/{id}': checkinService.id,
  'rooms/{id}': room.id,
  'stations/{id}': station.id,
  'families/{id}': contact.id,
  'check-in/children/{id}': child.id,
  'check-ins/{id}': checkin.id,
  'events/{id}': calendarEvent.id,
  'registrations/{id}': registration.id,
};

/**
 * Rows left out, each with its reason. Public rows (tokens, payment ids) and administration rows
 * are outside a church's tenancy; their access is proven by openapi.test.ts.
 */
const NOT_CHURCH_SCOPED: Record<string, string> = {};

/** Probe bodies the schema alone cannot make valid (so the probe reaches the tenant check). */
const PROBE_BODY: Record<string, Record<string, unknown>> = {
  'POST /api/contacts/{id}/family': { relatedContactId: other.id },
  'POST /api/contacts/import/{id}/start': { mapping: { First: 'firstName', Last: 'lastName', Email: 'email' } },
  'PUT /api/landing-pages/{id}': { slug: 'church-b-probe' },
  'POST /api/landing-page-signups/{id}/use': { field: 'phone' },
  'PUT /api/journeys/{id}': journeyFields,
  'POST /api/journeys/{id}/enroll': { contactIds: [other.id] },
  'PUT /api/check-in/services/{id}': { name: 'Probe', weekday: 0, startsAt: '10:00' },
  'POST /api/check-ins/{id}/checkout': { securityCode: checkinBody.securityCode },
  'POST /api/groups/{id}/members/move': { toGroupId: otherGroup.id, contactIds: [contact.id] },
  'POST /api/groups/{id}/messages': { channel: 'email', subject: 'Probe', body: 'Probe' },
  'POST /api/calendar/events/{id}/messages': { subject: 'Probe' },
};
/** Query strings a GET probe needs to pass its input check and reach the church's row. */
const PROBE_QUERY: Record<string, string> = {
  'GET /api/contacts/import/{id}/households': '?column=Household',
  'GET /api/calendar/events/{id}/tickets': '?ticket=isolation-probe',
};

/** A parameter's seed key: 'plans/{id}', or with the segment before it when a seed is named so
 * ('service-planner/templates/{id}' beside the marketing 'templates/{id}'). */
const seedKey = (prev: string | undefined, seg: string, p: string) =>
  prev && seeds[`${prev}/${seg}/{${p}}`] !== undefined ? `${prev}/${seg}/{${p}}` : `${seg}/{${p}}`;
const paramKeys = (path: string) =>
  [...path.matchAll(/(?:([\w-]+)\/)?([\w-]+)\/\{(\w+)\}/g)].map((m) => seedKey(m[1], m[2]!, m[3]!));
const name = (r: RestRoute) => `${r.method} ${r.path}`;
const probed = restRoutes.filter(
  (r) => r.path.includes('{') && r.access !== 'public' && r.access !== 'admin' && !NOT_CHURCH_SCOPED[name(r)],
);
const fill = (path: string) =>
  path.replace(
    /(?:([\w-]+)\/)?([\w-]+)\/\{(\w+)\}/g,
    (_, prev: string | undefined, seg: string, p: string) =>
      `${prev ? `${prev}/` : ''}${seg}/${seeds[seedKey(prev, seg, p)]}`,
  );

/** Everything church A reads through the table's GET rows (JSON ones), with A's ids filled in. */
async function snapshotOfA(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const r of restRoutes) {
    if (r.method !== 'GET' || r.access !== 'signed-in' || (r.format && r.format !== 'json')) continue;
    if (paramKeys(r.path).some((k) => seeds[k] === undefined)) continue;
    const res = await a.client.get(fill(r.path));
    out[r.path] = { status: res.status, body: res.body };
  }
  return out;
}

describe('tenant isolation matrix (generated from the route table)', () => {
  it('the seed of church A was created', () => {
    expect(seedFailures).toEqual([]);
  });

  it('every path parameter of a church route has a seed of church A', () => {
    const missing = probed.flatMap((r) =>
      paramKeys(r.path)
        .filter((k) => seeds[k] === undefined)
        .map((k) => `${name(r)}: ${k}`),
    );
    expect(missing, 'add a seed for these parameters (or a reason to NOT_CHURCH_SCOPED)').toEqual([]);
    expect(probed.length).toBeGreaterThan(60);
  });

  let before: Record<string, unknown>;
  it("church A's data reads the same before and after the probes (taken before)", async () => {
    before = await snapshotOfA();
    expect(Object.keys(before).length).toBeGreaterThan(20);
  });

  it.each(probed.map((r) => [name(r), r] as const))("%s as church B with church A's ids → 404 or 403", async (_, r) => {
    const url = fill(r.path) + (PROBE_QUERY[name(r)] ?? '');
    const same = restRoutes.find((g) => g.method === 'GET' && g.path === r.path && g.access === 'signed-in');
    const read = async () => (same && (!same.format || same.format === 'json') ? (await a.client.get(url)).body : null);
    const was = await read();
    const res = await b.client.request(
      r.method,
      url,
      r.method === 'GET' || r.method === 'DELETE' ? undefined : body(r.method, r.path, PROBE_BODY[name(r)]),
    );
    expect([403, 404], `${r.method} ${url} → ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
    expect(await read()).toEqual(was);
  });

  it("church A's data reads the same after every probe", async () => {
    const after = await snapshotOfA();
    // Path by path, so a failure names the row whose answer changed.
    const changed = Object.keys(before).filter((k) => !isDeepStrictEqual(after[k], before[k]));
    expect(
      changed.map((k) => ({ path: k, before: before[k], after: after[k] })),
      'rows whose answer changed',
    ).toEqual([]);
  });
});
