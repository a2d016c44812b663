import { describe, expect, it } from 'vitest';
import { eventsSettled, createPortalSession } from '@lampstand/api/server';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, Member } from '../helpers/portal.js';

// The planner's reminder settings, and a decline answered from the
// request's page, its teammates asked, one of them covering from their own link.

const app = await startTestApp({ publicUrl: 'http://lampstand.test' });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const g = grace.client;
const BASE = '/api/service-planner';
const anon = new HttpClient(app.url);

const form = (path: string, body = '') =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

describe('settings', () => {
  it('reminder days (default 3 and 1) and hours to find a substitute (default 48), per church, checked', async () => {
    expect((await anon.get(`${BASE}/settings`)).status).toBe(401);
    expect((await g.get(`${BASE}/settings`)).body).toEqual({ reminderDays: [3, 1], substituteHours: 48 });
    const upd = await g.patch(`${BASE}/settings`, { reminderDays: [1, 7, 1] });
    expect(upd.status).toBe(200);
    // Partial: the hours keep their value; each day once, the earliest reminder first.
    expect(upd.body).toEqual({ reminderDays: [7, 1], substituteHours: 48 });
    const bad = await g.patch(`${BASE}/settings`, { substituteHours: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Hours to find a substitute must be at least 1');
    expect(bad.body.issues.map((i: { path: string }) => i.path)).toContain('substituteHours');
    const tooFar = await g.patch(`${BASE}/settings`, { reminderDays: [8] });
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.message).toBe('A reminder is at most 7 days before');
    // Another church's settings are its own.
    expect((await hope.client.get(`${BASE}/settings`)).body).toEqual({ reminderDays: [3, 1], substituteHours: 48 });
    expect((await g.get(`${BASE}/settings`)).body).toEqual({ reminderDays: [7, 1], substituteHours: 48 });
  });
});

describe('decline → a substitute', () => {
  it('the decline page asks teammates; the first to accept from their link is scheduled, the next finds it filled', async () => {
    const sound = (await g.post(`${BASE}/positions`, { name: 'Sound' })).body;
    const add = async (name: string) =>
      (
        await g.post(`${BASE}/members`, {
          name,
          email: `${name.toLowerCase()}@example.org`,
          positionIds: [sound.id],
        })
      ).body;
    const [ann, ben, cal] = [await add('Ann'), await add('Ben'), await add('Cal')];
    const plan = (await g.post(`${BASE}/plans`, { title: 'Sunday Service', date: '2031-02-02', startTime: '10:00' }))
      .body;
    const a = (await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: ann.id, positionId: sound.id })).body;
    const { token } = await app.db
      .selectFrom('servicePlanAssignments')
      .select('token')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();

    // Not declined: refused.
    expect((await form(`/serve/${token}/substitute`)).status).toBe(400);
    const declined = await form(`/serve/${token}`, 'answer=decline');
    const page = await declined.text();
    expect(page).toContain('Ask my teammates to cover');
    expect(page).toContain(`action="/serve/${token}/substitute"`);
    const asked = await form(`/serve/${token}/substitute`);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(
      'We asked 2 teammates who can serve as Sound on Sunday, February 2 at 10:00 AM. The first to accept gets it.',
    );
    expect((await form(`/serve/${token}/substitute`)).status).toBe(409);
    expect((await anon.get(`/serve/${token}`)).text).toContain('Your teammates are being asked to cover for you.');

    const tokenOf = async (memberId: number) =>
      (
        await app.db
          .selectFrom('substituteOfferCandidates')
          .select('token')
          .where('teamMemberId', '=', memberId)
          .executeTakeFirstOrThrow()
      ).token;
    const [benToken, calToken] = [await tokenOf(ben.id), await tokenOf(cal.id)];
    // Opening the link never accepts (mail scanners follow links).
    const cover = await anon.get(`/serve/cover/${benToken}`);
    expect(cover.status).toBe(200);
    expect(cover.text).toContain('<h1>Can you cover Sound on Sunday, February 2 at 10:00 AM?</h1>');
    expect(cover.text).toContain('<button class="accept" type="submit">Accept</button>');
    const res = await form(`/serve/cover/${benToken}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are confirmed for Sound at Sunday Service');
    const late = await form(`/serve/cover/${calToken}`);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('Another teammate said yes first');
    expect((await anon.get(`/serve/cover/${calToken}`)).text).toContain('This slot is filled');
    expect((await anon.get(`/serve/cover/${'x'.repeat(43)}`)).status).toBe(404);
    const covered = (await anon.get(`/serve/${token}`)).text;
    expect(covered).toContain('<h1>Already covered by Ben</h1>');
    expect(covered).not.toContain('Ask my teammates to cover');
    expect(covered).not.toContain('Accept: I can serve');
    // Ann's old link cannot take the slot back: both would be confirmed.
    for (const answer of ['accept', 'decline']) {
      const again = await form(`/serve/${token}`, `answer=${answer}`);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain('<h1>Already covered by Ben</h1>');
    }

    const now = (await g.get(`${BASE}/plans/${plan.id}`)).body;
    expect(
      now.assignments.map((x: { memberName: string; status: string; positionName: string }) => [
        x.memberName,
        x.status,
        x.positionName,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['Ann', 'declined', 'Sound'],
        ['Ben', 'confirmed', 'Sound'],
      ]),
    );

    // Events, for webhooks and each person's Activity: the public's doing.
    const types =
      'plan.declined,plan.substitute_requested,plan.substitute_offered,plan.substitute_accepted,plan.substitute_filled';
    await eventsSettled(app.db);
    const log = (await g.get(`/api/events?types=${types}&limit=500`)).body.events.map(
      (e: { type: string; actor: { kind: string }; data: { person?: { name: string } } }) => [
        e.type,
        e.actor.kind,
        e.data.person?.name,
      ],
    );
    expect(log).toEqual([
      ['plan.declined', 'public', 'Ann'],
      ['plan.substitute_requested', 'public', 'Ann'],
      ['plan.substitute_offered', 'public', 'Ben'],
      ['plan.substitute_offered', 'public', 'Cal'],
      ['plan.substitute_accepted', 'public', 'Ben'],
      ['plan.substitute_filled', 'public', 'Ann'],
    ]);
    const doc = (await g.get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toContain('/api/service-planner/settings');
  });
});

describe('a decline taken back while teammates are asked', () => {
  it('accepting again closes the offer: a teammate answering later finds it closed, one person serves', async () => {
    const piano = (await g.post(`${BASE}/positions`, { name: 'Piano' })).body;
    const add = async (name: string) =>
      (await g.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}@example.org`, positionIds: [piano.id] }))
        .body;
    const [fay, gus] = [await add('Fay'), await add('Gus')];
    const plan = (await g.post(`${BASE}/plans`, { title: 'Carols', date: '2031-12-21', startTime: '18:00' })).body;
    const a = (await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: fay.id, positionId: piano.id })).body;
    const { token } = await app.db
      .selectFrom('servicePlanAssignments')
      .select('token')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect((await form(`/serve/${token}`, 'answer=decline')).status).toBe(200);
    expect((await form(`/serve/${token}/substitute`)).status).toBe(200);
    expect((await form(`/serve/${token}`, 'answer=accept')).status).toBe(200);
    const { token: gusToken } = await app.db
      .selectFrom('substituteOfferCandidates')
      .select('token')
      .where('teamMemberId', '=', gus.id)
      .executeTakeFirstOrThrow();
    const late = await form(`/serve/cover/${gusToken}`);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('This offer has closed');
    const now = (await g.get(`${BASE}/plans/${plan.id}`)).body;
    expect(now.assignments.map((x: { memberName: string; status: string }) => [x.memberName, x.status])).toEqual([
      ['Fay', 'confirmed'],
    ]);
  });
});

