import { type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { taskOutputSchema } from '../../schemas/journeys.js';
import { notFound } from '../../errors.js';
import { personOf, recordEvents } from '../events/record.js';
import type { JobQueue } from '../../jobs.js';
import { queueTaskNotice } from './task-notices.js';

type TaskOut = z.input<typeof taskOutputSchema>;

const name = (first: string | null, last: string | null, email: string | null) =>
  `${first ?? ''} ${last ?? ''}`.trim() || email || 'Someone';

function taskQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('users as u', 'u.id', 't.userId')
    .leftJoin('contacts as a', 'a.id', 't.assigneeContactId')
    .leftJoin('contacts as c', 'c.id', 't.contactId')
    .leftJoin('journeys as j', 'j.id', 't.journeyId')
    .select([
      't.id',
      't.title',
      't.notes',
      't.status',
      't.dueOn',
      't.assigneeContactId',
      'a.firstName as aFirst',
      'a.lastName as aLast',
      'a.email as aEmail',
      'u.churchName',
      't.contactId',
      'c.firstName as cFirst',
      'c.lastName as cLast',
      'c.email as cEmail',
      't.journeyId',
      'j.name as journeyName',
      't.createdAt',
      't.doneAt',
    ])
    .where('t.userId', '=', tenantId);
}

type TaskRow = Awaited<ReturnType<ReturnType<typeof taskQuery>['executeTakeFirstOrThrow']>>;

function toTask(r: TaskRow): TaskOut {
  return {
    id: r.id,
    title: r.title,
    notes: r.notes,
    status: r.status,
    dueOn: String(r.dueOn),
    assignee: {
      contactId: r.assigneeContactId,
      name: r.assigneeContactId !== null ? name(r.aFirst, r.aLast, r.aEmail) : r.churchName,
    },
    contact: r.contactId !== null ? { id: r.contactId, name: name(r.cFirst, r.cLast, r.cEmail) } : null,
    journey: r.journeyId !== null && r.journeyName !== null ? { id: r.journeyId, name: r.journeyName } : null,
    createdAt: r.createdAt,
    doneAt: r.doneAt,
  };
}

/** The church's follow-ups: open ones first by due date, a page after `cursor` (a task id). */
export async function listTasks(
  db: Db,
  tenantId: number,
  input: { status?: 'open' | 'done'; assignee?: 'me' | number; cursor?: number; limit: number },
): Promise<{ tasks: TaskOut[]; next: number | null }> {
  const rows = await taskQuery(db, tenantId)
    .$if(!!input.status, (q) => q.where('t.status', '=', input.status!))
    .$if(input.assignee === 'me', (q) => q.where('t.assigneeContactId', 'is', null))
    .$if(typeof input.assignee === 'number', (q) => q.where('t.assigneeContactId', '=', input.assignee as number))
    .$if(!!input.cursor, (q) => q.where('t.id', '<', input.cursor!))
    .orderBy('t.id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  return { tasks: page.map(toTask), next: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/**
 * PATCH a task: done (or open again) and/or another assignee (a service-staff contact, or null for
 * the church's account). Marking it done is a `task.done` event in the person's Activity.
 */
export async function updateTask(
  db: Db,
  tenantId: number,
  input: { id: number; status?: 'open' | 'done'; assigneeContactId?: number | null },
  jobs?: Pick<JobQueue, 'send'>,
): Promise<TaskOut> {
  let notice = false;
  const task = await db.transaction().execute(async (trx) => {
    const before = await taskQuery(trx, tenantId).where('t.id', '=', input.id).forUpdate('t').executeTakeFirst();
    if (!before) throw notFound('Task not found');
    if (input.assigneeContactId) {
      const staff = await trx
        .selectFrom('contacts')
        .select('id')
        .where('id', '=', input.assigneeContactId)
        .where('userId', '=', tenantId)
        .executeTakeFirst();
      if (!staff) throw notFound('Staff member not found');
    }
    const now = new Date();
    await trx
      .updateTable('tasks')
      .set({
        ...(input.status
          ? { status: input.status, doneAt: input.status === 'done' ? (before.doneAt ?? now) : null }
          : {}),
        ...(input.assigneeContactId !== undefined ? { assigneeContactId: input.assigneeContactId } : {}),
        updatedAt: now,
      })
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .execute();
    // Given to someone else: they are emailed (once per task and address), through the engine.
    if (input.assigneeContactId !== undefined && input.assigneeContactId !== before.assigneeContactId)
      notice = await queueTaskNotice(trx, tenantId, input.id);
    const after = await taskQuery(trx, tenantId).where('t.id', '=', input.id).executeTakeFirstOrThrow();
    const task = toTask(after);
    if (input.status === 'done' && before.status !== 'done' && after.contactId !== null) {
      await recordEvents(trx, tenantId, [
        {
          type: 'task.done',
          contactId: after.contactId,
          payload: {
            person: personOf({ firstName: after.cFirst, lastName: after.cLast, email: after.cEmail }),
            task: { id: task.id, name: task.title },
            assignee: task.assignee.name,
          },
        },
      ]);
    }
    return task;
  });
  if (notice && jobs) await jobs.send('task-notice-deliver', { userId: tenantId });
  return task;
}
