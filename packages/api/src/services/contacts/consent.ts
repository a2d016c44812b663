import type { ConsentStatus, Db } from '@lampstand/db';
import type { z } from 'zod';
import { toContact } from './map.js';
import type { contactSchema } from '../../schemas/contacts.js';
import { assertChurchRow, findChurchRow } from '../church-rows.js';

export type ConsentChannel = 'email' | 'sms';

export interface ConsentChange {
  channel: ConsentChannel;
  status: ConsentStatus;
  /**
   * How it changed, free text stored in the contact's `*_consent_source` and the history. Written today:
   * 'staff' (or 'staff (admin NAME)' while impersonating), 'import', 'merge', 'unsubscribe link',
   * 'one-click unsubscribe', 'sms keyword' and 'landing-page:SLUG' (a confirmed sign-up; the contact
   * shows 'landing-page:SLUG:pending' until then). Not every writer comes through here: merge writes the
   * columns and the history itself.
   */
  source: string;
  note?: string | null;
}

/**
 * Set a contact's consent for one channel and record the change in its history, in one
 * transaction (the caller's, when `db` is one: the import). Setting the status it already has
 * records nothing.
 */
export async function setConsent(
  db: Db,
  tenantId: number,
  { contactId, ...change }: ConsentChange & { contactId: number },
): Promise<z.input<typeof contactSchema>> {
  const run = async (trx: Db) => {
    const row = await findChurchRow(trx, tenantId, {
      table: 'contacts',
      id: contactId,
      forUpdate: true,
      missing: 'Contact not found',
    });
    const current = change.channel === 'email' ? row.emailConsent : row.smsConsent;
    if (current === change.status) return toContact(row);
    const now = new Date();
    const set =
      change.channel === 'email'
        ? { emailConsent: change.status, emailConsentAt: now, emailConsentSource: change.source }
        : { smsConsent: change.status, smsConsentAt: now, smsConsentSource: change.source };
    const updated = await trx
      .updateTable('contacts')
      .set({ ...set, updatedAt: now })
      .where('id', '=', contactId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('contactConsentEvents')
      .values({
        userId: tenantId,
        contactId,
        channel: change.channel,
        status: change.status,
        source: change.source,
        note: change.note ?? null,
        at: now,
      })
      .execute();
    return toContact(updated);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

export async function consentHistory(db: Db, tenantId: number, contactId: number) {
  await assertChurchRow(db, tenantId, { table: 'contacts', id: contactId, missing: 'Contact not found' });
  const rows = await db
    .selectFrom('contactConsentEvents')
    .select(['id', 'channel', 'status', 'source', 'note', 'at'])
    .where('contactId', '=', contactId)
    .where('userId', '=', tenantId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows;
}