describe('an assignment for one service time', () => {
  it("the answer page, the REST read and a teammate's cover offer name the assignment's time, not the plan's start", async () => {
    const usher = (await g.post(`${BASE}/positions`, { name: 'Usher' })).body;
    const add = async (name: string) =>
      (await g.post(`${BASE}/members`, { name, email: `${name.toLowerCase()}@example.org`, positionIds: [usher.id] }))
        .body;
    const [dot] = [await add('Dot'), await add('Eve')];
    const plan = (
      await g.post(`${BASE}/plans`, {
        title: 'Two Services',
        date: '2031-03-02',
        startTime: '09:00',
        serviceTimes: ['09:00', '11:00'],
      })
    ).body;
    const a = (
      await g.post(`${BASE}/plans/${plan.id}/assignments`, {
        memberId: dot.id,
        positionId: usher.id,
        serviceTime: '11:00',
      })
    ).body;
    expect(a.serviceTime).toBe('11:00');
    const { token } = await app.db
      .selectFrom('servicePlanAssignments')
      .select('token')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const read = await anon.get(`${BASE}/requests/${token}`);
    expect(read.body).toMatchObject({ startTime: '09:00', serviceTime: '11:00' });
    const page = (await anon.get(`/serve/${token}`)).text;
    expect(page).toContain('<dd>Sunday, March 2, 2031 at 11:00 AM</dd>');
    expect(page).not.toContain('9:00 AM');
    const declined = await (await form(`/serve/${token}`, 'answer=decline')).text();
    expect(declined).toContain('You have declined Two Services on Sunday, March 2, 2031 at 11:00 AM.');
    const asked = await (await form(`/serve/${token}/substitute`)).text();
    expect(asked).toContain('We asked 1 teammate who can serve as Usher on Sunday, March 2 at 11:00 AM.');
    const { token: eveToken } = await app.db
      .selectFrom('substituteOfferCandidates')
      .select('token')
      .where('teamMemberId', '!=', dot.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const cover = (await anon.get(`/serve/cover/${eveToken}`)).text;
    expect(cover).toContain('<h1>Can you cover Usher on Sunday, March 2 at 11:00 AM?</h1>');
    expect(cover).toContain('<dd>Sunday, March 2, 2031 at 11:00 AM</dd>');
  });
});

describe("the portal's 'Swap a date'", () => {
  it('lists the dates the person serves; offering one asks free teammates; the first to accept takes it', async () => {
    const handle = await giveHandle(app.db, grace.user.id, 'grace-swaps');
    const base = `/c/${handle}/me`;
    const keys = (await g.post(`${BASE}/positions`, { name: 'Keys' })).body;
    const contact = await addContact(g, { firstName: 'Dana', lastName: 'Lee', email: 'dana@example.org' });
    const dana = (await g.post(`${BASE}/members`, { contactId: contact.id, positionIds: [keys.id] })).body;
    const eli = (await g.post(`${BASE}/members`, { name: 'Eli', email: 'eli@example.org', positionIds: [keys.id] }))
      .body;
    const plan = (await g.post(`${BASE}/plans`, { title: 'Harvest Sunday', date: '2031-10-05', startTime: '09:30' }))
      .body;
    const a = (await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: dana.id, positionId: keys.id })).body;

    const member = new Member(app.url);
    expect((await member.get(`${base}/swaps`)).status).toBe(303);
    member.cookies.set('lampstand_portal', await createPortalSession(app.db, grace.user.id, [contact.id]));
    const page = await member.get(`${base}/swaps`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Swap a date</h1>');
    expect(page.text).toContain('Sunday, October 5, 2031 at 9:30 AM');
    expect(page.text).toContain('Dana Lee: Keys');
    const csrf = await member.csrf(`${base}/swaps`);
    // Without the form token: refused.
    expect((await member.post(`${base}/swaps/${a.id}`, {})).status).toBe(403);
    // Someone else's slot: not found.
    const other = (await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: eli.id })).body;
    expect((await member.post(`${base}/swaps/${other.id}`, { csrf })).status).toBe(404);
    await g.delete(`${BASE}/assignments/${other.id}`);
    const offered = await member.post(`${base}/swaps/${a.id}`, { csrf });
    expect(offered.status).toBe(200);
    expect(offered.text).toContain('We asked 1 teammate who can serve as Keys on Sunday, October 5 at 9:30 AM.');
    expect(offered.text).toContain('Your teammates are being asked.');
    expect((await member.post(`${base}/swaps/${a.id}`, { csrf })).status).toBe(409);

    const { token } = await app.db
      .selectFrom('substituteOfferCandidates')
      .select('token')
      .where('teamMemberId', '=', eli.id)
      .executeTakeFirstOrThrow();
    expect((await form(`/serve/cover/${token}`)).status).toBe(200);
    const now = (await g.get(`${BASE}/plans/${plan.id}`)).body;
    expect(now.assignments.map((x: { memberName: string; status: string }) => [x.memberName, x.status])).toEqual(
      expect.arrayContaining([
        ['Dana Lee', 'declined'],
        ['Eli', 'confirmed'],
      ]),
    );
    // Dana's old links (the portal's Accept, the request email's) answer who covers, and change
    // nothing.
    const fromPortal = await member.post(`${base}/schedule/${a.id}/accept`, { csrf });
    expect(fromPortal.status).toBe(409);
    expect(fromPortal.text).toContain('Already covered by Eli');
    const { token: danaToken } = await app.db
      .selectFrom('servicePlanAssignments')
      .select('token')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    const fromEmail = await form(`/serve/${danaToken}`, 'answer=accept');
    expect(fromEmail.status).toBe(409);
    expect(await fromEmail.text()).toContain('<h1>Already covered by Eli</h1>');
    expect(
      (await g.get(`${BASE}/plans/${plan.id}`)).body.assignments.map((x: { memberName: string; status: string }) => [
        x.memberName,
        x.status,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['Dana Lee', 'declined'],
        ['Eli', 'confirmed'],
      ]),
    );
    await eventsSettled(app.db);
    const log = (await g.get('/api/events?types=plan.swap_requested&limit=500')).body.events;
    expect(log.map((e: { contactId: number }) => e.contactId)).toEqual([contact.id]);
    // The date no longer shows once swapped.
    expect((await member.get(`${base}/swaps`)).text).toContain('You are not scheduled on any coming date.');
  });
});

