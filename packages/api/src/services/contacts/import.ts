import { setImmediate as nextTurn } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ownerDb, refreshStatistics, sql, type ContactMetadata, type Db, type ImportSkip } from '@lampstand/db';
import type { Selectable } from 'kysely';
import type { ContactImportsTable } from '@lampstand/db';
import { IMPORT_FIELDS, type ContactImport, type ImportField } from '../../schemas/contact-imports.js';
import {
  contactFieldsSchema,
  countryCodeSchema,
  dmyToIso,
  isValidIsoDate,
  staffRoleSchema,
} from '../../schemas/contacts.js';
import { AppError, badRequest, conflict } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { churchCountryCode, type CountryCode } from '../settings/church-settings.js';
import { toE164 } from './phone.js';
import { changeConsent, type ConsentChannel } from './consent.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, recordEvents } from '../events/record.js';
import { checkImportSlot, IMPORT_LEASE_MINUTES } from './church-limits.js';
import { assertChurchRow, findChurchRow } from '../church-rows.js';

const PREVIEW_ROWS = 5;
const BATCH = 1000;
/** Characters of the file handed to the parser at a time; the event loop gets a turn between them. */
const PARSE_CHUNK = 64 * 1024;

/** One CSV record: the line it starts on, and its cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

export interface OpenCsv {
  headers: string[];
  /** The records after the header, parsed a chunk of the file at a time. */
  rows: AsyncGenerator<CsvRow>;
}

/** The file in chunks, line endings normalised (a CR at a chunk's end waits for the next chunk). */
async function* normalisedChunks(csv: string): AsyncGenerator<string> {
  let carry = '';
  for (let at = 0; at < csv.length; at += PARSE_CHUNK) {
    await nextTurn(); // other requests run between chunks
    let chunk = carry + csv.slice(at, at + PARSE_CHUNK);
    carry = '';
    if (chunk.endsWith('\r') && at + PARSE_CHUNK < csv.length) {
      carry = '\r';
      chunk = chunk.slice(0, -1);
    }
    // Line endings normalised first, so a quoted field's CRLF counts as one line break.
    yield chunk.replace(/\r\n?/g, '\n');
  }
  if (carry) yield '\n';
}

