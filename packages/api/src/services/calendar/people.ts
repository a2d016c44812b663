import type { Db } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import { personOf } from '../events/record.js';
import { splitName } from '../landing-pages/signups.js';

export type PersonRow = { id: number; firstName: string; lastName: string; email: string | null; phone: string | null };

/**
 * The registrant's contact: the church's contact with this email (oldest), or a new one (not
 * subscribed to anything: registering is not consent to mail). Returns the event to record.
 */
export async function registrantContact(
  trx: Db,
  tenantId: number,
  who: { name: string; email: string; phone: string | null },
): Promise<{ contact: PersonRow; created: NewEvent | null }> {
  const existing = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone'])
    .where('userId', '=', tenantId)
    .where('emailLower', '=', who.email.toLowerCase())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (existing) return { contact: existing, created: null };
  const row = await trx
    .insertInto('contacts')
    .values({
      userId: tenantId,
      ...splitName(who.name),
      email: who.email,
      tags: ['event'],
      emailConsent: 'unsubscribed',
      emailConsentAt: new Date(),
      emailConsentSource: 'event registration',
      smsConsent: 'unsubscribed',
    })
    .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
    .executeTakeFirstOrThrow();
  return {
    contact: row,
    created: { type: 'contact.created', contactId: row.id, payload: { person: personOf(row), via: 'signup' } },
  };
}

/** A registration's person as events keep it. */
export const registrantPerson = (r: { name: string; email: string; phone: string | null }) => ({
  name: r.name,
  email: r.email,
  phone: r.phone,
});
