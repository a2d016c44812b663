import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { createDemoPayments } from '../../providers/payments.js';
import { DEFAULT_CARD_FEE } from '../../schemas/giving/amounts.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import { prepareGift } from '../giving/prepare-gift.js';
import { listRenewals } from '../giving/renewals.js';
import { commitMoveIn, uploadMoveIn } from '../imports/imports.js';
import { runMoveInImport } from '../imports/run.js';
import { completeDemoPayment } from '../show-up/stripe-webhook.js';
import { deliverJourney } from './channel.js';
import { runDueEnrollments } from './runner.js';

// The ready journey that asks recurring givers back after a move, on real PostgreSQL with a clock
// the test holds: a Planning Center recurring export enrols two givers who may be emailed and
// texted; each gets the email, three days later the text, a week after that the reminder, each
// with their own personal link, sent through the delivery engine to the outbox. One of them sets
// the gift up again through the link after the text (demo payments save the card): the journey
// stops for them, and the other still gets the reminder.

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace Church',
  email: 'grace@example.org',
  timeZone: 'America/New_York',
});
// Verified: no daily limit.
await db.updateTable('users').set({ emailVerifiedAt: new Date() }).execute();
await db.insertInto('churchProfiles').values({ userId: church.id, handle: 'grace-back' }).execute();

const PUBLIC_URL = 'http://localhost';
// The local outboxes; the real clock's time of day holds no text (the runner still keeps texts out of
// the church's night, hence the held clock's 10:00 in New York below).
const { jobs, deps } = recordingDeliveryDeps(db);
const payments = createDemoPayments({ webhookSecret: 'whsec_renewal_test', connect: false, platformFeePercent: 0 });
const giving = { db, payments, jobs, cardFee: DEFAULT_CARD_FEE, publicUrl: PUBLIC_URL };