async function* csvRecords(csv: string): AsyncGenerator<CsvRow> {
  const parser = Readable.from(normalisedChunks(csv)).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, trim: false }),
  );
  try {
    for await (const r of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // info.lines is where a record ends; a quoted field with line breaks starts that many lines earlier.
      const breaks = r.record.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
      yield { line: r.info.lines - breaks, cells: r.record };
    }
  } catch (err) {
    throw badRequest(`This file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    parser.destroy();
  }
}

/** Read the header row; the rest of the file is parsed as `rows` is read. */
export async function openCsv(csv: string): Promise<OpenCsv> {
  const records = csvRecords(csv);
  const head = await records.next();
  if (head.done) throw badRequest('The file is empty');
  const headers = head.value.cells.map((h, i) => h.trim() || `Column ${i + 1}`);
  return { headers, rows: records };
}

/** The header, the first rows and (when `count`) how many rows there are; stops early otherwise. */
async function csvSummary(csv: string, opts: { count: boolean }) {
  const { headers, rows } = await openCsv(csv);
  const preview: string[][] = [];
  let totalRows = 0;
  for await (const r of rows) {
    if (preview.length < PREVIEW_ROWS) preview.push(r.cells);
    totalRows++;
    if (!opts.count && preview.length === PREVIEW_ROWS) break;
  }
  return { headers, preview, totalRows };
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const SYNONYMS: Record<string, ImportField> = {
  first: 'firstName',
  firstname: 'firstName',
  givenname: 'firstName',
  fname: 'firstName',
  forename: 'firstName',
  last: 'lastName',
  lastname: 'lastName',
  surname: 'lastName',
  familyname: 'lastName',
  lname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  mobilephone: 'phone',
  cell: 'phone',
  cellphone: 'phone',
  telephone: 'phone',
  mobilenumber: 'phone',
  countrycode: 'countryCode',
  dob: 'dateOfBirth',
  dateofbirth: 'dateOfBirth',
  birthday: 'dateOfBirth',
  birthdate: 'dateOfBirth',
  tags: 'tags',
  notes: 'notes',
  note: 'notes',
  member: 'isChurchMember',
  churchmember: 'isChurchMember',
  ischurchmember: 'isChurchMember',
  baptised: 'isBaptised',
  baptized: 'isBaptised',
  seeker: 'isSeeker',
  servicestaff: 'isServiceStaff',
  staff: 'isServiceStaff',
  staffrole: 'staffRole',
  role: 'staffRole',
  wwcc: 'wwccNumber',
  wwccnumber: 'wwccNumber',
  website: 'website',
  url: 'website',
  address: 'address',
  street: 'address',
  streetaddress: 'address',
  city: 'city',
  suburb: 'city',
  town: 'city',
  state: 'state',
  region: 'state',
  country: 'country',
  postcode: 'postalCode',
  postalcode: 'postalCode',
  zip: 'postalCode',
  zipcode: 'postalCode',
  emailconsent: 'emailConsent',
  smsconsent: 'smsConsent',
};
for (const f of IMPORT_FIELDS) SYNONYMS[norm(f.label)] = f.value;

export function suggestMapping(headers: string[]): Record<string, ImportField> {
  const used = new Set<ImportField>();
  const mapping: Record<string, ImportField> = {};
  for (const h of headers) {
    const field = SYNONYMS[norm(h)];
    if (field && !used.has(field)) {
      mapping[h] = field;
      used.add(field);
    }
  }
  return mapping;
}

type ImportRow = Selectable<ContactImportsTable>;

function toImport(r: ImportRow, file?: { headers: string[]; preview: string[][] }): ContactImport {
  return {
    id: r.id,
    fileName: r.fileName,
    status: r.status,
    headers: r.headers,
    preview: file ? file.preview : [],
    suggestedMapping: file ? suggestMapping(file.headers) : {},
    mapping: r.mapping,
    listId: r.listId,
    totalRows: r.totalRows,
    processedRows: r.processedRows,
    createdCount: r.createdCount,
    updatedCount: r.updatedCount,
    skipped: r.skipped,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/** Keep the file, and answer with its columns, a preview and a suggested mapping. */
export async function uploadImport(
  db: Db,
  tenantId: number,
  input: { fileName: string; csv: string },
): Promise<ContactImport> {
  const file = await csvSummary(input.csv, { count: true });
  if (file.totalRows === 0) throw badRequest('The file has a header row but no contacts');
  const row = await db
    .insertInto('contactImports')
    .values({
      userId: tenantId,
      fileName: input.fileName,
      csv: input.csv,
      headers: JSON.stringify(file.headers),
      totalRows: file.totalRows,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toImport(row, file);
}

export async function getImport(
  db: Db,
  tenantId: number,
  id: number,
  opts: { preview?: boolean } = {},
): Promise<ContactImport> {
  const row = await findChurchRow(db, tenantId, { table: 'contactImports', id: id, missing: 'Import not found' });
  const file = opts.preview && row.status === 'uploaded' ? await csvSummary(row.csv, { count: false }) : undefined;
  return toImport(row, file);
}

/**
 * Confirm the mapping and queue the import; the work happens in the background. A church runs
 * one import at a time (429 otherwise, see church-limits.ts).
 */
export async function startImport(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: { id: number; mapping: Record<string, ImportField>; listId?: number },
): Promise<ContactImport> {
  const imp = await findChurchRow(db, tenantId, {
    table: 'contactImports',
    id: input.id,
    columns: ['id', 'status', 'headers'],
    missing: 'Import not found',
  });
  if (imp.status !== 'uploaded') throw conflict('This import has already been started');
  const unknown = Object.keys(input.mapping).filter((h) => !imp.headers.includes(h));
  if (unknown.length) throw badRequest(`The file has no column named '${unknown[0]}'`);
  if (input.listId) {
    await assertChurchRow(db, tenantId, { table: 'contactLists', id: input.listId, missing: 'List not found' });
  }
  const row = await db.transaction().execute(async (trx) => {
    await checkImportSlot(trx, tenantId);
    return trx
      .updateTable('contactImports')
      .set({
        status: 'queued',
        mapping: JSON.stringify(input.mapping),
        listId: input.listId ?? null,
        progressAt: new Date(),
      })
      .where('id', '=', input.id)
      .where('status', '=', 'uploaded')
      .returningAll()
      .executeTakeFirst();
  });
  if (!row) throw conflict('This import has already been started');
  await jobs.send('contact-import', { importId: row.id }, { singletonKey: `contact-import-${row.id}` });
  return toImport(row);
}

const TRUE = new Set(['yes', 'y', 'true', '1', 'x', 'member', 'baptised', 'baptized']);
const FALSE = new Set(['no', 'n', 'false', '0', '']);
const UNSUBSCRIBED = new Set([
  'unsubscribed',
  'no',
  'n',
  'false',
  '0',
  'opted out',
  'opt out',
  'optout',
  'unsubscribe',
]);
const emailSchema = contactFieldsSchema.shape.email;

interface Candidate {
  line: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  dateOfBirth: string | null;
  tags: string[] | null;
  metadata: Partial<ContactMetadata>;
  emailUnsubscribed: boolean;
  smsUnsubscribed: boolean;
}

/** One CSV row to a contact, or the reason it is skipped (the spec's messages). */
export function rowToCandidate(
  line: number,
  cells: string[],
  headers: string[],
  mapping: Record<string, ImportField>,
  churchCountry: CountryCode,
): Candidate | ImportSkip {
  const v: Partial<Record<ImportField, string>> = {};
  headers.forEach((h, i) => {
    const f = mapping[h];
    if (f) v[f] = unescapeCell((cells[i] ?? '').trim());
  });
  const firstName = v.firstName ?? '';
  const lastName = v.lastName ?? '';
  if (!firstName) return { line, reason: 'First name is required' };
  if (!lastName) return { line, reason: 'Last name is required' };
  const email = v.email ? v.email : null;
  if (email && !emailSchema.safeParse(email).success)
    return { line, reason: `Please enter a valid email address: '${email}'` };
  const phone = v.phone ? v.phone : null;
  if (phone && phone.length < 4) return { line, reason: `Please enter a valid phone number: '${phone}'` };
  if (!email && !phone) return { line, reason: 'No email address or phone number' };
  const cc = v.countryCode ? (v.countryCode.startsWith('+') ? v.countryCode : `+${v.countryCode}`) : undefined;
  const countryCode = cc && countryCodeSchema.safeParse(cc).success ? cc : undefined;
  const metadata: Partial<ContactMetadata> = {};
  // A row without a (known) country is read in the church's default country, and stored with it.
  if (countryCode) metadata.countryCode = countryCode;
  else if (phone) metadata.countryCode = churchCountry;
  const bool = (x: string | undefined) =>
    x === undefined ? undefined : TRUE.has(x.toLowerCase()) ? true : FALSE.has(x.toLowerCase()) ? false : undefined;
  for (const key of ['isChurchMember', 'isBaptised', 'isSeeker', 'isServiceStaff'] as const) {
    const b = bool(v[key]);
    if (b !== undefined) metadata[key] = b;
  }
  for (const key of ['notes', 'wwccNumber', 'website', 'address', 'city', 'state', 'country', 'postalCode'] as const) {
    if (v[key]) metadata[key] = v[key]!;
  }
  if (v.staffRole) {
    const role = v.staffRole
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
      .replace(/'/g, '');
    const parsed = staffRoleSchema.safeParse(role === 'administrative_staff' ? 'admin' : role);
    if (parsed.success) metadata.staffRole = parsed.data;
  }
  let dateOfBirth: string | null = null;
  if (v.dateOfBirth) dateOfBirth = isValidIsoDate(v.dateOfBirth) ? v.dateOfBirth : dmyToIso(v.dateOfBirth);
  const tags = v.tags
    ? v.tags
        .split(/[;,|]/)
        .map((t) => t.trim())
        .filter(Boolean)
    : null;
  return {
    line,
    firstName,
    lastName,
    email,
    phone,
    phoneE164: toE164(phone, countryCode ?? churchCountry),
    dateOfBirth,
    tags,
    metadata,
    emailUnsubscribed: v.emailConsent !== undefined && UNSUBSCRIBED.has(v.emailConsent.toLowerCase()),
    smsUnsubscribed: v.smsConsent !== undefined && UNSUBSCRIBED.has(v.smsConsent.toLowerCase()),
  };
}

/** An import being worked on: what its steps need to know of it. */
interface ImportJob {
  id: number;
  tenantId: number;
  fileName: string;
  csv: string;
  mapping: Record<string, ImportField>;
  listId: number | null;
  /** The list's name as the import found it (its events name it). */
  listName: string | null;
  processedRows: number;
  /** The church's default country: rows without one are read in it. */
  countryCode: CountryCode;
}

/** What one batch of rows comes to. */
interface BatchPlan {
  skipped: ImportSkip[];
  toCreate: Candidate[];
  toUpdate: { id: number; c: Candidate }[];
}

/** Another run took the import over (or finished it): this run stops, its batch rolled back. */
class ImportTakenOver extends Error {}

/**
 * Mark the import running, in one conditional statement, so that two runs at once (pg-boss
 * retrying beside a slow first run) cannot both claim it: queued, or failed (the job's retry
 * resumes after the last committed batch), or running without progress for IMPORT_LEASE_MINUTES.
 * Null when there is nothing to do (finished, never started, or another run has it).
 */
async function claimImport(db: Db, importId: number): Promise<ImportJob | null> {
  const imp = await db
    .updateTable('contactImports')
    .set({ status: 'running', error: null, finishedAt: null, progressAt: new Date() })
    .where('id', '=', importId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['queued', 'failed']),
        eb.and([
          eb('status', '=', 'running'),
          sql<boolean>`coalesce(progress_at, created_at) < now() - make_interval(mins => ${IMPORT_LEASE_MINUTES})`,
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (!imp) return null;
  const list = imp.listId
    ? await db.selectFrom('contactLists').select('name').where('id', '=', imp.listId).executeTakeFirst()
    : undefined;
  return {
    id: imp.id,
    tenantId: imp.userId,
    fileName: imp.fileName,
    csv: imp.csv,
    mapping: (imp.mapping ?? {}) as Record<string, ImportField>,
    listId: imp.listId,
    listName: list?.name ?? null,
    processedRows: imp.processedRows,
    countryCode: await churchCountryCode(db, imp.userId),
  };
}

/** The rows after the first `skip` (those a previous run committed), `size` at a time. */
async function* batchesOf(rows: AsyncIterable<CsvRow>, size: number, skip: number): AsyncGenerator<CsvRow[]> {
  let seen = 0;
  let batch: CsvRow[] = [];
  for await (const r of rows) {
    if (seen++ < skip) continue;
    batch.push(r);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Each row becomes a skip, a new contact or an update of the church's contact with the same email
 * (any case), else the same phone; a second new row for the same person is skipped.
 */
async function planBatch(trx: Db, job: ImportJob, headers: string[], batch: CsvRow[]): Promise<BatchPlan> {
  const plan: BatchPlan = { skipped: [], toCreate: [], toUpdate: [] };
  const candidates: Candidate[] = [];
  for (const r of batch) {
    const c = rowToCandidate(r.line, r.cells, headers, job.mapping, job.countryCode);
    if ('reason' in c) plan.skipped.push(c);
    else candidates.push(c);
  }
  const emails = [...new Set(candidates.flatMap((c) => (c.email ? [c.email.toLowerCase()] : [])))];
  const phones = [...new Set(candidates.flatMap((c) => (c.phoneE164 ? [c.phoneE164] : [])))];
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  if (emails.length || phones.length) {
    const existing = await trx
      .selectFrom('contacts')
      .select(['id', 'email', 'phoneE164'])
      .where('userId', '=', job.tenantId)
      .where((eb) =>
        eb.or([
          ...(emails.length ? [eb('emailLower', 'in', emails)] : []),
          ...(phones.length ? [eb('phoneE164', 'in', phones)] : []),
        ]),
      )
      .orderBy('id')
      .execute();
    for (const c of existing) {
      if (c.email) byEmail.set(c.email.toLowerCase(), c.id);
      if (c.phoneE164) byPhone.set(c.phoneE164, c.id);
    }
  }
  for (const c of candidates) {
    const match =
      (c.email && byEmail.get(c.email.toLowerCase())) || (c.phoneE164 && byPhone.get(c.phoneE164)) || undefined;
    if (match) {
      plan.toUpdate.push({ id: match, c });
      continue;
    }
    const dup = plan.toCreate.find(
      (x) =>
        (c.email && x.email?.toLowerCase() === c.email.toLowerCase()) || (c.phoneE164 && x.phoneE164 === c.phoneE164),
    );
    if (dup) plan.skipped.push({ line: c.line, reason: `Same person as line ${dup.line}` });
    else plan.toCreate.push(c);
  }
  return plan;
}

/**
 * Record an unsubscribe from the file in the contact's consent history (a no-op if already so);
 * its event joins the batch's `events`, recorded last in the batch's transaction.
 */
async function applyUnsubscribes(
  trx: Db,
  job: ImportJob,
  contactId: number,
  c: Candidate,
  events: NewEvent[],
): Promise<void> {
  const channels: ConsentChannel[] = [
    ...(c.emailUnsubscribed ? (['email'] as const) : []),
    ...(c.smsUnsubscribed ? (['sms'] as const) : []),
  ];
  for (const channel of channels) {
    const { event } = await changeConsent(trx, job.tenantId, {
      contactId,
      channel,
      status: 'unsubscribed',
      source: 'import',
      note: job.fileName,
    });
    if (event) events.push(event);
  }
}

/** Insert the new contacts (subscribed, then the file's unsubscribes); answers their ids. */
async function createContacts(trx: Db, job: ImportJob, toCreate: Candidate[], events: NewEvent[]): Promise<number[]> {
  if (!toCreate.length) return [];
  const created = await trx
    .insertInto('contacts')
    .values(
      toCreate.map((c) => ({
        userId: job.tenantId,
        firstName: c.firstName,
        lastName: c.lastName,
        email: c.email,
        phone: c.phone,
        phoneE164: c.phoneE164,
        tags: c.tags ?? [],
        metadata: JSON.stringify({
          countryCode: job.countryCode,
          isChurchMember: false,
          isBaptised: false,
          isSeeker: false,
          isServiceStaff: false,
          ...c.metadata,
        }),
        dateOfBirth: c.dateOfBirth,
      })),
    )
    .returning('id')
    .execute();
  // PostgreSQL returns the rows of an INSERT … VALUES in the order of its VALUES. One event per new
  // contact, naming the import's list it joins (no `list.member_added` beside it: see addToList).
  const list = job.listId ? { list: { id: job.listId, name: job.listName ?? '' } } : {};
  for (const [i, { id }] of created.entries()) {
    const person = personOf(toCreate[i]!);
    events.push({ type: 'contact.created', contactId: id, payload: { person, via: 'import', ...list } });
  }
  for (const [i, { id }] of created.entries()) await applyUnsubscribes(trx, job, id, toCreate[i]!, events);
  return created.map((r) => r.id);
}

/**
 * Update matched contacts with the row's non-empty values: tags added, metadata merged. An
 * unsubscribe is honoured; a 'subscribed' cell never re-subscribes anyone.
 */
async function updateContacts(
  trx: Db,
  job: ImportJob,
  toUpdate: BatchPlan['toUpdate'],
  events: NewEvent[],
): Promise<number[]> {
  for (const { id, c } of toUpdate) {
    events.push({
      type: 'contact.updated',
      contactId: id,
      payload: { person: personOf(c), changed: writtenFields(c) },
    });
    await trx
      .updateTable('contacts')
      .set({
        firstName: c.firstName,
        lastName: c.lastName,
        updatedAt: new Date(),
        ...(c.email ? { email: c.email } : {}),
        ...(c.phone ? { phone: c.phone, phoneE164: c.phoneE164 } : {}),
        ...(c.dateOfBirth ? { dateOfBirth: c.dateOfBirth } : {}),
        ...(c.tags
          ? { tags: sql<string[]>`(select array(select distinct unnest(tags || ${sql.val(c.tags)}::text[])))` }
          : {}),
        ...(Object.keys(c.metadata).length
          ? { metadata: sql<string>`metadata || ${JSON.stringify(c.metadata)}::jsonb` }
          : {}),
      })
      .where('id', '=', id)
      .where('userId', '=', job.tenantId)
      .execute();
    await applyUnsubscribes(trx, job, id, c, events);
  }
  return toUpdate.map((u) => u.id);
}

/** The fields a matched row writes (its non-empty values): what its `contact.updated` names. */
function writtenFields(c: Candidate): string[] {
  return [
    'firstName',
    'lastName',
    ...(c.email ? ['email'] : []),
    ...(c.phone ? ['phone'] : []),
    ...(c.dateOfBirth ? ['dateOfBirth'] : []),
    ...(c.tags ? ['tags'] : []),
    ...Object.keys(c.metadata),
  ];
}

/**
 * The import's list gains the batch's contacts: a `list.member_added` for each contact that was
 * there before the import and is new to the list (a new contact's `contact.created` names the list:
 * one event per imported row keeps the import cheap).
 */
async function addToList(
  trx: Db,
  job: ImportJob,
  people: Map<number, Candidate>,
  created: ReadonlySet<number>,
  events: NewEvent[],
): Promise<void> {
  if (!job.listId || !people.size) return;
  const listId = job.listId;
  const added = await trx
    .insertInto('contactsInLists')
    .values([...people.keys()].map((contactId) => ({ userId: job.tenantId, listId, contactId })))
    .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
    .returning('contactId')
    .execute();
  const list = { id: listId, name: job.listName ?? '' };
  for (const { contactId } of added) {
    if (created.has(contactId)) continue;
    events.push({ type: 'list.member_added', contactId, payload: { person: personOf(people.get(contactId)!), list } });
  }
}

/**
 * The fence, first in each batch's transaction: lock the import's row and check that it is still
 * this run's (running, at the row count this run committed last). A run that took it over has
 * moved the count on (or waits here for this batch to commit, then finds it moved), so every row
 * is imported once.
 */
async function fence(trx: Db, job: ImportJob, processedRows: number): Promise<void> {
  const row = await trx
    .selectFrom('contactImports')
    .select(['status', 'processedRows'])
    .where('id', '=', job.id)
    .forUpdate()
    .executeTakeFirst();
  if (row?.status !== 'running' || row.processedRows !== processedRows) throw new ImportTakenOver();
}

async function recordProgress(trx: Db, job: ImportJob, processedRows: number, plan: BatchPlan): Promise<void> {
  await trx
    .updateTable('contactImports')
    .set({
      processedRows,
      createdCount: sql`created_count + ${plan.toCreate.length}`,
      updatedCount: sql`updated_count + ${plan.toUpdate.length}`,
      skipped: sql`skipped || ${JSON.stringify(plan.skipped)}::jsonb`,
      progressAt: new Date(),
    })
    .where('id', '=', job.id)
    .execute();
}

/** Finish the import, if it is still this run's (running, at the count this run left it). */
async function endImport(db: Db, importId: number, outcome: { error: string | null; processedRows: number }) {
  await db
    .updateTable('contactImports')
    .set({ status: outcome.error === null ? 'completed' : 'failed', error: outcome.error, finishedAt: new Date() })
    .where('id', '=', importId)
    .where('status', '=', 'running')
    .where('processedRows', '=', outcome.processedRows)
    .execute();
}

/** Rows an import must bring for the planner's statistics to be refreshed at its end. */
export const ANALYZE_AFTER_ROWS = 1_000;

/**
 * After a large import: ANALYZE the contact tables (as their owner; the application's role may
 * not) so that the next queries are planned for the church's new size. Until autovacuum gets to it
 * (a minute or so later), the statistics still describe the church before the import, and searches
 * and counts chose plans made for a handful of rows (a search at 100,000 contacts: 78 ms instead of
 * 2 ms in `pnpm bench:growth`). Best effort: autovacuum does it anyway, so a failure here is not
 * the import's.
 */
async function refreshContactStatistics(db: Db): Promise<void> {
  await refreshStatistics(db, ['contacts', 'contacts_in_lists', 'contact_search']);
  // The imported contacts' search text waits in the trigram index's pending list, which every
  // search of every church reads until it is merged (migration 0099): merged now, not at the next
  // autovacuum.
  await sql`select gin_clean_pending_list('contact_search_user_doc_idx'::regclass)`
    .execute(ownerDb(db))
    .catch(() => undefined);
}

/**
 * The background part: the file is parsed as it is read, a batch of rows at a time; each batch
 * commits with the progress, so a retried job resumes where it stopped.
 */
export async function runContactImport(db: Db, importId: number): Promise<void> {
  const job = await claimImport(db, importId);
  if (!job) return;
  let processed = job.processedRows;
  try {
    const { headers, rows } = await openCsv(job.csv);
    for await (const batch of batchesOf(rows, BATCH, job.processedRows)) {
      await db.transaction().execute(async (trx) => {
        await fence(trx, job, processed);
        const plan = await planBatch(trx, job, headers, batch);
        const events: NewEvent[] = [];
        const created = await createContacts(trx, job, plan.toCreate, events);
        const updated = await updateContacts(trx, job, plan.toUpdate, events);
        const people = new Map<number, Candidate>();
        for (const [i, id] of created.entries()) people.set(id, plan.toCreate[i]!);
        for (const [i, id] of updated.entries()) people.set(id, plan.toUpdate[i]!.c);
        await addToList(trx, job, people, new Set(created), events);
        await recordProgress(trx, job, processed + batch.length, plan);
        // Last in the batch's transaction: one write of the batch's events (record.ts).
        await recordEvents(trx, job.tenantId, events);
      });
      processed += batch.length;
    }
    await endImport(db, importId, { error: null, processedRows: processed });
    if (processed - job.processedRows >= ANALYZE_AFTER_ROWS) await refreshContactStatistics(db);
  } catch (err) {
    // Another run has the import: it finishes it.
    if (err instanceof ImportTakenOver) return;
    await endImport(db, importId, {
      error: err instanceof Error ? err.message : String(err),
      processedRows: processed,
    });
    // A problem with the file itself will not go away; anything else (a lost connection, a
    // deadlock) is rethrown so that pg-boss retries, and the retry resumes.
    if (err instanceof AppError) return;
    throw err;
  }
}

/** Undo the export's formula guard: an apostrophe before =, +, -, @ is dropped. */
export function unescapeCell(value: string): string {
  return /^'[=+\-@]/.test(value) ? value.slice(1) : value;
}
