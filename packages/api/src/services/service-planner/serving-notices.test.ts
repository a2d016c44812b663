import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import { respondToRequest, sendRequests } from './requests.js';
import { deliverPlannerNotices } from './notices.js';
import { updatePlannerSettings } from './planner-settings.js';
import { dueReminder, runPlannerDue, sendDueReminders } from './reminders.js';
import { acceptCover, offerSwap, requestSubstitute } from './substitutes.js';
import { closeExpiredOffers } from './offer-expiry.js';

// Serving notices on a controlled clock: reminders exactly once by consent; substitutes (the first
// Accept wins under concurrency, the others are told, the timeout tells the leader); events
// written in the same transaction as what they describe.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'leader@grace.example',
  timeZone: 'America/Chicago',
});
const T = church.id;

const { sent, deps } = recordingDeliveryDeps(db);

let seq = 0;
const token = () => `tok${++seq}`.padEnd(43, 'x');

async function plan(date: string, startTime = '10:00', title = 'Sunday Service') {
  return (
    await db
      .insertInto('servicePlans')
      .values({ userId: T, title, date, startTime, location: 'Main Hall' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

async function position(name: string) {
  return (await db.insertInto('teamPositions').values({ userId: T, name }).returning('id').executeTakeFirstOrThrow())
    .id;
}

async function member(
  name: string,
  o: {
    positions?: number[];
    phone?: string;
    emailConsent?: 'subscribed' | 'unsubscribed';
    isActive?: boolean;
    maxPerMonth?: number;
  } = {},
) {
  const email = `${name.toLowerCase()}@example.org`;
  const contact = await db
    .insertInto('contacts')
    .values({
      userId: T,
      firstName: name,
      lastName: 'X',
      email,
      phoneE164: o.phone ?? null,
      emailConsent: o.emailConsent ?? 'subscribed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const m = await db
    .insertInto('teamMembers')
    .values({
      userId: T,
      name,
      email,
      contactId: contact.id,
      isActive: o.isActive ?? true,
      maxPerMonth: o.maxPerMonth ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const p of o.positions ?? [])
    await db.insertInto('teamMemberPositions').values({ teamMemberId: m.id, positionId: p }).execute();
  return { id: m.id, contactId: contact.id, email };
}

async function assign(
  planId: number,
  memberId: number,
  positionId: number | null,
  status: 'scheduled' | 'confirmed' | 'declined' = 'scheduled',
) {
  const t = token();
  const a = await db
    .insertInto('servicePlanAssignments')
    .values({ userId: T, servicePlanId: planId, teamMemberId: memberId, positionId, status, token: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: a.id, token: t };
}

const notices = (assignmentId: number) =>
  db
    .selectFrom('deliveries')
    .select(['plannerNotice', 'channel', 'address'])
    .where('kind', '=', 'planner-notice')
    .where('assignmentId', '=', assignmentId)
    .orderBy('id')
    .execute();

const eventsOf = (type: string) =>
  db
    .selectFrom('events')
    .select(['contactId', 'payload as data'])
    .where('userId', '=', T)
    .where('type', '=', type)
    .orderBy('id')
    .execute();

/** The candidate token of an offer for a member. */
const candidateToken = async (offerId: number, memberId: number) =>
  (
    await db
      .selectFrom('substituteOfferCandidates')
      .select('token')
      .where('offerId', '=', offerId)
      .where('teamMemberId', '=', memberId)
      .executeTakeFirstOrThrow()
  ).token;

describe('requests', () => {
  it('go by email and, by consent, as a text to the linked contact, once', async () => {
    const keys = await position('Keys');
    const p = await plan('2031-08-03');
    const gil = await member('Gil', { positions: [keys], phone: '+15551230007' });
    const hal = await member('Hal', { positions: [keys] });
    const aGil = await assign(p, gil.id, keys);
    const aHal = await assign(p, hal.id, keys);
    const r = await sendRequests(deps, T, { planId: p });
    expect(r.sent).toBe(2);
    expect(sent.at(-1)).toEqual({ name: 'planner-notice-deliver', data: { planId: p } });
    expect((await notices(aGil.id)).map((n) => `${n.plannerNotice}/${n.channel}/${n.address}`)).toEqual([
      'request/sms/+15551230007',
    ]);
    expect(await notices(aHal.id)).toEqual([]);
    await deliverPlannerNotices(deps, p);
    const text = await db
      .selectFrom('outboxMessages')
      .select('text')
      .where('toAddress', '=', '+15551230007')
      .executeTakeFirstOrThrow();
    expect(text.text).toBe(
      `Can you serve as Keys at Sunday Service on Sunday, August 3, 2031 at 10:00 AM at Main Hall? Answer: http://localhost/serve/${aGil.token}`,
    );
    // Asked once: pressing Send requests again texts nobody.
    expect((await sendRequests(deps, T, { planId: p })).sent).toBe(0);
    expect(await notices(aGil.id)).toHaveLength(1);
  });
});

describe('reminders', () => {
  it('the nearest reminder due, none after the plan started', () => {
    const start = new Date('2031-03-09T16:00:00Z');
    expect(dueReminder(start, [3, 1], new Date('2031-03-06T15:59:00Z'))).toBeNull();
    expect(dueReminder(start, [3, 1], new Date('2031-03-06T16:00:00Z'))).toBe(3);
    expect(dueReminder(start, [3, 1], new Date('2031-03-08T17:00:00Z'))).toBe(1);
    expect(dueReminder(start, [3, 1], new Date('2031-03-09T16:00:00Z'))).toBeNull();
  });

  it('go out at 3 days and 1 day before, exactly once each, by consent, with the time, place and items', async () => {
    const sound = await position('Sound');
    // 10:00 in Chicago on 9 March 2031 is 15:00 UTC (CDT starts that morning).
    const p = await plan('2031-03-09');
    const item = await db
      .insertInto('serviceItems')
      .values({ userId: T, servicePlanId: p, title: 'Welcome', position: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ann = await member('Ann', { positions: [sound], phone: '+15551230001' });
    const bob = await member('Bob', { emailConsent: 'unsubscribed' });
    const cy = await member('Cy');
    const dee = await member('Dee');
    const aAnn = await assign(p, ann.id, sound);
    await db.updateTable('servicePlanAssignments').set({ serviceItemId: item.id }).where('id', '=', aAnn.id).execute();
    const aBob = await assign(p, bob.id, null, 'confirmed');
    const aCy = await assign(p, cy.id, null, 'declined');
    const aDee = await assign(p, dee.id, null, 'confirmed');

    // Four days before: nothing is due.
    expect(await sendDueReminders(deps, { now: new Date('2031-03-05T15:00:00Z') })).toBe(0);
    // One minute before three days before: still nothing.
    expect(await sendDueReminders(deps, { now: new Date('2031-03-06T14:59:00Z') })).toBe(0);
    const threeDays = new Date('2031-03-06T15:00:00Z');
    sent.length = 0;
    expect((await runPlannerDue(deps, { now: threeDays })).reminders).toBe(2);
    expect(sent).toEqual([{ name: 'planner-notice-deliver', data: { planId: p } }]);
    // Ann by email and text (she has a mobile, both subscribed); Dee by email; Bob unsubscribed
    // from email and has no mobile: nothing; Cy declined: nothing.
    expect(await notices(aAnn.id)).toEqual([
      { plannerNotice: 'reminder:3', channel: 'email', address: ann.email },
      { plannerNotice: 'reminder:3', channel: 'sms', address: '+15551230001' },
    ]);
    expect(await notices(aDee.id)).toEqual([{ plannerNotice: 'reminder:3', channel: 'email', address: dee.email }]);
    expect(await notices(aBob.id)).toEqual([]);
    expect(await notices(aCy.id)).toEqual([]);

    // Again at the same time, and two runs at once a little later: nothing more.
    expect(await sendDueReminders(deps, { now: threeDays })).toBe(0);
    const later = new Date('2031-03-07T09:00:00Z');
    expect(await Promise.all([sendDueReminders(deps, { now: later }), sendDueReminders(deps, { now: later })])).toEqual(
      [0, 0],
    );

    // One day before: the second reminder, once, even when two runs race.
    const oneDay = new Date('2031-03-08T15:05:00Z');
    const raced = await Promise.all([sendDueReminders(deps, { now: oneDay }), sendDueReminders(deps, { now: oneDay })]);
    expect(raced[0] + raced[1]).toBe(2);
    expect((await notices(aAnn.id)).map((n) => `${n.plannerNotice}/${n.channel}`)).toEqual([
      'reminder:3/email',
      'reminder:3/sms',
      'reminder:1/email',
      'reminder:1/sms',
    ]);
    const events = await eventsOf('plan.reminder_sent');
    expect(events.map((e) => [e.contactId, (e.data as { daysBefore: number }).daysBefore])).toEqual([
      [ann.contactId, 3],
      [dee.contactId, 3],
      [ann.contactId, 1],
      [dee.contactId, 1],
    ]);
    expect(events[0]!.data).toMatchObject({ channels: ['email', 'sms'], position: 'Sound', plan: { id: p } });

    // The engine sends them: the plan's time, place and Ann's items.
    await deliverPlannerNotices(deps, p);
    const mail = await db
      .selectFrom('outboxMessages')
      .select(['subject', 'text'])
      .where('toAddress', '=', ann.email)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Reminder: Sunday Service on Sunday, March 9, 2031 at 10:00 AM');
    expect(mail.text).toContain(
      'you serve as Sound at Sunday Service on Sunday, March 9, 2031 at 10:00 AM at Main Hall.',
    );
    expect(mail.text).toContain('Your items: Welcome.');
    expect(mail.text).toContain(`http://localhost/serve/${aAnn.token}`);
    const text = await db
      .selectFrom('outboxMessages')
      .select('text')
      .where('toAddress', '=', '+15551230001')
      .executeTakeFirstOrThrow();
    expect(text.text).toContain('A reminder: you serve as Sound');
    // After the plan started: none.
    expect(await sendDueReminders(deps, { now: new Date('2031-03-09T15:00:00Z') })).toBe(0);
  });

  it("follow the church's days; none when it has none", async () => {
    const p = await plan('2031-05-04');
    const eve = await member('Eve');
    const a = await assign(p, eve.id, null, 'confirmed');
    await updatePlannerSettings(db, T, { reminderDays: [5] });
    expect(await sendDueReminders(deps, { now: new Date('2031-04-30T12:00:00Z') })).toBe(1);
    expect((await notices(a.id)).map((n) => n.plannerNotice)).toEqual(['reminder:5']);
    await updatePlannerSettings(db, T, { reminderDays: [] });
    expect(await sendDueReminders(deps, { now: new Date('2031-05-03T16:00:00Z') })).toBe(0);
    await updatePlannerSettings(db, T, { reminderDays: [3, 1] });
  });

  it('someone serving at 11:00 of a 9:00 and 11:00 plan is reminded of 11:00, a day before 11:00', async () => {
    await updatePlannerSettings(db, T, { reminderDays: [1] });
    const p = await plan('2031-06-08', '09:00', 'Two Services');
    await db
      .updateTable('servicePlans')
      .set({ serviceTimes: ['09:00', '11:00'] })
      .where('id', '=', p)
      .execute();
    const fay = await member('Fay');
    const a = await assign(p, fay.id, null, 'confirmed');
    await db.updateTable('servicePlanAssignments').set({ serviceTime: '11:00' }).where('id', '=', a.id).execute();
    // 11:00 in Chicago on 8 June 2031 is 16:00 UTC: a day before 9:00 (14:00 UTC) is too early.
    expect(await sendDueReminders(deps, { now: new Date('2031-06-07T15:00:00Z') })).toBe(0);
    expect(await sendDueReminders(deps, { now: new Date('2031-06-07T16:00:00Z') })).toBe(1);
    await deliverPlannerNotices(deps, p);
    const mail = await db
      .selectFrom('outboxMessages')
      .select(['subject'])
      .where('toAddress', '=', fay.email)
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Reminder: Two Services on Sunday, June 8, 2031 at 11:00 AM');
    await updatePlannerSettings(db, T, { reminderDays: [3, 1] });
  });
});

describe('substitutes', () => {
  it('offers a declined slot to free, qualified teammates; the first of two simultaneous accepts wins', async () => {
    const sound = await position('Sound desk');
    const p = await plan('2031-06-01', '10:00');
    const other = await plan('2031-06-01', '18:00', 'Evening');
    const juneEarlier = await plan('2031-06-08');
    const ann = await member('Anna', { positions: [sound] });
    const ben = await member('Ben', { positions: [sound] });
    const cal = await member('Cal', { positions: [sound] });
    const dot = await member('Dot', { positions: [sound], phone: '+15551230004' });
    const eve = await member('Evie', { positions: [sound] });
    const fay = await member('Fay', { positions: [sound], isActive: false });
    const gus = await member('Gus', { positions: [sound] });
    const hal = await member('Hal', { positions: [sound], maxPerMonth: 1 });
    const ivy = await member('Ivy');
    void fay;
    void ivy;
    await db
      .insertInto('teamMemberBlockouts')
      .values({ userId: T, teamMemberId: eve.id, startsOn: '2031-05-30', endsOn: '2031-06-02' })
      .execute();
    await assign(other, gus.id, null, 'confirmed'); // serving that evening
    await assign(juneEarlier, hal.id, null, 'confirmed'); // at his monthly limit
    const slot = await assign(p, ann.id, sound);

    // Not declined yet: refused, nothing written.
    await expect(requestSubstitute(deps, { token: slot.token })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await respondToRequest(db, { token: slot.token, response: 'decline' });
    const now = new Date('2031-05-25T12:00:00Z');
    const r = await requestSubstitute(deps, { token: slot.token, now });
    expect(r.offeredTo).toBe(3);
    expect(r.message).toBe(
      'We asked 3 teammates who can serve as Sound desk on Sunday, June 1 at 10:00 AM. The first to accept gets it.',
    );
    // Asking again: 409.
    await expect(requestSubstitute(deps, { token: slot.token, now })).rejects.toMatchObject({ code: 'CONFLICT' });
    const offered = await eventsOf('plan.substitute_offered');
    expect(offered.map((e) => e.contactId).sort()).toEqual([ben.contactId, cal.contactId, dot.contactId].sort());
    expect((await eventsOf('plan.substitute_requested')).map((e) => e.contactId)).toEqual([ann.contactId]);
    const offers = await notices(slot.id);
    expect(offers.map((n) => n.address).sort()).toEqual([ben.email, cal.email, dot.email, '+15551230004'].sort());

    await deliverPlannerNotices(deps, p);
    const question = await db
      .selectFrom('outboxMessages')
      .select(['subject', 'text'])
      .where('toAddress', '=', ben.email)
      .executeTakeFirstOrThrow();
    expect(question.subject).toBe('Can you cover Sound desk on Sunday, June 1 at 10:00 AM?');
    const offerId = r.offerId!;
    expect(question.text).toContain(`http://localhost/serve/cover/${await candidateToken(offerId, ben.id)}`);

    // Ben and Cal press Accept at the same moment: exactly one gets the slot.
    const [benToken, calToken] = [await candidateToken(offerId, ben.id), await candidateToken(offerId, cal.id)];
    const outcomes = await Promise.all([
      acceptCover(deps, { token: benToken, now }),
      acceptCover(deps, { token: calToken, now }),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['accepted', 'filled']);
    const winner = outcomes[0].outcome === 'accepted' ? ben : cal;
    const loser = winner === ben ? cal : ben;
    const serving = await db
      .selectFrom('servicePlanAssignments')
      .select(['teamMemberId', 'status', 'positionId'])
      .where('servicePlanId', '=', p)
      .orderBy('id')
      .execute();
    expect(serving).toEqual([
      { teamMemberId: ann.id, status: 'declined', positionId: sound },
      { teamMemberId: winner.id, status: 'confirmed', positionId: sound },
    ]);
    // Pressing again: still theirs; Dot later: filled.
    expect((await acceptCover(deps, { token: winner === ben ? benToken : calToken, now })).outcome).toBe('accepted');
    expect((await acceptCover(deps, { token: await candidateToken(offerId, dot.id), now })).outcome).toBe('filled');

    // The others are told it is filled, Anna that it is covered, the leader who covers.
    const after = (await notices(slot.id)).map((n) => `${n.plannerNotice!.replace(/:\d+$/, '')}/${n.address}`);
    expect(after).toEqual(
      expect.arrayContaining([
        `filled/${loser.email}`,
        `filled/${dot.email}`,
        `filled/+15551230004`,
        `covered/${ann.email}`,
        'leader-filled/leader@grace.example',
      ]),
    );
    expect(after.filter((n) => n.startsWith(`filled/${winner.email}`))).toEqual([]);
    expect((await eventsOf('plan.substitute_accepted')).map((e) => e.contactId)).toEqual([winner.contactId]);
    expect((await eventsOf('plan.substitute_filled')).map((e) => e.contactId)).toEqual([ann.contactId]);
    await deliverPlannerNotices(deps, p);
    const leader = await db
      .selectFrom('outboxMessages')
      .select(['subject', 'text'])
      .where('toAddress', '=', 'leader@grace.example')
      .executeTakeFirstOrThrow();
    const winnerName = winner === ben ? 'Ben' : 'Cal';
    expect(leader.subject).toBe(`${winnerName} covers Sound desk on Sunday, June 1 at 10:00 AM`);
    expect(leader.text).toContain(
      `${winnerName} accepted to cover Sound desk on Sunday, June 1 at 10:00 AM at Sunday Service for Anna.`,
    );
  });

  it("nobody accepts within the church's hours: the leader is told, and a late Accept finds it closed", async () => {
    const keys = await position('Keys');
    const p = await plan('2031-07-06');
    const kim = await member('Kim', { positions: [keys] });
    const lou = await member('Lou', { positions: [keys] });
    await updatePlannerSettings(db, T, { substituteHours: 24 });
    const slot = await assign(p, kim.id, keys, 'declined');
    const now = new Date('2031-07-01T12:00:00Z');
    const r = await requestSubstitute(deps, { token: slot.token, now });
    expect(r.offeredTo).toBe(1);
    expect(await closeExpiredOffers(deps, { now: new Date('2031-07-02T11:59:00Z') })).toBe(0);
    sent.length = 0;
    expect((await runPlannerDue(deps, { now: new Date('2031-07-02T12:00:00Z') })).unfilled).toBe(1);
    expect(sent).toContainEqual({ name: 'planner-notice-deliver', data: { planId: p } });
    expect((await notices(slot.id)).map((n) => `${n.plannerNotice}/${n.address}`)).toContain(
      'leader-unfilled/leader@grace.example',
    );
    expect((await eventsOf('plan.substitute_unfilled')).map((e) => e.contactId)).toEqual([kim.contactId]);
    expect((await acceptCover(deps, { token: await candidateToken(r.offerId!, lou.id) })).outcome).toBe('closed');
    await deliverPlannerNotices(deps, p);
    const mail = await db
      .selectFrom('outboxMessages')
      .select('subject')
      .where('toAddress', '=', 'leader@grace.example')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Nobody has covered Keys on Sunday, July 6 at 10:00 AM');
    await updatePlannerSettings(db, T, { substituteHours: 48 });
  });

  it('a swap from the portal: only their own slot; the one who offered it stops serving when a teammate accepts', async () => {
    const drums = await position('Drums');
    const p = await plan('2031-08-03');
    const max = await member('Max', { positions: [drums] });
    const ned = await member('Ned', { positions: [drums] });
    const slot = await assign(p, max.id, drums, 'confirmed');
    await expect(offerSwap(deps, T, { assignmentId: slot.id, memberIds: [ned.id] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const other = await registerUser(db, {
      username: 'hope',
      password: 'secret12',
      churchName: 'Hope',
      email: 'h@example.org',
    });
    await expect(offerSwap(deps, other.id, { assignmentId: slot.id, memberIds: [max.id] })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const r = await offerSwap(deps, T, { assignmentId: slot.id, memberIds: [max.id] });
    expect(r.offeredTo).toBe(1);
    expect((await eventsOf('plan.swap_requested')).map((e) => e.contactId)).toEqual([max.contactId]);
    expect((await acceptCover(deps, { token: await candidateToken(r.offerId!, ned.id) })).outcome).toBe('accepted');
    const rows = await db
      .selectFrom('servicePlanAssignments')
      .select(['teamMemberId', 'status'])
      .where('servicePlanId', '=', p)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { teamMemberId: max.id, status: 'declined' },
      { teamMemberId: ned.id, status: 'confirmed' },
    ]);
  });

  it('over the daily limit: nothing is half-written (no offer, no deliveries, no events)', async () => {
    const bass = await position('Bass');
    const p = await plan('2031-09-07');
    const oli = await member('Oli', { positions: [bass] });
    await member('Pat', { positions: [bass] });
    const slot = await assign(p, oli.id, bass, 'declined');
    const before = (await eventsOf('plan.substitute_requested')).length;
    await db.updateTable('users').set({ dailyRecipientLimit: 0 }).where('id', '=', T).execute();
    await expect(requestSubstitute(deps, { token: slot.token })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    await db.updateTable('users').set({ dailyRecipientLimit: null }).where('id', '=', T).execute();
    expect(await db.selectFrom('substituteOffers').select('id').where('assignmentId', '=', slot.id).execute()).toEqual(
      [],
    );
    expect(await notices(slot.id)).toEqual([]);
    expect((await eventsOf('plan.substitute_requested')).length).toBe(before);
  });
});

describe('the contact rule', () => {
  it('a reminder never reaches a suppressed address: not queued, or skipped with the reason when it bounced since', async () => {
    await updatePlannerSettings(db, T, { reminderDays: [3] });
    // 10:00 in Chicago on 6 June 2032 is 15:00 UTC; three days before.
    const p = await plan('2032-06-06');
    const flo = await member('Flo', { phone: '+15551230011' });
    const gus = await member('Gus');
    await db
      .insertInto('emailSuppressions')
      .values({ userId: T, email: flo.email, reason: 'hard_bounce', detail: '550 unknown user' })
      .execute();
    const aFlo = await assign(p, flo.id, null, 'confirmed');
    const aGus = await assign(p, gus.id, null, 'confirmed');
    expect((await runPlannerDue(deps, { now: new Date('2032-06-03T15:00:00Z') })).reminders).toBe(2);
    // Flo's address bounced: only her text is queued.
    expect(await notices(aFlo.id)).toEqual([{ plannerNotice: 'reminder:3', channel: 'sms', address: '+15551230011' }]);
    // Gus complains about something else before his reminder is sent: the engine skips it.
    await db
      .insertInto('emailSuppressions')
      .values({ userId: T, email: gus.email, reason: 'complaint', detail: 'abuse report' })
      .execute();
    await deliverPlannerNotices(deps, p);
    const gusDelivery = await db
      .selectFrom('deliveries')
      .select(['status', 'lastError'])
      .where('kind', '=', 'planner-notice')
      .where('assignmentId', '=', aGus.id)
      .executeTakeFirstOrThrow();
    expect(gusDelivery).toEqual({ status: 'failed', lastError: 'Skipped: suppressed (complaint)' });
    await updatePlannerSettings(db, T, { reminderDays: [3, 1] });
  });

  it('a request is not emailed to a member who unsubscribed from email, and the planner is told', async () => {
    const p = await plan('2032-07-04');
    const ivy = await member('Ivy', { emailConsent: 'unsubscribed' });
    const a = await assign(p, ivy.id, null);
    const r = await sendRequests(deps, T, { planId: p });
    expect(r.sent).toBe(0);
    expect(r.message).toContain('Ivy unsubscribed from email');
    const requests = await db.selectFrom('deliveries').select('id').where('assignmentId', '=', a.id).execute();
    expect(requests).toEqual([]);
  });
});
