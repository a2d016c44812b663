import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { defaultDeliveryConfig, type DeliveryConfig } from '../delivery/config.js';
import { createOutboxTransport } from '../../providers/email.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import type { JobQueue } from '../../jobs.js';
import {
  deliverConversationDigest,
  digestPeriod,
  queueConversationDigests,
  runConversationDigests,
  setConversationDigest,
} from './digest.js';

// The staff email digest of unread conversations, through the engine, once per period.
const { db } = await freshDatabase();
const register = (n: string) =>
  registerUser(db, { username: n, password: 'secret12', churchName: `Church ${n}`, email: `${n}@example.org` });
const grace = await register('grace');
const hope = await register('hope');
const quiet = await register('quiet');
await db.insertInto('churchSettings').values({ userId: grace.id, timeZone: 'Australia/Sydney' }).execute();

const config: DeliveryConfig = {
  ...defaultDeliveryConfig,
  publicUrl: 'http://lampstand.test',
  trackingSecret: 'test-secret',
  emailFrom: 'Lampstand <news@lampstand.test>',
  smsFromNumber: '+15005550006',
  // The real clock's time of day must not hold a text (quiet hours are tested with a clock of their own).
  smsQuietHours: false,
};
const sentJobs: { name: string; data: unknown }[] = [];
const jobs = {
  send: async (name: string, data: unknown) => {
    sentJobs.push({ name, data });
    return null;
  },
  cancel: async () => {},
} as unknown as JobQueue;
const deps: DeliveryDeps = {
  db,
  jobs,
  config,
  email: createOutboxTransport(db),
  sms: {} as DeliveryDeps['sms'],
};

async function conversation(userId: number, phone: string, unread: number, preview: string) {
  await db
    .insertInto('conversations')
    .values({ userId, phoneE164: phone, unreadCount: unread, lastMessagePreview: preview })
    .execute();
}
await conversation(grace.id, '+61412000001', 2, 'Running late, save me a <seat>');
await conversation(grace.id, '+61412000002', 0, 'Thanks');
await conversation(hope.id, '+61412000003', 1, 'Hello');

const digests = (userId: number) =>
  db
    .selectFrom('deliveries')
    .select(['digestPeriod', 'status', 'address'])
    .where('kind', '=', 'conversation-digest')
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();

describe('conversation digests', () => {
  it('names the period: UTC hours; daily from 8 am in the church time zone', () => {
    const at = new Date('2026-11-26T09:40:00Z');
    expect(digestPeriod('hourly', at, 'UTC')).toBe('hourly:2026-11-26T09');
    // 20:40 in Sydney: the local day's digest.
    expect(digestPeriod('daily', at, 'Australia/Sydney')).toBe('daily:2026-11-26');
    // 04:40 in New York: before 8 am, nothing yet.
    expect(digestPeriod('daily', at, 'America/New_York')).toBeNull();
  });

  it('off sends nothing; hourly and daily send once per period, only with unread conversations', async () => {
    const t1 = new Date('2026-11-26T09:05:00Z');
    expect(await queueConversationDigests(db, t1)).toEqual([]);
    await setConversationDigest(db, grace.id, { frequency: 'daily' });
    await setConversationDigest(db, hope.id, { frequency: 'hourly' });
    await setConversationDigest(db, quiet.id, { frequency: 'hourly' }); // nothing unread: no digest

    expect((await runConversationDigests(deps, t1)).sort()).toEqual([grace.id, hope.id].sort());
    // The job runs again (every 5 minutes, or on two workers): nothing more this period.
    expect(await queueConversationDigests(db, new Date('2026-11-26T09:10:00Z'))).toEqual([]);
    expect(await queueConversationDigests(db, new Date('2026-11-26T09:55:00Z'))).toEqual([]);
    expect(await digests(grace.id)).toEqual([
      { digestPeriod: 'daily:2026-11-26', status: 'pending', address: 'grace@example.org' },
    ]);
    expect(await digests(quiet.id)).toEqual([]);
    expect(sentJobs.filter((j) => j.name === 'conversation-digest-deliver').map((j) => j.data)).toEqual(
      expect.arrayContaining([{ userId: grace.id }, { userId: hope.id }]),
    );

    // The engine sends it: the unread conversation (its text escaped), not the read one.
    const result = await deliverConversationDigest(deps, grace.id);
    expect(result).toMatchObject({ sent: 1, failed: 0, finished: true });
    expect((await digests(grace.id))[0]!.status).toBe('sent');
    const mail = await db
      .selectFrom('outboxMessages')
      .select(['toAddress', 'fromAddress', 'subject', 'text', 'html'])
      .where('toAddress', '=', 'grace@example.org')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('2 unread texts in 1 conversation');
    expect(mail.fromAddress).toBe('"Lampstand" <news@lampstand.test>');
    expect(mail.text).toContain('Unknown (0412 000 001), 2 unread: Running late, save me a <seat>');
    expect(mail.text).not.toContain('0412 000 002');
    expect(mail.html).toContain('save me a &lt;seat&gt;');
    // Sending again sends nothing more.
    expect(await deliverConversationDigest(deps, grace.id)).toMatchObject({ sent: 0 });

    // The next hour: hope's hourly digest again; grace's daily one waits for the next day.
    expect(await queueConversationDigests(db, new Date('2026-11-26T10:01:00Z'))).toEqual([hope.id]);
    expect(await queueConversationDigests(db, new Date('2026-11-26T22:01:00Z'))).toEqual(
      expect.arrayContaining([grace.id, hope.id]),
    );
    expect((await digests(grace.id)).map((d) => d.digestPeriod)).toEqual(['daily:2026-11-26', 'daily:2026-11-27']);
  });
});
