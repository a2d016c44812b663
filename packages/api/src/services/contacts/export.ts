import { setImmediate as nextTurn } from 'node:timers/promises';
import { tenantDb, type Db } from '@lampstand/db';
import { IMPORT_FIELDS } from '../../schemas/contact-imports.js';
import { acquireExportSlot } from './church-limits.js';
import { toContact } from './map.js';
import { phoneCell, toCsv, type CsvCell } from '../../render/csv.js';
import { contactsByName } from './contacts.js';
import type { z } from 'zod';
import type { contactSchema } from '../../schemas/contacts.js';
import { findChurchRow } from '../church-rows.js';

type ContactOut = z.input<typeof contactSchema>;

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/**
 * One contact's cells, in the import screen's column order (the CSV writer guards formulas). The
 * phone is its E.164 number ('+61412000111', which imports back whatever the Country Code column
 * says), or as typed when it is not a possible number.
 */
function cells(c: ReturnType<typeof toContact>): CsvCell[] {
  const m = c.metadata;
  const byField: Record<string, CsvCell> = {
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email ?? '',
    phone: phoneCell(c.phoneE164 ?? c.phone),
    countryCode: phoneCell(m.countryCode),
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
  return IMPORT_FIELDS.map((f) => byField[f.value] ?? '');
}

/**
 * Rows read per round trip of the export's cursor (and CSV rows per chunk written). Small, so that
 * turning one chunk into JSON or CSV holds the event loop for a few milliseconds only.
 */
const CHUNK_ROWS = 100;

/** The rows of `query` through a cursor; other requests get a turn of the event loop between chunks. */
async function* cursorRows<T>(query: { stream(chunkSize: number): AsyncIterableIterator<T> }): AsyncGenerator<T> {
  let n = 0;
  for await (const row of query.stream(CHUNK_ROWS)) {
    if (++n % CHUNK_ROWS === 0) await nextTurn();
    yield row;
  }
}

/** Every contact of the church (or of one list), by name, read through a server-side cursor: memory stays flat. */
export async function* streamContacts(
  db: Db,
  tenantId: number,
  opts: { listId?: number } = {},
): AsyncGenerator<ContactOut> {
  for await (const row of cursorRows(contactsByName(db, tenantId, opts))) yield toContact(row);
}

/** The list's name; 404 for an unknown list or another church's. */
async function listName(db: Db, tenantId: number, listId: number): Promise<string> {
  const list = await findChurchRow(db, tenantId, {
    table: 'contactLists',
    id: listId,
    columns: ['name'],
    missing: 'List not found',
  });
  return list.name;
}

export interface ContactsCsv {
  fileName: string;
  /** The file in chunks of CHUNK_ROWS rows, the header first, read through a cursor. */
  chunks: AsyncGenerator<string>;
}

/**
 * All contacts, or one list's, as CSV. The header uses the import screen's labels, so an
 * exported file imports again with every column mapped. An unknown list answers 404 before the
 * first chunk.
 */
export async function openContactsCsv(db: Db, tenantId: number, opts: { listId?: number }): Promise<ContactsCsv> {
  const name = opts.listId ? await listName(db, tenantId, opts.listId) : undefined;
  const slug =
    (name ?? 'contacts')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'contacts';
  async function* chunks(): AsyncGenerator<string> {
    yield toCsv([IMPORT_FIELDS.map((f) => f.label)]);
    let batch: CsvCell[][] = [];
    for await (const row of cursorRows(contactsByName(db, tenantId, opts))) {
      batch.push(cells(toContact(row)));
      if (batch.length === CHUNK_ROWS) {
        yield toCsv(batch);
        batch = [];
      }
    }
    if (batch.length) yield toCsv(batch);
  }
  return { fileName: `${slug}-${new Date().toISOString().slice(0, 10)}.csv`, chunks: chunks() };
}

/** An export that holds one of the church's export slots until `close()` (see church-limits.ts). */
export interface OpenExport<T> {
  fileName?: string;
  items: AsyncIterable<T>;
  close(): Promise<void>;
}

/** Take an export slot (or 429), then open the export on the slot's connection. */
async function inExportSlot<T>(
  db: Db,
  tenantId: number,
  open: (conn: Db) => Promise<{ fileName?: string; items: AsyncIterable<T> }>,
): Promise<OpenExport<T>> {
  const slot = await acquireExportSlot(db, tenantId);
  try {
    const opened = await open(slot.db);
    return { ...opened, close: () => slot.release() };
  } catch (err) {
    await slot.release();
    throw err;
  }
}

/**
 * `GET /api/contacts` (every contact) and `GET /api/contact-lists/{id}/contacts` (one list's; 404
 * before the first row for an unknown list) as a stream, within the church's export limit. The
 * slot's connection is the church's (`tenantDb`), whatever handle the caller passes, so row-level
 * security holds the stream to the church's rows even if its `WHERE` were lost.
 */
export function openContactsExport(
  db: Db,
  tenantId: number,
  opts: { listId?: number } = {},
): Promise<OpenExport<ContactOut>> {
  return inExportSlot(tenantDb(db, tenantId), tenantId, async (conn) => {
    if (opts.listId) await listName(conn, tenantId, opts.listId);
    return { items: streamContacts(conn, tenantId, opts) };
  });
}

/** The CSV export as a stream of chunks, within the church's export limit, on the church's handle. */
export function openContactsCsvExport(
  db: Db,
  tenantId: number,
  opts: { listId?: number },
): Promise<OpenExport<string>> {
  return inExportSlot(tenantDb(db, tenantId), tenantId, async (conn) => {
    const csv = await openContactsCsv(conn, tenantId, opts);
    return { fileName: csv.fileName, items: csv.chunks };
  });
}
