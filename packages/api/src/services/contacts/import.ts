import { parse } from 'csv-parse/sync';
import { sql, type ContactMetadata, type Db, type ImportSkip } from '@lampstand/db';
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
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import { toE164 } from './phone.js';

const PREVIEW_ROWS = 5;
const BATCH = 1000;

interface ParsedCsv {
  headers: string[];
  rows: { line: number; cells: string[] }[];
}

export function parseCsv(csv: string): ParsedCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // Line endings normalised first, so a quoted field's CRLF counts as one line break.
    records = parse(csv.replace(/\r\n?/g, '\n'), {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      trim: false,
    }) as never;
  } catch (err) {
    throw badRequest(`This file could not be read as CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  const [head, ...rest] = records;
  if (!head) throw badRequest('The file is empty');
  const headers = head.record.map((h, i) => h.trim() || `Column ${i + 1}`);
  // info.lines is where a record ends; a quoted field with line breaks starts that many lines earlier.
  const startLine = (r: { record: string[]; info: { lines: number } }) =>
    r.info.lines - r.record.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
  return { headers, rows: rest.map((r) => ({ line: startLine(r), cells: r.record })) };
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

function toImport(r: ImportRow, parsed?: ParsedCsv): ContactImport {
  return {
    id: r.id,
    fileName: r.fileName,
    status: r.status,
    headers: r.headers,
    preview: parsed ? parsed.rows.slice(0, PREVIEW_ROWS).map((x) => x.cells) : [],
    suggestedMapping: parsed ? suggestMapping(parsed.headers) : {},
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
  const parsed = parseCsv(input.csv);
  if (parsed.rows.length === 0) throw badRequest('The file has a header row but no contacts');
  const row = await db
    .insertInto('contactImports')
    .values({
      userId: tenantId,
      fileName: input.fileName,
      csv: input.csv,
      headers: JSON.stringify(parsed.headers),
      totalRows: parsed.rows.length,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toImport(row, parsed);
}

export async function getImport(
  db: Db,
  tenantId: number,
  id: number,
  opts: { preview?: boolean } = {},
): Promise<ContactImport> {
  const row = await db
    .selectFrom('contactImports')
    .selectAll()
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Import not found');
  return toImport(row, opts.preview && row.status === 'uploaded' ? parseCsv(row.csv) : undefined);
}

/** Confirm the mapping and queue the import; the work happens in the background. */
export async function startImport(
  db: Db,
  jobs: JobQueue,
  tenantId: number,
  input: { id: number; mapping: Record<string, ImportField>; listId?: number },
): Promise<ContactImport> {
  const imp = await db
    .selectFrom('contactImports')
    .select(['id', 'status', 'headers'])
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!imp) throw notFound('Import not found');
  if (imp.status !== 'uploaded') throw conflict('This import has already been started');
  const unknown = Object.keys(input.mapping).filter((h) => !imp.headers.includes(h));
  if (unknown.length) throw badRequest(`The file has no column named '${unknown[0]}'`);
  if (input.listId) {
    const list = await db
      .selectFrom('contactLists')
      .select('id')
      .where('id', '=', input.listId)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!list) throw notFound('List not found');
  }
  const row = await db
    .updateTable('contactImports')
    .set({ status: 'queued', mapping: JSON.stringify(input.mapping), listId: input.listId ?? null })
    .where('id', '=', input.id)
    .where('status', '=', 'uploaded')
    .returningAll()
    .executeTakeFirst();
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
  if (countryCode) metadata.countryCode = countryCode;
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
    phoneE164: toE164(phone, countryCode ?? '+61'),
    dateOfBirth,
    tags,
    metadata,
    emailUnsubscribed: v.emailConsent !== undefined && UNSUBSCRIBED.has(v.emailConsent.toLowerCase()),
    smsUnsubscribed: v.smsConsent !== undefined && UNSUBSCRIBED.has(v.smsConsent.toLowerCase()),
  };
}

/**
 * The background part: contacts are matched within the church by email, then by phone; a match
 * is updated with the row's non-empty values (never re-subscribing someone who unsubscribed), the
 * rest created. Each batch commits with the progress, so a retried job resumes where it stopped.
 */
export async function runContactImport(db: Db, importId: number): Promise<void> {
  const imp = await db.selectFrom('contactImports').selectAll().where('id', '=', importId).executeTakeFirst();
  // A failed import is picked up again by the job's retry and resumes after its last committed batch.
  if (!imp || imp.status === 'completed' || imp.status === 'uploaded') return;
  const tenantId = imp.userId;
  const mapping = (imp.mapping ?? {}) as Record<string, ImportField>;
  await db
    .updateTable('contactImports')
    .set({ status: 'running', error: null, finishedAt: null })
    .where('id', '=', importId)
    .execute();

  try {
    const { headers, rows } = parseCsv(imp.csv);
    // Who is already here, by email and phone (the church's whole address book, read once).
    const existing = await db
      .selectFrom('contacts')
      .select(['id', 'email', 'phoneE164'])
      .where('userId', '=', tenantId)
      .execute();
    const byEmail = new Map<string, number>();
    const byPhone = new Map<string, number>();
    for (const c of existing) {
      if (c.email) byEmail.set(c.email.toLowerCase(), c.id);
      if (c.phoneE164) byPhone.set(c.phoneE164, c.id);
    }

    for (let start = imp.processedRows; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      await db.transaction().execute(async (trx) => {
        const skipped: ImportSkip[] = [];
        const toCreate: Candidate[] = [];
        const toUpdate: { id: number; c: Candidate }[] = [];
        const touched = new Set<number>();
        for (const r of batch) {
          const c = rowToCandidate(r.line, r.cells, headers, mapping);
          if ('reason' in c) {
            skipped.push(c);
            continue;
          }
          const match =
            (c.email && byEmail.get(c.email.toLowerCase())) || (c.phoneE164 && byPhone.get(c.phoneE164)) || undefined;
          if (match) toUpdate.push({ id: match, c });
          else {
            const dup = toCreate.find(
              (x) =>
                (c.email && x.email?.toLowerCase() === c.email.toLowerCase()) ||
                (c.phoneE164 && x.phoneE164 === c.phoneE164),
            );
            if (dup) skipped.push({ line: c.line, reason: `Same person as line ${dup.line}` });
            else toCreate.push(c);
          }
        }

        if (toCreate.length) {
          const created = await trx
            .insertInto('contacts')
            .values(
              toCreate.map((c) => ({
                userId: tenantId,
                firstName: c.firstName,
                lastName: c.lastName,
                email: c.email,
                phone: c.phone,
                phoneE164: c.phoneE164,
                tags: c.tags ?? [],
                metadata: JSON.stringify({
                  countryCode: '+61',
                  isChurchMember: false,
                  isBaptised: false,
                  isSeeker: false,
                  isServiceStaff: false,
                  ...c.metadata,
                }),
                dateOfBirth: c.dateOfBirth,
                emailConsent: c.emailUnsubscribed ? ('unsubscribed' as const) : ('subscribed' as const),
                emailConsentAt: c.emailUnsubscribed ? new Date() : null,
                emailConsentSource: c.emailUnsubscribed ? 'import' : null,
                smsConsent: c.smsUnsubscribed ? ('unsubscribed' as const) : ('subscribed' as const),
                smsConsentAt: c.smsUnsubscribed ? new Date() : null,
                smsConsentSource: c.smsUnsubscribed ? 'import' : null,
              })),
            )
            .returning(['id', 'email', 'phoneE164', 'emailConsent', 'smsConsent'])
            .execute();
          const events = created.flatMap((row) => [
            ...(row.emailConsent === 'unsubscribed'
              ? [
                  {
                    userId: tenantId,
                    contactId: row.id,
                    channel: 'email' as const,
                    status: 'unsubscribed' as const,
                    source: 'import',
                    note: imp.fileName,
                  },
                ]
              : []),
            ...(row.smsConsent === 'unsubscribed'
              ? [
                  {
                    userId: tenantId,
                    contactId: row.id,
                    channel: 'sms' as const,
                    status: 'unsubscribed' as const,
                    source: 'import',
                    note: imp.fileName,
                  },
                ]
              : []),
          ]);
          if (events.length) await trx.insertInto('contactConsentEvents').values(events).execute();
          for (const row of created) {
            touched.add(row.id);
            if (row.email) byEmail.set(row.email.toLowerCase(), row.id);
            if (row.phoneE164) byPhone.set(row.phoneE164, row.id);
          }
        }

        for (const { id, c } of toUpdate) {
          touched.add(id);
          const now = new Date();
          const set: Record<string, unknown> = { firstName: c.firstName, lastName: c.lastName, updatedAt: now };
          if (c.email) set.email = c.email;
          if (c.phone) {
            set.phone = c.phone;
            set.phoneE164 = c.phoneE164;
          }
          if (c.dateOfBirth) set.dateOfBirth = c.dateOfBirth;
          if (c.tags) set.tags = sql`(select array(select distinct unnest(tags || ${sql.val(c.tags)}::text[])))`;
          if (Object.keys(c.metadata).length) set.metadata = sql`metadata || ${JSON.stringify(c.metadata)}::jsonb`;
          // Unsubscribing is honoured; a 'subscribed' cell never re-subscribes anyone.
          if (c.emailUnsubscribed) {
            set.emailConsent = sql`'unsubscribed'`;
            set.emailConsentAt = sql`case when email_consent = 'unsubscribed' then email_consent_at else ${now} end`;
            set.emailConsentSource = sql`case when email_consent = 'unsubscribed' then email_consent_source else 'import' end`;
          }
          if (c.smsUnsubscribed) {
            set.smsConsent = sql`'unsubscribed'`;
            set.smsConsentAt = sql`case when sms_consent = 'unsubscribed' then sms_consent_at else ${now} end`;
            set.smsConsentSource = sql`case when sms_consent = 'unsubscribed' then sms_consent_source else 'import' end`;
          }
          const before =
            c.emailUnsubscribed || c.smsUnsubscribed
              ? await trx
                  .selectFrom('contacts')
                  .select(['emailConsent', 'smsConsent'])
                  .where('id', '=', id)
                  .executeTakeFirst()
              : undefined;
          await trx
            .updateTable('contacts')
            .set(set as never)
            .where('id', '=', id)
            .where('userId', '=', tenantId)
            .execute();
          if (before && c.emailUnsubscribed && before.emailConsent !== 'unsubscribed') {
            await trx
              .insertInto('contactConsentEvents')
              .values({
                userId: tenantId,
                contactId: id,
                channel: 'email',
                status: 'unsubscribed',
                source: 'import',
                note: imp.fileName,
              })
              .execute();
          }
          if (before && c.smsUnsubscribed && before.smsConsent !== 'unsubscribed') {
            await trx
              .insertInto('contactConsentEvents')
              .values({
                userId: tenantId,
                contactId: id,
                channel: 'sms',
                status: 'unsubscribed',
                source: 'import',
                note: imp.fileName,
              })
              .execute();
          }
        }

        if (imp.listId && touched.size) {
          await trx
            .insertInto('contactsInLists')
            .values([...touched].map((contactId) => ({ userId: tenantId, listId: imp.listId!, contactId })))
            .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
            .execute();
        }

        await trx
          .updateTable('contactImports')
          .set({
            processedRows: start + batch.length,
            createdCount: sql`created_count + ${toCreate.length}`,
            updatedCount: sql`updated_count + ${toUpdate.length}`,
            skipped: sql`skipped || ${JSON.stringify(skipped)}::jsonb`,
          })
          .where('id', '=', importId)
          .execute();
      });
    }
    await db
      .updateTable('contactImports')
      .set({ status: 'completed', finishedAt: new Date() })
      .where('id', '=', importId)
      .execute();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await db
      .updateTable('contactImports')
      .set({ status: 'failed', error: message, finishedAt: new Date() })
      .where('id', '=', importId)
      .execute();
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
