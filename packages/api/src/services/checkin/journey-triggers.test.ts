import { describe, expect, it } from 'vitest';
import { tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { createOutboxTransport } from '../../providers/email.js';
import { createSmsOutboxTransport } from '../../providers/sms.js';
import { defaultDeliveryConfig } from '../delivery/config.js';
import { JOURNEY_STARTERS, journeyFieldsSchema, type JourneyFieldsInput } from '../../schemas/journeys.js';
import { activateJourney, createJourney } from '../journeys/definitions.js';
import { processJourneyTriggers } from '../journeys/triggers.js';
import { runDueEnrollments } from '../journeys/runner.js';
import { deliverJourney } from '../journeys/channel.js';
import { setConsent } from '../contacts/consent.js';
import { contactVerdict, DELIVERY_KIND_RULES } from '../delivery/contact-rule.js';
import { checkIn } from './check-in.js';
import { addFamily } from './families.js';
import type { CheckinScope } from './scope.js';
import { eventsSettled } from '../events/log.js';

// The journeys' check-in triggers on real PostgreSQL, with a clock the test holds: a family's
// first check-in, N weeks in a row, and the ready journey welcoming a first-time family.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'grace@example.org',
  timeZone: 'UTC',
});
await db.updateTable('users').set({ emailVerifiedAt: new Date() }).execute();
const t = tenantDb(db, church.id);
const deps = {
  db,
  jobs: { send: async () => 'id', cancel: async () => {} } as JobQueue,
  email: createOutboxTransport(db),
  sms: createSmsOutboxTransport(db),
  config: {
    ...defaultDeliveryConfig,
    publicUrl: 'http://localhost',
    trackingSecret: 'test-secret',
    emailFrom: 'Lampstand <no-reply@localhost>',
    smsFromNumber: '+15005550006',
    smsQuietHours: false,
  },
};
const T0 = new Date('2026-12-06T10:00:00Z'); // a Sunday morning
const scope = (now = T0): CheckinScope => ({ tenantId: church.id, station: null, userId: church.id, now });
const room = await t
  .insertInto('checkinRooms')
  .values({ userId: church.id, name: 'All ages' })
  .returning('id')
  .executeTakeFirstOrThrow();