/** A giver who said yes to email and to texts. */
async function giver(firstName: string, email: string, phone: string) {
  return db
    .insertInto('contacts')
    .values({
      userId: church.id,
      firstName,
      lastName: 'Ephrath',
      email,
      phone,
      phoneE164: phone,
      emailConsent: 'subscribed',
      smsConsent: 'subscribed',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
const ruth = await giver('Ruth', 'ruth@example.org', '+15125550111');
const boaz = await giver('Boaz', 'boaz@example.org', '+15125550122');

const HEADER =
  'Recurring Donation ID,Person ID,First Name,Last Name,Email,Phone,Fund,Amount,Frequency,Status,Next Occurrence,Last Donation Received At,Created At,Payment Method';
const CSV = [
  HEADER,
  'R1,11,Ruth,Ephrath,ruth@example.org,(512) 555-0111,General Fund,40.00,Monthly,active,,2026-11-01,2024-01-01,card',
  'R2,12,Boaz,Ephrath,boaz@example.org,(512) 555-0122,General Fund,100.00,Monthly,active,,2026-11-05,2024-01-01,card',
].join('\n');

/** Due steps on the held clock, then the sends on the engine. */
async function tick(at: Date) {
  const r = await runDueEnrollments(db, { now: at });
  for (const id of r.journeysToDeliver) await deliverJourney(deps, id);
}
/** What the outbox holds for an address or a number (emails and texts share it). */
const outbox = (to: string) =>
  db.selectFrom('outboxMessages').selectAll().where('toAddress', '=', to).orderBy('id').execute();
const smsOutbox = outbox;
const enrolment = (contactId: number) =>
  db.selectFrom('journeyEnrollments').selectAll().where('contactId', '=', contactId).executeTakeFirstOrThrow();
const DAY = 86_400_000;
/** Where the email's "Set up my gift again" button leads (through the engine's click tracking). */
function linkIn(html: string | null): string | null {
  const href = /<a href="([^"]+)"[^>]*>Set up my gift again<\/a>/.exec(html ?? '')?.[1];
  return href ? new URL(href.replaceAll('&amp;', '&')).searchParams.get('u') : null;
}

describe('the journey that asks recurring givers back', () => {
  const links = new Map<string, string>();
  // Enrolment happens at the real time of the import; the test's clock starts after it, at 10:00 in
  // New York the next day (texts wait out the church's quiet hours at night).
  let t0 = new Date();
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('enrols the givers the import found, and emails each their personal link', async () => {
    const imp = await uploadMoveIn(db, church.id, { fileName: 'recurring.csv', csv: CSV });
    expect(imp.preview.recurring).toMatchObject({ count: 2, donorsMatched: 2 });
    const id = Number(imp.id);
    await commitMoveIn(db, jobs, church.id, { id, policy: {} });
    await runMoveInImport(db, id);
    const list = await listRenewals(db, church.id, PUBLIC_URL);
    expect(list.journey).toMatchObject({ name: 'Bring recurring givers back', status: 'active' });
    for (const r of list.renewals) links.set(r.donorName, r.link!);
    expect(links.get('Ruth Ephrath')).toMatch(/^http:\/\/localhost\/c\/grace-back\/give\?renew=[\w-]{43}$/);
    expect(links.get('Boaz Ephrath')).not.toBe(links.get('Ruth Ephrath'));
    t0 = new Date(`${new Date(Date.now() + DAY).toISOString().slice(0, 10)}T15:00:00Z`);

    await tick(at(0));
    for (const [name, email] of [
      ['Ruth', 'ruth@example.org'],
      ['Boaz', 'boaz@example.org'],
    ] as const) {
      const mail = await outbox(email);
      expect(mail.map((m) => m.subject)).toEqual(['Please set up your recurring gift to Grace Church again']);
      expect(linkIn(mail[0]!.html)).toBe(links.get(`${name} Ephrath`));
    }
    // Nothing texted yet: the text waits three days.
    expect(await smsOutbox('+15125550111')).toEqual([]);
    await tick(at(3 * DAY - 60_000));
    expect(await smsOutbox('+15125550111')).toEqual([]);
  });

  it('texts each their link three days later', async () => {
    await tick(at(3 * DAY + 60_000));
    for (const [name, phone] of [
      ['Ruth', '+15125550111'],
      ['Boaz', '+15125550122'],
    ] as const) {
      const texts = await smsOutbox(phone);
      expect(texts.map((t) => t.text)).toEqual([
        `Hi ${name}, Grace Church has a new giving system. Your recurring gift is ready to set up again here: ${links.get(`${name} Ephrath`)}`,
      ]);
    }
  });

  it('stops for the giver who sets the gift up again, and reminds the other a week later', async () => {
    const token = new URL(links.get('Ruth Ephrath')!).searchParams.get('renew')!;
    const renewal = (await listRenewals(db, church.id, PUBLIC_URL)).renewals.find(
      (r) => r.donorName === 'Ruth Ephrath',
    )!;
    const prepared = await prepareGift(giving, {
      handle: 'grace-back',
      lines: renewal.lines.map((l) => ({ fundId: l.fundId, amountCents: l.amountCents })),
      frequency: 'monthly',
      coverFees: false,
      donor: { name: 'Ruth Ephrath', email: 'ruth@example.org' },
      renew: token,
      idempotencyKey: 'renew-ruth-key-0001',
    });
    expect(prepared.kind).toBe('setup');
    await completeDemoPayment(
      { db, jobs, publicUrl: PUBLIC_URL, payments },
      { paymentIntent: prepared.intentId, clientSecret: prepared.clientSecret },
    );
    const after = await listRenewals(db, church.id, PUBLIC_URL);
    expect(after.totals).toMatchObject({ givers: 2, renewed: 1, monthlyCentsRecovered: 4000 });

    await tick(at(3 * DAY + 2 * 60_000));
    expect((await enrolment(ruth.id)).status).toBe('converted');
    expect((await enrolment(boaz.id)).status).toBe('active');

    await tick(at(10 * DAY + 2 * 60_000));
    expect((await outbox('boaz@example.org')).map((m) => m.subject)).toEqual([
      'Please set up your recurring gift to Grace Church again',
      'A reminder: your recurring gift to Grace Church',
    ]);
    expect(linkIn((await outbox('boaz@example.org'))[1]!.html)).toBe(links.get('Boaz Ephrath'));
    // Ruth re-enrolled: no reminder, now or later.
    await tick(at(30 * DAY));
    expect((await outbox('ruth@example.org')).map((m) => m.subject)).toEqual([
      'Please set up your recurring gift to Grace Church again',
    ]);
    expect(await smsOutbox('+15125550111')).toHaveLength(1);
    expect((await enrolment(boaz.id)).status).toBe('completed');
  });
});
