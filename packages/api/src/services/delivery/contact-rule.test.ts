import { describe, expect, it } from 'vitest';
import { ownerDb, sql, type Channel, type DeliveryKind } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { defaultDeliveryConfig, type DeliveryConfig } from './config.js';
import { CAMPAIGN_GROUP, runDeliveries, type ChannelDriver, type DeliveryGroup } from './engine.js';
import { DELIVERY_KIND_RULES, DIRECT_SEND_RULES, contactVerdict, mayContact } from './contact-rule.js';
import { sendTestEmail } from '../email-campaigns/test-email.js';
import { recordingDeliveryDeps } from './test-deps.js';
import { PLANNER_REQUESTS } from '../service-planner/request-channel.js';
import { PLANNER_NOTICES } from '../service-planner/notices.js';
import { JOURNEY_DELIVERIES } from '../journeys/channel.js';
import { TASK_NOTICES } from '../journeys/task-notices.js';
import { CONVERSATION_REPLIES } from '../conversations/reply-channel.js';
import { CONVERSATION_DIGESTS } from '../conversations/digest.js';
import { STATEMENT_DELIVERIES } from '../giving/statements.js';
import { PORTAL_DELIVERIES } from '../portal/messages.js';
import { REGISTRATION_DELIVERIES } from '../calendar/messages.js';
import { GROUP_MESSAGES } from '../groups/messages.js';

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
const noon = new Date('2026-11-30T12:00:00Z');
const config: DeliveryConfig = {
  ...defaultDeliveryConfig,
  publicUrl: 'http://localhost',
  trackingSecret: 'test-secret',
  emailFrom: 'Lampstand <no-reply@localhost>',
  smsFromNumber: '+15005550006',
  clock: () => noon,
};

/** Each kind's group: the one its own driver sends (a Record, so a new kind must be named here). */
const GROUPS: Record<DeliveryKind, DeliveryGroup> = {
  campaign: CAMPAIGN_GROUP,
  'planner-request': PLANNER_REQUESTS,
  'planner-notice': PLANNER_NOTICES,
  journey: JOURNEY_DELIVERIES,
  'task-notice': TASK_NOTICES,
  'conversation-reply': CONVERSATION_REPLIES,
  'conversation-digest': CONVERSATION_DIGESTS,
  'giving-statement': STATEMENT_DELIVERIES,
  portal: PORTAL_DELIVERIES,
  registration: REGISTRATION_DELIVERIES,
  'group-message': GROUP_MESSAGES,
};

// The people: one suppressed address (a hard bounce), one person who unsubscribed from email,
// one who texted STOP, and one of each channel who may be reached.
const SUPPRESSED = 'bounced@example.org';
const UNSUBSCRIBED = 'unsub@example.org';
const OK_EMAIL = 'ok@example.org';
const STOPPED = '+15551110001';
const OK_PHONE = '+15551110002';
await db
  .insertInto('contacts')
  .values([
    { userId: church.id, firstName: 'U', lastName: 'N', email: UNSUBSCRIBED, emailConsent: 'unsubscribed' },
    {
      userId: church.id,
      firstName: 'S',
      lastName: 'T',
      phone: STOPPED,
      phoneE164: STOPPED,
      smsConsent: 'unsubscribed',
    },
  ])
  .execute();
await db
  .insertInto('emailSuppressions')
  .values({ userId: church.id, email: SUPPRESSED, reason: 'hard_bounce', detail: '550 no such user' })
  .execute();

const ADDRESSES: Record<Channel, string[]> = { email: [SUPPRESSED, UNSUBSCRIBED, OK_EMAIL], sms: [STOPPED, OK_PHONE] };

let serial = 0;
/**
 * The deliveries of one group of `kind`, one per address, with the references its kind's check
 * asks for (foreign keys are not checked: the rule is what is tested, not the kind's own rows).
 */
