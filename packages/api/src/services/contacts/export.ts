import { stringify } from 'csv-stringify/sync';
import { sql, type Db } from '@lampstand/db';
import { IMPORT_FIELDS } from '../../schemas/contact-imports.js';
import { notFound } from '../../errors.js';
import { toContact } from './map.js';
import type { Contact } from '../../schemas/contacts.js';

/**
 * A spreadsheet opening the file must not run a cell as a formula: every cell that starts with
 * =, +, -, @, tab or carriage return gets a leading apostrophe (a phone then reads '+61…; the
 * importer drops that apostrophe again).
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

function cells(c: Contact): string[] {
  const m = c.metadata;
  const byField: Record<string, string> = {
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email ?? '',
    phone: c.phone ?? '',
    countryCode: m.countryCode,
    dateOfBirth: m.dateOfBirth ?? '',
    tags: c.tags.join('; '),
    notes: m.notes ?? '',
    isChurchMember: yesNo(m.isChurchMember),
    isBaptised: yesNo(m.isBaptised),
    isSeeker: yesNo(m.isSeeker),
    isServiceStaff: yesNo(m.isServiceStaff),
    staffRole: m.staffRole ?? '',
    wwccNumber: m.wwccNumber ?? '',
    website: m.website ?? '',
    address: m.address ?? '',
    city: m.city ?? '',
    state: m.state ?? '',
    country: m.country ?? '',
    postalCode: m.postalCode ?? '',
    emailConsent: c.consent.email.status,
    smsConsent: c.consent.sms.status,
  };
  return IMPORT_FIELDS.map((f) => safeCell(byField[f.value] ?? ''));
}

/**
 * All contacts, or one list's, as CSV. The header uses the import screen's labels, so an
 * exported file imports again with every column mapped.
 */
export async function exportContactsCsv(
  db: Db,
  tenantId: number,
  opts: { listId?: number },
): Promise<{ fileName: string; csv: string }> {
  let listName: string | undefined;
  if (opts.listId) {
    const list = await db
      .selectFrom('contactLists')
      .select('name')
      .where('id', '=', opts.listId)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!list) throw notFound('List not found');
    listName = list.name;
  }
  let q = db.selectFrom('contacts').selectAll('contacts').where('contacts.userId', '=', tenantId);
  if (opts.listId) {
    q = q.innerJoin('contactsInLists as m', 'm.contactId', 'contacts.id').where('m.listId', '=', opts.listId);
  }
  const rows = await q
    .orderBy(sql`lower(contacts.last_name)`)
    .orderBy(sql`lower(contacts.first_name)`)
    .orderBy('contacts.id')
    .execute();
  const csv = stringify([IMPORT_FIELDS.map((f) => f.label), ...rows.map((r) => cells(toContact(r)))]);
  const slug =
    (listName ?? 'contacts')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'contacts';
  return { fileName: `${slug}-${new Date().toISOString().slice(0, 10)}.csv`, csv };
}