describe('requests by text alone', () => {
  it('texts the request to a member whose email address is suppressed, with its Answer link', async () => {
    const contact = await addContact(g, {
      firstName: 'Tess',
      lastName: 'Moore',
      email: 'tess@example.org',
      phone: '0413555111',
    });
    // Her address bounced: it is on the church's suppression list.
    await app.db
      .insertInto('emailSuppressions')
      .values({ userId: grace.user.id, email: 'tess@example.org', reason: 'hard_bounce' })
      .execute();
    const tess = (await g.post(`${BASE}/members`, { contactId: contact.id })).body;
    const nobody = (await g.post(`${BASE}/members`, { name: 'Ned' })).body;
    const plan = (await g.post(`${BASE}/plans`, { title: 'Advent Sunday', date: '2031-11-30', startTime: '10:00' }))
      .body;
    const a = (await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: tess.id })).body;
    await g.post(`${BASE}/plans/${plan.id}/assignments`, { memberId: nobody.id });
    const sent = await g.post(`${BASE}/plans/${plan.id}/send-requests`);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ sent: 1, skippedNoEmail: ['Ned'] });
    expect(sent.body.message).toMatch(/^Requests sent to 1 person; no email address for Ned/);
    const texts = await app.db
      .selectFrom('deliveries')
      .select(['channel', 'kind', 'plannerNotice', 'address'])
      .where('assignmentId', '=', a.id)
      .execute();
    expect(texts).toEqual([
      { channel: 'sms', kind: 'planner-notice', plannerNotice: 'request', address: '+61413555111' },
    ]);
    const now = (await g.get(`${BASE}/plans/${plan.id}`)).body;
    expect(now.assignments.find((x: { id: number }) => x.id === a.id).requestedAt).not.toBeNull();
    // Asked once: a second press texts nobody again.
    expect((await g.post(`${BASE}/plans/${plan.id}/send-requests`)).body.sent).toBe(0);
    await eventsSettled(app.db);
    const log = (await g.get('/api/events?types=plan.request_sent&limit=500')).body.events;
    expect(log.filter((e: { contactId: number }) => e.contactId === contact.id)).toHaveLength(1);
  });
});