async function queue(kind: DeliveryKind, groupId: number) {
  const group = GROUPS[kind];
  await ownerDb(db)
    .transaction()
    .execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      for (const channel of ['email', 'sms'] as const)
        for (const address of ADDRESSES[channel]) {
          const n = ++serial;
          const ref = (column: DeliveryGroup['column']) => (group.column === column ? groupId : n);
          await trx
            .insertInto('deliveries')
            .values({
              userId: church.id,
              kind,
              channel,
              address,
              token: `rule-${n}`.padStart(64, '0'),
              campaignId: kind === 'campaign' ? groupId : null,
              servicePlanId: ref('service_plan_id'),
              assignmentId: n,
              journeyId: ref('journey_id'),
              journeyEnrollmentId: n,
              journeyStepId: 's1',
              conversationId: ref('conversation_id'),
              plannerNotice: 'reminder:1',
              statementRunId: ref('statement_run_id'),
              contactId: n,
              digestPeriod: `p${n}`,
              taskId: n,
              registrationId: n,
              registrationNotice: 'confirmed',
              groupMessageId: n,
            })
            .execute();
        }
    });
}

/** A driver of `kind` on `channel` that records what it was asked to send. */
function recordingDriver(kind: DeliveryKind, channel: Channel, sent: string[]): ChannelDriver<{ id: number }> {
  return {
    channel,
    group: GROUPS[kind],
    concurrency: 2,
    load: async (id) => ({ id }),
    async send(_c, d) {
      sent.push(d.address);
      return { providerMessageId: `<${d.id}>` };
    },
    async finish() {},
  };
}

const outcomes = async (kind: DeliveryKind, groupId: number) => {
  const column = GROUPS[kind].column;
  const rows = await db
    .selectFrom('deliveries')
    .select(['address', 'status', 'lastError'])
    .where('kind', '=', kind)
    .where(sql.ref(column), '=', groupId)
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.address, `${r.status}${r.lastError ? `: ${r.lastError}` : ''}`]));
};

