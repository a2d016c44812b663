import { sql, type Db } from '@lampstand/db';
import type { BranchCondition } from '../../../schemas/journeys.js';
import type { JourneyDefinition } from '../definitions.js';
import type { Enrollment, Person } from './types.js';
import { hasRenewed } from '../../giving/renewals.js';

/** Whether the journey's goal is reached (the person leaves it converted). */
export async function goalReached(
  trx: Db,
  e: Enrollment,
  goal: NonNullable<JourneyDefinition['goal']>,
  contactId: number,
): Promise<boolean> {
  switch (goal.kind) {
    case 'joined_list': {
      const r = await trx
        .selectFrom('contactsInLists')
        .select('contactId')
        .where('contactId', '=', contactId)
        .where('listId', '=', goal.listId)
        .executeTakeFirst();
      return !!r;
    }
    case 'gave':
      return hasEventSince(trx, e.userId, contactId, 'donation.succeeded', e.enteredAt);
    case 'renewed_giving':
      return hasRenewed(trx, contactId);
    case 'tag_added': {
      const r = await trx
        .selectFrom('contacts')
        .select('id')
        .where('id', '=', contactId)
        .where(sql<boolean>`${goal.tag} = any(tags)`)
        .executeTakeFirst();
      return !!r;
    }
  }
}

async function hasEventSince(trx: Db, userId: number, contactId: number, type: string, since: Date) {
  const r = await trx
    .selectFrom('events')
    .select('id')
    .where('userId', '=', userId)
    .where('contactId', '=', contactId)
    .where('type', '=', type)
    .where('occurredAt', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return !!r;
}

/** Whether a branch step's condition holds for the person. */
export async function conditionHolds(trx: Db, e: Enrollment, c: BranchCondition, person: Person, now: Date) {
  const contactId = person.contactId;
  switch (c.kind) {
    case 'opened_previous_email':
    case 'clicked_previous_email': {
      if (!e.lastEmailDeliveryId) return false;
      const types = c.kind === 'opened_previous_email' ? ['open', 'click'] : ['click'];
      const r = await trx
        .selectFrom('deliveryEvents')
        .select('id')
        .where('deliveryId', '=', e.lastEmailDeliveryId)
        .where('type', 'in', types as ('open' | 'click')[])
        .limit(1)
        .executeTakeFirst();
      return !!r;
    }
    case 'has_tag':
      return person.tags.includes(c.tag);
    case 'on_list': {
      if (!contactId) return false;
      const r = await trx
        .selectFrom('contactsInLists')
        .select('contactId')
        .where('contactId', '=', contactId)
        .where('listId', '=', c.listId)
        .executeTakeFirst();
      return !!r;
    }
    case 'gave_within':
      return (
        !!contactId &&
        hasEventSince(trx, e.userId, contactId, 'donation.succeeded', new Date(now.getTime() - c.days * 86_400_000))
      );
    case 'replied_by_text':
      return !!contactId && hasEventSince(trx, e.userId, contactId, 'sms.received', e.enteredAt);
  }
}
