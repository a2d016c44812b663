import type { ConsentStatus, Db } from '@lampstand/db';
import type { z } from 'zod';
import { toContact } from './map.js';
import type { contactSchema } from '../../schemas/contacts.js';
import { assertChurchRow, findChurchRow } from '../church-rows.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, recordEvents } from '../events/record.js';

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

type ContactOut = z.input<typeof contactSchema>;

/**
 * Set a contact's consent for one channel and record the change in its history and the events
 * log, in one transaction (the caller's, when `db` is one). Setting the status it already has
 * records nothing. A caller whose transaction goes on after this (the import) uses
 * `changeConsent` and records the events last itself.
 */
export async function setConsent(
  db: Db,
  tenantId: number,
  change: ConsentChange & { contactId: number },
): Promise<ContactOut> {
  const run = async (trx: Db) => {
    const { contact, event } = await changeConsent(trx, tenantId, change);
    if (event) await recordEvents(trx, tenantId, [event]);
    return contact;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** What a consent change wrote: the contact's consent columns before and after, and its history entry. */
export interface ConsentWrite {
  historyId: number;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * `setConsent` in the caller's transaction `trx`, answering the `consent.changed` event for the
 * caller to record (last in its transaction) and what it wrote (`written`, for a caller that can
 * take it back: a move-in import's undo); null both when nothing changed.
 */
export async function changeConsent(
  trx: Db,
  tenantId: number,
  { contactId, ...change }: ConsentChange & { contactId: number },
): Promise<{ contact: ContactOut; event: NewEvent | null; written: ConsentWrite | null }> {
  const row = await findChurchRow(trx, tenantId, {
    table: 'contacts',
    id: contactId,
    forUpdate: true,
    missing: 'Contact not found',
  });
  const current = change.channel === 'email' ? row.emailConsent : row.smsConsent;
  const source = change.channel === 'email' ? row.emailConsentSource : row.smsConsentSource;
  // A check-in station's 'not given' (unsubscribed, source 'checkin') is not an opt-out: an opt-out
  // after it is recorded, and ends the welcome the contact rule allows to that address.
  const optOutAfterCheckin = change.status === 'unsubscribed' && source === 'checkin' && change.source !== 'checkin';
  if (current === change.status && !optOutAfterCheckin) return { contact: toContact(row), event: null, written: null };
  const now = new Date();
  const set =
    change.channel === 'email'
      ? { emailConsent: change.status, emailConsentAt: now, emailConsentSource: change.source }
      : { smsConsent: change.status, smsConsentAt: now, smsConsentSource: change.source };
  const before =
    change.channel === 'email'
      ? {
          emailConsent: row.emailConsent,
          emailConsentAt: row.emailConsentAt,
          emailConsentSource: row.emailConsentSource,
        }
      : { smsConsent: row.smsConsent, smsConsentAt: row.smsConsentAt, smsConsentSource: row.smsConsentSource };
  const updated = await trx
    .updateTable('contacts')
    .set({ ...set, updatedAt: now })
    .where('id', '=', contactId)
    .returningAll()
    .executeTakeFirstOrThrow();
  const history = await trx
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
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    contact: toContact(updated),
    event: consentEvent(updated, change.channel, current, change.status, change.source),
    written: { historyId: history.id, before, after: set },
  };
}

/** The `consent.changed` event of a contact (`row`, as it is now). */
export function consentEvent(
  row: { id: number; firstName: string; lastName: string; email: string | null; phone: string | null },
  channel: ConsentChannel,
  from: ConsentStatus | null,
  to: ConsentStatus,
  reason: string,
): NewEvent {
  return { type: 'consent.changed', contactId: row.id, payload: { person: personOf(row), channel, from, to, reason } };
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