describe('the contact rule: every kind of delivery', () => {
  it('names every kind the deliveries table allows', async () => {
    const { rows } = await sql<{ def: string }>`
      select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'deliveries_kind_check'`.execute(db);
    const kinds = [...rows[0]!.def.matchAll(/'([a-z-]+)'::text/g)].map((m) => m[1]);
    expect(kinds.length).toBeGreaterThan(0);
    expect(Object.keys(DELIVERY_KIND_RULES).sort()).toEqual([...kinds].sort());
    expect(Object.keys(GROUPS).sort()).toEqual([...kinds].sort());
  });

  it.each(Object.keys(DELIVERY_KIND_RULES) as DeliveryKind[])(
    '%s: a suppressed address and an unsubscribed person are skipped, with the reason',
    async (kind) => {
      const groupId = GROUPS[kind].column === 'user_id' ? church.id : 9000 + serial;
      await queue(kind, groupId);
      const sent: string[] = [];
      for (const channel of ['email', 'sms'] as const)
        await runDeliveries(db, recordingDriver(kind, channel, sent), groupId, config);
      const transactional = DELIVERY_KIND_RULES[kind].purpose === 'transactional';
      expect(await outcomes(kind, groupId)).toEqual({
        [SUPPRESSED]: 'failed: Skipped: suppressed (hard bounce)',
        // A transactional message (a statement) is not marketing: the email unsubscribe does not stop it.
        [UNSUBSCRIBED]: transactional ? 'sent' : 'failed: Skipped: unsubscribed from email',
        [OK_EMAIL]: 'sent',
        [STOPPED]: 'failed: Skipped: unsubscribed from texts (STOP)',
        [OK_PHONE]: 'sent',
      });
      expect(sent.sort()).toEqual((transactional ? [OK_EMAIL, OK_PHONE, UNSUBSCRIBED] : [OK_EMAIL, OK_PHONE]).sort());
    },
  );

  it('a text that is not an answer waits for the end of quiet hours; a reply does not', async () => {
    const night = new Date('2026-11-30T23:30:00Z');
    const reminder = await contactVerdict(db, church.id, {
      channel: 'sms',
      address: OK_PHONE,
      ...DELIVERY_KIND_RULES['planner-notice'],
      now: night,
    });
    expect(reminder).toMatchObject({ send: false, reason: 'quiet-hours', until: new Date('2026-12-01T08:00:00Z') });
    const reply = await contactVerdict(db, church.id, {
      channel: 'sms',
      address: OK_PHONE,
      ...DELIVERY_KIND_RULES['conversation-reply'],
      now: night,
    });
    expect(reply).toEqual({ send: true });

    // In the engine: the delivery goes back to pending until 8:00, the try not counted.
    const groupId = 9999;
    await queue('journey', groupId);
    await runDeliveries(db, recordingDriver('journey', 'sms', []), groupId, { ...config, clock: () => night });
    const held = await db
      .selectFrom('deliveries')
      .select(['status', 'attempts', 'nextAttemptAt'])
      .where('journeyId', '=', groupId)
      .where('address', '=', OK_PHONE)
      .executeTakeFirstOrThrow();
    expect(held).toEqual({ status: 'pending', attempts: 0, nextAttemptAt: new Date('2026-12-01T08:00:00Z') });
  });

  it("staff's texts to an event's registrants wait for the end of quiet hours; the person's own notices do not", async () => {
    const night = new Date('2026-11-30T23:30:00Z');
    const ids: Record<string, number> = {};
    await ownerDb(db)
      .transaction()
      .execute(async (trx) => {
        // References are not checked: the rule is what is tested.
        await sql`set local session_replication_role = replica`.execute(trx);
        for (const notice of ['confirmed', 'message'] as const) {
          const n = ++serial;
          const row = await trx
            .insertInto('deliveries')
            .values({
              userId: church.id,
              kind: 'registration',
              channel: 'sms',
              address: OK_PHONE,
              token: `quiet-${n}`.padStart(64, '0'),
              registrationId: n,
              registrationNotice: notice,
              calendarMessageId: notice === 'message' ? n : null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids[notice] = row.id;
        }
      });
    const sent: string[] = [];
    await runDeliveries(db, recordingDriver('registration', 'sms', sent), church.id, { ...config, clock: () => night });
    const row = (id: number) =>
      db
        .selectFrom('deliveries')
        .select(['status', 'attempts', 'nextAttemptAt'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect((await row(ids.confirmed!)).status).toBe('sent');
    expect(await row(ids.message!)).toEqual({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date('2026-12-01T08:00:00Z'),
    });
    // At 8:00 it goes (its retry time made due by hand: claims compare it with the database's clock).
    const morning = new Date('2026-12-01T08:00:00Z');
    await db.updateTable('deliveries').set({ nextAttemptAt: null }).where('id', '=', ids.message!).execute();
    await runDeliveries(db, recordingDriver('registration', 'sms', sent), church.id, {
      ...config,
      clock: () => morning,
    });
    expect((await row(ids.message!)).status).toBe('sent');
  });

  it('direct sends: transactional mail reaches an unsubscribed person, never a suppressed address', async () => {
    for (const [sender, rule] of Object.entries(DIRECT_SEND_RULES)) {
      expect(await mayContact(db, church.id, { channel: 'email', address: SUPPRESSED, ...rule }), sender).toBe(false);
      expect(await mayContact(db, church.id, { channel: 'email', address: UNSUBSCRIBED, ...rule }), sender).toBe(true);
      expect(await mayContact(db, church.id, { channel: 'sms', address: STOPPED, ...rule }), sender).toBe(false);
    }
    // A test email to one of the church's own addresses that bounced: refused with the reason.
    await db
      .insertInto('contacts')
      .values({ userId: church.id, firstName: 'B', lastName: 'O', email: SUPPRESSED })
      .execute();
    const { deps } = recordingDeliveryDeps(db);
    await expect(
      sendTestEmail(deps, church.id, { testEmail: SUPPRESSED, subject: 'Hi', content: '<p>Hi</p>' }),
    ).rejects.toThrow('Not sent: this address is suppressed (hard bounce)');
    const outbox = await db.selectFrom('outboxMessages').select('id').where('toAddress', '=', SUPPRESSED).execute();
    expect(outbox).toEqual([]);
  });
});
