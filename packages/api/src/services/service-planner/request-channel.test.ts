import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import { sweepCampaigns } from '../delivery/campaigns.js';
import { deliverPlannerRequests, renderRequest } from './request-channel.js';

const { db } = await freshDatabase();
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});

const recordingQueue = () => recordingDeliveryDeps(db);

/** A plan with one assignment whose request a worker claimed `claimedSecondsAgo` and then died. */
async function stuckRequest(claimedSecondsAgo: number) {
  const plan = await db
    .insertInto('servicePlans')
    .values({ userId: church.id, title: 'Sunday', date: '2030-01-06' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await db
    .insertInto('teamMembers')
    .values({ userId: church.id, name: 'Ann', email: `ann${plan.id}@example.org` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const a = await db
    .insertInto('servicePlanAssignments')
    .values({
      userId: church.id,
      servicePlanId: plan.id,
      teamMemberId: member.id,
      token: `t${plan.id}`.padEnd(43, 'x'),
      requestedAt: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ago = new Date(Date.now() - claimedSecondsAgo * 1000);
  await db
    .insertInto('deliveries')
    .values({
      userId: church.id,
      channel: 'email',
      kind: 'planner-request',
      servicePlanId: plan.id,
      assignmentId: a.id,
      address: `ann${plan.id}@example.org`,
      firstName: 'Ann',
      token: `p${plan.id}`.padStart(64, '0'),
      status: 'sending',
      attempts: 1,
      claimedAt: ago,
      updatedAt: ago,
    })
    .execute();
  return plan.id;
}

describe('planner requests in the engine', () => {
  it('the sweep queues the requests a dead worker left; the deliver job then sends them once', async () => {
    const fresh = await stuckRequest(5); // still within its lease: its worker may be alive
    const dead = await stuckRequest(600);
    const { sent, deps } = recordingQueue();
    await sweepCampaigns(deps);
    expect(sent).toEqual([{ name: 'planner-request-deliver', data: { planId: dead } }]);

    const result = await deliverPlannerRequests(deps, dead);
    expect(result).toMatchObject({ sent: 1, failed: 0, finished: true });
    const mails = await db
      .selectFrom('outboxMessages')
      .select(['toAddress', 'subject'])
      .where('toAddress', '=', `ann${dead}@example.org`)
      .execute();
    expect(mails).toEqual([
      { toAddress: `ann${dead}@example.org`, subject: 'Can you serve on Sunday, January 6, 2030?' },
    ]);
    // Run again: nothing left to send.
    expect(await deliverPlannerRequests(deps, dead)).toMatchObject({ sent: 0, finished: true });
    // The live claim is left to its worker.
    expect(await deliverPlannerRequests(deps, fresh)).toMatchObject({ sent: 0, finished: false });
  });
});

describe('the request email', () => {
  const plan = {
    id: 1,
    userId: 1,
    title: 'Sunday Service',
    date: '2030-01-06',
    startTime: '09:00',
    location: 'Main hall',
    churchName: 'Grace Church',
  };
  it('names the assignment’s own service time, else the plan’s start', () => {
    const at11 = renderRequest(
      plan,
      { name: 'Ann', token: 't', positionName: 'Sound', serviceTime: '11:00' },
      'https://x',
    );
    expect(at11.text).toContain('on Sunday, January 6, 2030 at 11:00 AM at Main hall');
    const allTimes = renderRequest(
      plan,
      { name: 'Ann', token: 't', positionName: 'Sound', serviceTime: null },
      'https://x',
    );
    expect(allTimes.text).toContain('on Sunday, January 6, 2030 at 9:00 AM at Main hall');
  });
});
