import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { JobQueue } from '../../jobs.js';
import { sweepCampaigns } from './sweep.js';

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

function recordingQueue() {
  const sent: unknown[] = [];
  const jobs: JobQueue = { send: async (name, data) => (sent.push({ name, data }), 'id') };
  return { jobs, sent };
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
    const started: number[] = [];
    await sweepCampaigns({ db, jobs: q.jobs, claimLeaseSeconds: 120 }, 'email', async (id) => void started.push(id));
    expect(q.sent).toEqual([{ name: 'campaign-deliver', data: { channel: 'email', campaignId: stuck } }]);
    expect(started).toEqual([overdue.id]);

    const forced = recordingQueue();
    await sweepCampaigns({ db, jobs: forced.jobs, claimLeaseSeconds: 120 }, 'email', async () => undefined, {
      force: true,
    });
    expect(forced.sent.map((s) => (s as { data: { campaignId: number } }).data.campaignId).sort()).toEqual(
      [stuck, busy].sort(),
    );
  });
});
