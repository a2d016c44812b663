import { sql, type ConsentStatus, type Db } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import { consentEvent, type ConsentChannel } from '../contacts/consent.js';
import { personOf } from '../events/record.js';
import { logged, type UndoTable } from './undo-log.js';
import { lockPeopleWorkFirst } from '../background/lock-first.js';
import { CARRIED } from '../contacts/merge-carried.js';

/**
 * Undoing a people import's contacts: each field it changed goes back to what it was, but only
 * while the field still holds what the import wrote (an edit made since the import is kept); the
 * rows it created go, but a contact it created that has gifts outside the import stays (the
 * ledger keeps its donor).
 */

/** Fields restored together: a phone and its E.164 form; a channel's consent, its time and its source. */
const GROUPS: { fields: string[]; channel?: ConsentChannel; name: string }[] = [
  { fields: ['firstName'], name: 'firstName' },
  { fields: ['lastName'], name: 'lastName' },
  { fields: ['email'], name: 'email' },
  { fields: ['phone', 'phoneE164'], name: 'phone' },
  { fields: ['dateOfBirth'], name: 'dateOfBirth' },
  { fields: ['notes'], name: 'notes' },
  { fields: ['emailConsent', 'emailConsentAt', 'emailConsentSource'], channel: 'email', name: 'emailConsent' },
  { fields: ['smsConsent', 'smsConsentAt', 'smsConsentSource'], channel: 'sms', name: 'smsConsent' },
];

export interface PeopleUndone {
  contactsRemoved: number;
  contactsRestored: number;
  /** Created contacts kept (they have gifts outside the import). */
  contactsKept: number;
  /** Fields left as they are, because someone changed them after the import. */
  fieldsKept: number;
}

type Entry = { tableName: string; rowId: number; action: string; before: unknown; after: unknown };

const CHUNK = 1000;
const chunks = <T>(list: T[]): T[][] =>
  Array.from({ length: Math.ceil(list.length / CHUNK) }, (_, i) => list.slice(i * CHUNK, (i + 1) * CHUNK));

const createdOf = (entries: Entry[], table: UndoTable) =>
  entries.filter((e) => e.tableName === table && e.action === 'created').map((e) => e.rowId);

type ContactNow = Record<string, unknown> & { id: number; metadata: { notes?: string | null } };

const valueOf = (c: ContactNow, field: string) => logged(field === 'notes' ? c.metadata.notes : c[field]);

/** Restore the changed contacts (newest change first); the (contact, channel) pairs whose consent went back. */
async function restoreChanged(trx: Db, tenantId: number, entries: Entry[], events: NewEvent[]) {
  const changed = entries.filter((e) => e.tableName === 'contacts' && e.action === 'changed').reverse();
  const ids = [...new Set(changed.map((e) => e.rowId))];
  const now = new Map<number, ContactNow>();
  for (const part of chunks(ids)) {
    const rows = await trx
      .selectFrom('contacts')
      .selectAll()
      .where('userId', '=', tenantId)
      .where('id', 'in', part)
      .forUpdate()
      .execute();
    for (const r of rows) now.set(r.id, { ...r });
  }
  type Consent = { channel: ConsentChannel; from: ConsentStatus; to: ConsentStatus };
  const sets = new Map<number, { set: Record<string, unknown>; fields: Set<string>; consent: Consent[] }>();
  let fieldsKept = 0;
  const consentBack = new Set<string>();
  for (const e of changed) {
    const c = now.get(e.rowId);
    if (!c) continue; // deleted since the import
    const before = e.before as Record<string, unknown>;
    const after = e.after as Record<string, unknown>;
    for (const g of GROUPS) {
      const fields = g.fields.filter((f) => f in after);
      if (!fields.length) continue;
      if (!fields.every((f) => valueOf(c, f) === after[f])) {
        fieldsKept++;
        continue;
      }
      const s = sets.get(c.id) ?? { set: {}, fields: new Set<string>(), consent: [] };
      for (const f of fields) {
        if (f === 'notes') c.metadata = { ...c.metadata, notes: before[f] as string | null };
        else c[f] = before[f];
        s.set[f] = before[f];
      }
      if (g.channel) {
        const status = g.fields[0]!;
        s.consent.push({
          channel: g.channel,
          from: after[status] as ConsentStatus,
          to: before[status] as ConsentStatus,
        });
        consentBack.add(`${c.id}|${g.channel}`);
      } else s.fields.add(g.name);
      sets.set(c.id, s);
    }
  }
  for (const [id, s] of sets) {
    const { notes, ...columns } = s.set;
    const row = await trx
      .updateTable('contacts')
      .set({
        ...(columns as Record<string, never>),
        updatedAt: new Date(),
        ...('notes' in s.set
          ? {
              metadata:
                notes == null
                  ? sql<string>`metadata - 'notes'`
                  : sql<string>`metadata || jsonb_build_object('notes', ${notes as string}::text)`,
            }
          : {}),
      })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
      .executeTakeFirstOrThrow();
    if (s.fields.size)
      events.push({
        type: 'contact.updated',
        contactId: id,
        payload: { person: personOf(row), changed: [...s.fields] },
      });
    for (const c of s.consent) events.push(consentEvent(row, c.channel, c.from, c.to, 'import undone'));
  }
  return { restored: sets.size, fieldsKept, consentBack };
}

