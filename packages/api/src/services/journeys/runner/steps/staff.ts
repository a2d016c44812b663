import type { Db } from '@lampstand/db';
import type { JourneyStep } from '../../../../schemas/journeys.js';
import { personOf } from '../../../events/record.js';
import { localDate } from '../../time.js';
import { groupLeaderOf, groupOfTriggerKey } from '../../group-triggers.js';
import { fillStepTags, queueDelivery, type StepContext, type StepResult } from '../step-context.js';

/** A task step: a task for a staff member (or the account), and an email telling them. */
export async function runTaskStep(
  trx: Db,
  x: StepContext,
  step: Extract<JourneyStep, { kind: 'task' }>,
): Promise<StepResult> {
  const { person } = x;
  const groupId = step.toGroupLeader ? groupOfTriggerKey(x.e.triggerKey) : null;
  const group = groupId === null ? null : await groupLeaderOf(trx, x.e.userId, groupId);
  const [assignee] = group?.leader
    ? [{ ...group.leader, contactId: group.leader.id, name: fullNameOf(group.leader) }]
    : await staffRecipients(trx, x, step.assigneeContactId ? [step.assigneeContactId] : []);
  const title = fillStepTags(x, step.title).trim();
  const notes = fillStepTags(x, step.notes);
  const task = await trx
    .insertInto('tasks')
    .values({
      userId: x.e.userId,
      title,
      notes: group ? `${notes}${notes ? '\n\n' : ''}Group: ${group.groupName}` : notes,
      dueOn: localDate(x.now, x.church.timeZone, step.dueInDays),
      assigneeContactId: assignee!.contactId,
      contactId: person.contactId,
      journeyId: x.e.journeyId,
      enrollmentId: x.e.id,
      createdAt: x.now,
      updatedAt: x.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const deliveryId = await queueDelivery(x, {
    channel: 'email',
    address: assignee!.email,
    contactId: null,
    firstName: assignee!.firstName,
    lastName: assignee!.lastName,
  });
  if (person.contactId)
    x.out.events.push({
      type: 'task.assigned',
      contactId: person.contactId,
      payload: {
        person: personOf({ ...person, phone: person.phoneE164 }),
        task: { id: task.id, name: title },
        assignee: assignee!.name,
        journey: { id: x.e.journeyId, name: x.journeyName },
      },
    });
  return { outcome: 'done', detail: `Task “${title}” assigned to ${assignee!.name}`, next: step.next, deliveryId };
}

/** A notify step: an email to each chosen staff member (or the account). */
export async function runNotifyStep(
  trx: Db,
  x: StepContext,
  step: Extract<JourneyStep, { kind: 'notify' }>,
): Promise<StepResult> {
  const staff = await staffRecipients(trx, x, step.contactIds);
  let deliveryId: number | undefined;
  for (const s of staff) {
    deliveryId = await queueDelivery(x, {
      channel: 'email',
      address: s.email,
      contactId: null,
      firstName: s.firstName,
      lastName: s.lastName,
    });
  }
  return { outcome: 'done', detail: `Told ${staff.map((s) => s.name).join(', ')}`, next: step.next, deliveryId };
}

/** Staff members' addresses: service-staff contacts with an email; none chosen (or none left) → the account. */
async function staffRecipients(trx: Db, x: StepContext, ids: number[]) {
  const rows = ids.length
    ? await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email'])
        .where('userId', '=', x.e.userId)
        .where('id', 'in', ids)
        .where('email', 'is not', null)
        .where('email', '<>', '')
        .execute()
    : [];
  const staff = rows.map((r) => ({
    contactId: r.id,
    name: fullNameOf({ ...r, email: r.email! }),
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email!,
  }));
  if (staff.length > 0) return staff;
  return [
    {
      contactId: null,
      name: x.church.churchName,
      firstName: x.church.churchName,
      lastName: '',
      email: x.church.accountEmail,
    },
  ];
}

const fullNameOf = (c: { firstName: string; lastName: string; email: string }) =>
  `${c.firstName} ${c.lastName}`.trim() || c.email;
