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
import { checkIn } from './check-in.js';
import { addFamily } from './families.js';
import type { CheckinScope } from './scope.js';

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
    const boaz = await family('Boaz');
    await checkInOn(boaz, '2026-12-06');
    // A family added at the station has given no consent to be contacted: the rule skips them.
    const added = await addFamily(
      t,
      scope(),
      {
        firstName: 'Orpah',
        lastName: 'New',
        phone: '555 010 7777',
        email: 'orpah@example.org',
        children: [{ name: 'Kid', dateOfBirth: null, grade: null, allergies: null, medicalNotes: null }],
      },
      '2026-12-06',
    );
    await checkInOn({ id: added.id, childId: added.children[0]!.id }, '2026-12-06');
    await tick(T0);
    expect(await enrolled(j.id)).toEqual(expect.arrayContaining([boaz.id, added.id]));
    await tick(new Date(T0.getTime() + 4 * 3600_000 + 60_000));
    await tick(new Date(T0.getTime() + 4 * 3600_000 + 120_000));
    const mail = await db.selectFrom('outboxMessages').select(['toAddress', 'subject']).orderBy('id').execute();
    expect(mail).toContainEqual({ toAddress: 'boaz@example.org', subject: 'Thank you for visiting Grace' });
    expect(mail.map((m) => m.toAddress)).not.toContain('orpah@example.org');
  });
});