/**
 * What a person the import added may have done since, which undoing it must not erase: someone
 * named by a row of the `history` tables of a merge's list (a gift or a recurring gift, a child
 * checked in, a group joined or attended, an event registration, a text conversation) is kept,
 * with the details the import gave them, rather than deleted with that history (their foreign keys
 * would cascade or forget them). `contactsKept` counts them.
 */
const SINCE_IMPORT = CARRIED.filter((c) => c.history);

/** Take back what a people import created and changed, in the caller's transaction. */
export async function undoPeople(trx: Db, tenantId: number, importId: number, events: NewEvent[]) {
  const entries = (await trx
    .selectFrom('importChanges')
    .select(['tableName', 'rowId', 'action', 'before', 'after'])
    .where('importId', '=', importId)
    .where('userId', '=', tenantId)
    .orderBy('id')
    .execute()) as Entry[];
  // What background work holds of the people it created (journey enrolments, recurring gifts),
  // before any of their rows is changed or deleted: work in flight is waited for, not deadlocked with.
  await lockPeopleWorkFirst(trx, tenantId, createdOf(entries, 'contacts'));
  const { restored, fieldsKept, consentBack } = await restoreChanged(trx, tenantId, entries, events);

  // Its consent history entries go where the consent went back (a created contact's go with it).
  for (const part of chunks(createdOf(entries, 'contact_consent_events'))) {
    const rows = await trx
      .selectFrom('contactConsentEvents')
      .select(['id', 'contactId', 'channel'])
      .where('userId', '=', tenantId)
      .where('id', 'in', part)
      .execute();
    const gone = rows.filter((r) => consentBack.has(`${r.contactId}|${r.channel}`)).map((r) => r.id);
    if (gone.length) await trx.deleteFrom('contactConsentEvents').where('id', 'in', gone).execute();
  }
  for (const [table, name] of [
    ['contact_children', 'contactChildren'],
    ['contact_family_links', 'contactFamilyLinks'],
    ['contact_external_ids', 'contactExternalIds'],
  ] as const) {
    for (const part of chunks(createdOf(entries, table)))
      await trx.deleteFrom(name).where('userId', '=', tenantId).where('id', 'in', part).execute();
  }

  let removed = 0;
  let kept = 0;
  for (const part of chunks(createdOf(entries, 'contacts'))) {
    const { rows: gone } = await sql<{ id: number }>`
      delete from contacts c
      where c.user_id = ${tenantId} and c.id = any(${part}::int[])
        ${sql.join(
          SINCE_IMPORT.map(
            ({ table, column }) =>
              sql`and not exists (select 1 from ${sql.table(table)} h
                                  where h.user_id = ${tenantId} and ${sql.ref(`h.${column}`)} = c.id)`,
          ),
          sql` `,
        )}
      returning c.id`.execute(trx);
    removed += gone.length;
    const left = await trx
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('userId', '=', tenantId)
      .where('id', 'in', part)
      .executeTakeFirstOrThrow();
    kept += Number(left.n);
    // After the delete: the contact's earlier events are anonymised by then (migration 0054).
    for (const g of gone) events.push({ type: 'contact.deleted', contactId: g.id, payload: {} });
  }
  return { contactsRemoved: removed, contactsRestored: restored, contactsKept: kept, fieldsKept };
}
