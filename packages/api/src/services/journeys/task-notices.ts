import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { staffMessage } from './channel.js';

/**
 * A follow-up task's email to the person it is assigned to ('the user gets an email'),
 * for tasks no journey step emails itself: a task given to someone else, or made by a text keyword.
 * A delivery of kind 'task-notice' of the one engine (claim, fence, retries,
 * `email.sent`), grouped by church, once per task and address: giving a task back to someone who
 * was already told tells them nothing new. Staff mail: not counted against the daily limit.
 */
export const TASK_NOTICES: DeliveryGroup = { kind: 'task-notice', column: 'user_id' };

/**
 * Queues the email to the task's assignee (a service-staff contact with an email, or the church's
 * own login), in the caller's transaction. True when a new one was queued.
 */
export async function queueTaskNotice(trx: Db, tenantId: number, taskId: number): Promise<boolean> {
  const t = await trx
    .selectFrom('tasks as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .leftJoin('contacts as a', 'a.id', 't.assigneeContactId')
    .select(['t.id', 'u.email as churchEmail', 'u.churchName', 'a.email', 'a.firstName', 'a.lastName'])
    .where('t.id', '=', taskId)
    .where('t.userId', '=', tenantId)
    .executeTakeFirst();
  if (!t) return false;
  const to = t.email
    ? { address: t.email, firstName: t.firstName ?? '', lastName: t.lastName ?? '' }
    : { address: t.churchEmail, firstName: t.churchName, lastName: '' };
  if (!to.address) return false;
  const row = await trx
    .insertInto('deliveries')
    .values({
      userId: tenantId,
      kind: 'task-notice',
      channel: 'email',
      taskId: t.id,
      address: to.address,
      firstName: to.firstName,
      lastName: to.lastName,
      token: crypto.randomBytes(24).toString('hex'),
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

interface Church {
  id: number;
  churchName: string;
}

/** The engine's driver of a church's task emails. */
export function taskNoticeDriver(deps: DeliveryDeps): ChannelDriver<Church> {
  const { db, email, config } = deps;
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel: 'email',
    group: TASK_NOTICES,
    ratePerSecond: config.emailRatePerSecond,
    concurrency: Math.min(config.emailConcurrency, 4),
    async load(userId) {
      return (
        (await db.selectFrom('users').select(['id', 'churchName']).where('id', '=', userId).executeTakeFirst()) ?? null
      );
    },
    async send(church, d) {
      const t = await db
        .selectFrom('tasks as t')
        .leftJoin('contacts as c', 'c.id', 't.contactId')
        .select(['t.title', 't.notes', 't.dueOn', 'c.firstName', 'c.lastName'])
        .where('t.id', '=', d.taskId!)
        .executeTakeFirst();
      if (!t) throw Object.assign(new Error('The task was deleted'), { permanent: true });
      const about = `${t.firstName ?? ''} ${t.lastName ?? ''}`.trim();
      const message = staffMessage({
        subject: `A follow-up for you: ${t.title}`,
        lines: [
          `Hello ${d.firstName || 'there'},`,
          `You have a follow-up: ${t.title}${about ? ` (about ${about})` : ''}, due ${String(t.dueOn)}.`,
          ...(t.notes ? [t.notes] : []),
        ],
        link: `${config.publicUrl}/tasks`,
        footer: church.churchName,
      });
      return email.send({
        from: formatFrom(church.churchName, config.emailFrom),
        to: d.address,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: {},
        messageId: `task-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta: { userId: church.id, deliveryId: d.id },
      });
    },
    async finish() {},
  };
}

/** The 'task-notice-deliver' job: send a church's pending task emails; come back for retries. */
const TASK_NOTICE_JOB = { name: 'task-notice-deliver', payload: (userId: number) => ({ userId }) } as const;

export async function deliverTaskNotices(deps: DeliveryDeps, userId: number): Promise<RunResult> {
  return (await deliverGroup(deps, [taskNoticeDriver(deps)], userId, TASK_NOTICE_JOB))[0]!;
}

/** Part of the journey loop's sweep: churches whose task emails a dead worker (or a lost job) left. */
export async function sweepTaskNotices(deps: DeliveryDeps): Promise<number> {
  return (await requeueStalled(deps, TASK_NOTICES, TASK_NOTICE_JOB)).length;
}
