import type { Db } from '@lampstand/db';
import type { JourneyStep } from '../../../../schemas/journeys.js';
import { personOf } from '../../../events/record.js';
import type { StepContext, StepResult } from '../step-context.js';

/** An add-to-list or remove-from-list step: the person's membership of one of the church's lists. */
export async function runListStep(
  trx: Db,
  x: StepContext,
  step: Extract<JourneyStep, { kind: 'add_to_list' | 'remove_from_list' }>,
): Promise<StepResult> {
  const { person } = x;
  const list = await trx
    .selectFrom('contactLists')
    .select(['id', 'name'])
    .where('id', '=', step.listId)
    .where('userId', '=', x.e.userId)
    .executeTakeFirst();
  if (!list) return { outcome: 'skipped', detail: 'The list was deleted', next: step.next };
  if (!person.contactId) return { outcome: 'skipped', detail: 'Not a contact (a test)', next: step.next };
  const changed =
    step.kind === 'add_to_list'
      ? Number(
          (
            await trx
              .insertInto('contactsInLists')
              .values({ userId: x.e.userId, listId: list.id, contactId: person.contactId })
              .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
              .executeTakeFirst()
          ).numInsertedOrUpdatedRows ?? 0,
        )
      : Number(
          (
            await trx
              .deleteFrom('contactsInLists')
              .where('listId', '=', list.id)
              .where('contactId', '=', person.contactId)
              .executeTakeFirst()
          ).numDeletedRows,
        );
  if (changed > 0)
    x.out.events.push({
      type: step.kind === 'add_to_list' ? 'list.member_added' : 'list.member_removed',
      contactId: person.contactId,
      payload: {
        person: personOf({ ...person, phone: person.phoneE164 }),
        list: { id: list.id, name: list.name },
      },
    });
  const verb = step.kind === 'add_to_list' ? 'Added to' : 'Removed from';
  return { outcome: 'done', detail: `${verb} ${list.name}`, next: step.next };
}
