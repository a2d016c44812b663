import { describe, expect, it } from 'vitest';
import { createEvent, demoPay, register } from '../helpers/calendar.js';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, signInToPortal } from '../helpers/portal.js';

// 'My events' in the members' portal: a signed-in member registers for a members-only event (the
// public page is 404 for it) ticking who of their household comes, lists their registrations,
// changes the answers, cancels a paid one with the refund the event's policy gives; another
// person's registration is 404.

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-my-events');
const base = `/c/${handle}/me`;
const g = grace.client;
const email = 'reed.family@example.org';
await addContact(g, { firstName: 'Ruth', lastName: 'Reed', email });
await addContact(g, { firstName: 'Sam', lastName: 'Reed', email });
await addContact(g, { firstName: 'Other', lastName: 'Person', email: 'other.person@example.org' });

const meeting = await createEvent(g, {
  title: 'Members meeting',
  slug: 'members-meeting',
  visibility: 'members',
  questions: [{ scope: 'attendee', kind: 'short_text', label: 'Allergies', required: true }],
});
const allergies = meeting.questions[0]!;
const retreat = await createEvent(g, {
  title: 'Retreat',
  slug: 'retreat',
  refundPolicy: 'full',
  ticketTypes: [{ name: 'Adult', priceCents: 4000 }],
});
const member = await signInToPortal(app.db, app.url, base, email);
const csrf = await member.csrf(`${base}/events`);

const attendee = (registrationId: number, name: string) =>
  app.db
    .selectFrom('calendarAttendees')
    .select('id')
    .where('registrationId', '=', registrationId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();

describe("the portal's My events", () => {
  it('offers the members-only event, which the public page does not show', async () => {
    const list = await member.get(`${base}/events`);
    expect(list.status).toBe(200);
    expect(list.text).toContain(`href="${base}/events/members-meeting"`);
    expect((await fetch(`${app.url}/c/${handle}/events/members-meeting`)).status).toBe(404);
  });

  it('registers the household for a members-only event: a box to tick per person, others typed in', async () => {
    const form = await member.get(`${base}/events/members-meeting`);
    expect(form.status).toBe(200);
    // The member is ticked; the rest of the household is offered, unticked.
    expect(form.text).toContain(
      '<input type="checkbox" name="attendees.0.coming" value="yes" checked>Ruth Reed</label>',
    );
    expect(form.text).toContain('<input type="checkbox" name="attendees.1.coming" value="yes">Sam Reed</label>');
    expect(form.text).not.toContain('<datalist');
    const ticket = String(meeting.ticketTypes[0]!.id);
    const fields = {
      csrf,
      count: '3',
      key: `portal-${Date.now()}`,
      'registrant.name': 'Ruth Reed',
      'registrant.email': email,
      'attendees.0.coming': 'yes',
      'attendees.0.name': 'Ruth Reed',
      'attendees.0.ticketTypeId': ticket,
      [`attendees.0.answers.${allergies.id}`]: 'None',
      'attendees.1.name': 'Sam Reed',
      'attendees.1.ticketTypeId': ticket,
      'attendees.2.name': 'Gus Gray',
      'attendees.2.ticketTypeId': ticket,
    };
    // Sam not ticked; the guest typed in has no answer: the error is by the guest's field.
    const missing = await member.post(`${base}/events/members-meeting/register`, fields);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain(
      `<p class="err" id="f-attendees-2-answers-${allergies.id}-err">&quot;Allergies&quot; needs an answer</p>`,
    );
    expect(missing.text).toContain('<input type="checkbox" name="attendees.1.coming" value="yes">Sam Reed</label>');
    const { 'attendees.2.name': _, 'attendees.2.ticketTypeId': __, ...household } = fields;
    const res = await member.post(`${base}/events/members-meeting/register`, {
      ...household,
      count: '2',
      'attendees.1.coming': 'yes',
      [`attendees.1.answers.${allergies.id}`]: 'Peanuts',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('You are registered');
    const list = await member.get(`${base}/events`);
    expect(list.text).toContain('Members meeting');
    expect(list.text).toContain('Sam Reed: ticket');
    expect(list.text).not.toContain('Gus Gray');
  });

  it("changes an attendee's answer", async () => {
    const reg = await app.db
      .selectFrom('calendarRegistrations')
      .select('id')
      .where('eventId', '=', meeting.id)
      .executeTakeFirstOrThrow();
    const sam = await attendee(reg.id, 'Sam Reed');
    const ruth = await attendee(reg.id, 'Ruth Reed');
    expect((await member.get(`${base}/events/registrations/${reg.id}`)).text).toContain('value="Peanuts"');
    const saved = await member.post(`${base}/events/registrations/${reg.id}`, {
      csrf,
      [`attendee.${ruth.id}.answers.${allergies.id}`]: 'None',
      [`attendee.${sam.id}.answers.${allergies.id}`]: 'Peanuts and shellfish',
    });
    expect(saved.status, saved.text).toBe(303);
    const out = await g.get(`/api/registrations/${reg.id}`);
    expect(out.body.answers).toEqual(
      expect.arrayContaining([expect.objectContaining({ attendeeId: sam.id, value: 'Peanuts and shellfish' })]),
    );
  });

  it('cancels a paid registration with a full refund, and never reaches another person’s', async () => {
    const visitor = new HttpClient(app.url);
    const paid = await register(visitor, retreat, { registrant: { name: 'Ruth Reed', email } }, ['Ruth Reed']);
    expect(paid.status, paid.text).toBe(200);
    await demoPay(visitor, paid.body.payment);
    await expect
      .poll(async () => (await g.get(`/api/registrations/${paid.body.registrationId}`)).body.status)
      .toBe('confirmed');
    const other = await register(visitor, retreat, {}, ['Other Person']);
    expect((await member.get(`${base}/events/registrations/${other.body.registrationId}`)).status).toBe(404);
    expect(
      (await member.post(`${base}/events/registrations/${other.body.registrationId}/cancel`, { csrf })).status,
    ).toBe(404);

    const list = await member.get(`${base}/events`);
    expect(list.text).toContain('You will be refunded $40.00.');
    const cancelled = await member.post(`${base}/events/registrations/${paid.body.registrationId}/cancel`, { csrf });
    expect(cancelled.status, cancelled.text).toBe(303);
    const reg = await app.db
      .selectFrom('calendarRegistrations')
      .select(['status', 'refundDueCents', 'refundedCents'])
      .where('id', '=', paid.body.registrationId)
      .executeTakeFirstOrThrow();
    expect(reg.status).toBe('cancelled');
    expect(reg.refundDueCents + reg.refundedCents).toBe(4000);
    expect(
      (await member.post(`${base}/events/registrations/${paid.body.registrationId}/cancel`, { csrf: 'x' })).status,
    ).toBe(403);
  });
});
