import { ownerDb, sql } from '@lampstand/db';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { createOutboxTransport } from '../../providers/email.js';
import { createSmsOutboxTransport } from '../../providers/sms.js';
import { defaultDeliveryConfig } from './config.js';
import { CHANNELS, startScheduledCampaign, sweepCampaigns } from './campaigns.js';
import { withRecipientsPlan } from './channels.js';

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

function recordingQueue() {
  const sent: unknown[] = [];
  const jobs: JobQueue = { send: async (name, data) => (sent.push({ name, data }), 'id'), cancel: async () => {} };
  const deps = {
    db,
    jobs,
    email: createOutboxTransport(db),
    sms: createSmsOutboxTransport(db),
    config: {
      ...defaultDeliveryConfig,
      claimLeaseSeconds: 120,
      publicUrl: 'http://localhost',
      trackingSecret: 'test-secret',
      emailFrom: 'Lampstand <no-reply@localhost>',
      smsFromNumber: '+15005550006',
      // The real clock's time of day must not hold a text (quiet hours are tested with a clock of their own).
      smsQuietHours: false,
    },
  };
  return { jobs, sent, deps };
}

async function campaignWith(claimedSecondsAgo: number, updatedSecondsAgo: number) {
  const c = await db
    .insertInto('emailCampaigns')
    .values({ userId: church.id, name: 'C', subject: 'S', content: 'x', status: 'sending' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('deliveries')
    .values({
      userId: church.id,
      channel: 'email',
      campaignId: c.id,
      address: `a${c.id}@example.org`,
      token: `${c.id}`.padStart(64, '0'),
      status: 'sending',
      claimedAt: new Date(Date.now() - claimedSecondsAgo * 1000),
      updatedAt: new Date(Date.now() - updatedSecondsAgo * 1000),
    })
    .execute();
  return c.id;
}

describe('sweepCampaigns', () => {
  it('resumes only campaigns that look stuck, unless forced; starts overdue scheduled ones', async () => {
    const stuck = await campaignWith(600, 600); // claim far past the lease, nothing moved
    const busy = await campaignWith(1, 1); // a live worker holds it
    const overdue = await db
      .insertInto('emailCampaigns')
      .values({
        userId: church.id,
        name: 'S',
        subject: 'S',
        content: 'x',
        status: 'scheduled',
        scheduledFor: new Date(Date.now() - 5000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const q = recordingQueue();
    await sweepCampaigns(q.deps);
    expect(q.sent).toEqual([{ name: 'campaign-deliver', data: { channel: 'email', campaignId: stuck } }]);
    // The overdue one was started: with no list to send to, it fails with the reason instead of waiting.
    const failed = await db
      .selectFrom('emailCampaigns')
      .select(['status', 'error'])
      .where('id', '=', overdue.id)
      .executeTakeFirstOrThrow();
    expect(failed).toEqual({ status: 'failed', error: 'Please select a contact list' });

    const forced = recordingQueue();
    await sweepCampaigns(forced.deps, { force: true });
    expect(forced.sent.map((s) => (s as { data: { campaignId: number } }).data.campaignId).sort()).toEqual(
      [stuck, busy].sort(),
    );
  });

  it('a scheduled start that hits a passing database error is retried, not failed', async () => {
    const contact = await db
      .insertInto('contacts')
      .values({ userId: church.id, firstName: 'Ann', lastName: 'Lee', email: 'ann@example.org' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const list = await db
      .insertInto('contactLists')
      .values({ userId: church.id, name: 'Choir' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('contactsInLists')
      .values({ userId: church.id, listId: list.id, contactId: contact.id })
      .execute();
    const when = new Date(Date.now() - 1000);
    const c = await db
      .insertInto('emailCampaigns')
      .values({
        userId: church.id,
        name: 'Sunday',
        subject: 'Hello',
        content: '<p>Hi</p>',
        status: 'scheduled',
        scheduledFor: when,
        listIds: [list.id],
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Created as the tables' owner; the function runs as its owner (the app role may not use the sequence).
    await sql`create sequence start_fail_once`.execute(ownerDb(db));
    await sql`create function start_fail_once() returns trigger language plpgsql security definer as $$
      begin
        if nextval('start_fail_once') = 1 then raise exception 'deadlock detected (simulated)'; end if;
        return new;
      end $$`.execute(ownerDb(db));
    await sql`create trigger start_fail_once before insert on deliveries for each row execute function start_fail_once()`.execute(
      ownerDb(db),
    );
    try {
      const q = recordingQueue();
      await expect(startScheduledCampaign(q.deps, 'email', c.id, when.toISOString())).rejects.toThrow(
        'deadlock detected (simulated)',
      );
      const row = () =>
        db.selectFrom('emailCampaigns').select(['status', 'error']).where('id', '=', c.id).executeTakeFirstOrThrow();
      expect(await row()).toEqual({ status: 'scheduled', error: null });
      await startScheduledCampaign(q.deps, 'email', c.id, when.toISOString()); // pg-boss's retry
      expect(await row()).toEqual({ status: 'sending', error: null });
      expect(q.sent).toContainEqual({ name: 'campaign-deliver', data: { channel: 'email', campaignId: c.id } });
    } finally {
      await sql`drop trigger start_fail_once on deliveries`.execute(ownerDb(db));
    }
  });
});

describe('withRecipientsPlan', () => {
  it('plans a recipients query without nested loops (stale statistics after an import), then puts the setting back', async () => {
    const list = await db
      .insertInto('contactLists')
      .values({ userId: church.id, name: 'Imported', type: 'both' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`
      with c as (
        insert into contacts (user_id, first_name, last_name, email)
        select ${church.id}, 'P' || g, 'Import', 'import' || g || '@example.org' from generate_series(1, 2000) g
        returning id)
      insert into contacts_in_lists (user_id, contact_id, list_id) select ${church.id}, id, ${list.id} from c`.execute(
      db,
    );
    const plan = async (trx: typeof db) => {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`
        explain ${CHANNELS.email.recipients(church.id, [list.id])}`.execute(trx);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    };
    await db.transaction().execute(async (trx) => {
      expect(await withRecipientsPlan(trx, plan)).not.toMatch(/Nested Loop/);
      const { rows } = await sql<{ enableNestloop: string }>`show enable_nestloop`.execute(trx);
      expect(Object.values(rows[0]!)[0]).toBe('on');
    });
    // Outside a transaction it opens its own.
    expect(await withRecipientsPlan(db, plan)).not.toMatch(/Nested Loop/);
  });
});