async function family(name: string, subscribed = true) {
  const c = await t
    .insertInto('contacts')
    .values({
      userId: church.id,
      firstName: name,
      lastName: 'Family',
      email: `${name.toLowerCase()}@example.org`,
      phone: '+15550001234',
      phoneE164: '+15550001234',
      emailConsent: subscribed ? 'subscribed' : 'unsubscribed',
      smsConsent: subscribed ? 'subscribed' : 'unsubscribed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const child = await t
    .insertInto('contactChildren')
    .values({ userId: church.id, parentContactId: c.id, name: `${name} Jr` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: c.id, childId: child.id };
}
const checkInOn = (f: { id: number; childId: number }, day: string) =>
  checkIn(
    t,
    scope(),
    {
      familyId: f.id,
      serviceId: null,
      children: [{ childId: f.childId, roomId: room.id, ageOverride: false }],
      confirmOverCapacity: false,
    },
    { day },
  );
async function active(f: JourneyFieldsInput) {
  const j = await createJourney(db, church.id, journeyFieldsSchema.parse(f));
  return activateJourney(db, church.id, { id: j.id });
}
async function tick(at: Date) {
  // Events written just before are read once they settle (events/log.ts).
  await eventsSettled(db);
  await processJourneyTriggers(db, at);
  const r = await runDueEnrollments(db, { now: at });
  for (const id of r.journeysToDeliver) await deliverJourney(deps, id);
}
const enrolled = async (journeyId: number) =>
  (
    await db
      .selectFrom('journeyEnrollments')
      .select('contactId')
      .where('journeyId', '=', journeyId)
      .orderBy('id')
      .execute()
  ).map((e) => e.contactId);
const note = { id: 'n', kind: 'notify', subject: 'x', message: 'x', next: null } as const;

describe('check-in triggers', () => {
  it("start a journey on a family's first check-in, and on N weeks in a row (once per run)", async () => {
    const first = await active({ name: 'First', trigger: { kind: 'checked_in', firstTimeOnly: true }, steps: [note] });
    const streak = await active({
      name: 'Three weeks',
      trigger: { kind: 'checked_in', weeksInARow: 3 },
      entryRule: { kind: 'every_time' },
      steps: [note],
    });
    const ruth = await family('Ruth');
    const naomi = await family('Naomi');
    // Ruth: three Sundays running, then a fourth. Naomi: two Sundays, a gap, one more.
    for (const day of ['2026-11-22', '2026-11-29', '2026-12-06', '2026-12-13']) await checkInOn(ruth, day);
    for (const day of ['2026-11-15', '2026-11-22', '2026-12-06']) await checkInOn(naomi, day);
    await tick(T0);
    expect(await enrolled(first.id)).toEqual([ruth.id, naomi.id]);
    expect(await enrolled(streak.id)).toEqual([ruth.id]);
  });

  it('the ready journey welcomes a first-time family that afternoon, through the engine and its consent rule', async () => {
    const starter = JOURNEY_STARTERS.find((s) => s.key === 'first-time-family')!;
    const j = await active(starter.fields);
    // The same messages as marketing (not marked operational): the station's parent gave no consent.
    const marketing = await active({
      ...starter.fields,
      name: 'Our news',
      steps: starter.fields.steps!.map((s) =>
        s.kind === 'email'
          ? { ...s, subject: 'News from {{churchName}}', operational: false }
          : s.kind === 'sms'
            ? { ...s, body: 'News!', operational: false }
            : s,
      ),
    });
    const boaz = await family('Boaz');
    await checkInOn(boaz, '2026-12-06');
    const addAtStation = (firstName: string, phone: string) =>
      addFamily(
        t,
        scope(),
        {
          firstName,
          lastName: 'New',
          phone,
          email: `${firstName.toLowerCase()}@example.org`,
          children: [{ name: `${firstName} Kid`, dateOfBirth: null, grade: null, allergies: null, medicalNotes: null }],
        },
        '2026-12-06',
      );
    // Two families added at the station: Orpah, and Mara who opts out of both channels before the afternoon.
    const orpah = await addAtStation('Orpah', '555 010 7777');
    const mara = await addAtStation('Mara', '555 010 8888');
    for (const f of [orpah, mara]) await checkInOn({ id: f.id, childId: f.children[0]!.id }, '2026-12-06');
    await setConsent(t, church.id, {
      contactId: mara.id,
      channel: 'email',
      status: 'unsubscribed',
      source: 'unsubscribe link',
    });
    await setConsent(t, church.id, {
      contactId: mara.id,
      channel: 'sms',
      status: 'unsubscribed',
      source: 'sms keyword',
    });
    await tick(T0);
    expect(await enrolled(j.id)).toEqual(expect.arrayContaining([boaz.id, orpah.id, mara.id]));
    await tick(new Date(T0.getTime() + 4 * 3600_000 + 60_000));
    await tick(new Date(T0.getTime() + 4 * 3600_000 + 120_000));
    const sent = await db
      .selectFrom('outboxMessages')
      .select(['channel', 'toAddress', 'subject'])
      .where('userId', '=', church.id)
      .orderBy('id')
      .execute();
    const to = (address: string) => sent.filter((m) => m.toAddress === address);
    const phoneOf = async (id: number) =>
      (await t.selectFrom('contacts').select('phoneE164').where('id', '=', id).executeTakeFirstOrThrow()).phoneE164!;
    const orpahPhone = await phoneOf(orpah.id);
    // The welcome reaches the parent who gave the phone and email at the station: a text and an email.
    expect(to('orpah@example.org')).toEqual([
      { channel: 'email', toAddress: 'orpah@example.org', subject: 'Thank you for visiting Grace' },
    ]);
    expect(to(orpahPhone).map((m) => m.channel)).toEqual(['sms']);
    const welcome = await db
      .selectFrom('deliveries')
      .select(['givenAtCheckin', 'status'])
      .where('journeyId', '=', j.id)
      .where('contactId', '=', orpah.id)
      .execute();
    expect(welcome).toEqual([
      { givenAtCheckin: true, status: 'sent' },
      { givenAtCheckin: true, status: 'sent' },
    ]);
    // Marketing does not: not the same messages as a journey, nor a campaign (the engine's question).
    expect(sent.filter((m) => m.subject === 'News from Grace').map((m) => m.toAddress)).toEqual(['boaz@example.org']);
    const news = await db
      .selectFrom('deliveries')
      .select(['address', 'status', 'lastError'])
      .where('journeyId', '=', marketing.id)
      .where('contactId', '=', orpah.id)
      .execute();
    expect(news).toEqual([]);
    for (const [channel, address] of [
      ['email', 'orpah@example.org'],
      ['sms', orpahPhone],
    ] as const)
      expect(
        await contactVerdict(t, church.id, { channel, ...DELIVERY_KIND_RULES.campaign, answer: true, address }),
      ).toMatchObject({ send: false });
    // A parent who opted out after the station is not welcomed either.
    expect(to('mara@example.org')).toEqual([]);
    expect(to(await phoneOf(mara.id))).toEqual([]);
  });

  it('an operational message step is refused outside a first check-in journey', async () => {
    const j = await createJourney(
      db,
      church.id,
      journeyFieldsSchema.parse({
        name: 'Sneaky news',
        trigger: { kind: 'checked_in', weeksInARow: 2 },
        steps: [{ id: 's', kind: 'sms', name: 'News', body: 'Hello', operational: true, next: null }],
      }),
    );
    await expect(activateJourney(db, church.id, { id: j.id })).rejects.toThrow(
      "Step 1: only a first check-in's welcome is sent without consent to campaigns",
    );
  });
});
