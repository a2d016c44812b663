import { preparedStatement, sql, type ContactMetadata, type Db } from '@lampstand/db';
import { CompiledQuery } from 'kysely';
import type { z } from 'zod';
import { contactTotal } from './counts.js';
import {
  type contactFieldsSchema,
  contactMetadataSchema,
  type contactSchema,
  type ContactPage,
  type ContactTab,
  type updateContactSchema,
} from '../../schemas/contacts.js';
import { duplicatesQuestion } from '../../shared/contacts.js';
import { contactAnswer, contactAnswerOf, snakeRows, toContact, type ContactRow, type SnakeContactRow } from './map.js';
import { churchCountryCode, type CountryCode } from '../settings/church-settings.js';
import { toE164 } from './phone.js';
import { findChurchRow } from '../church-rows.js';
import { conflict, notFound } from '../../errors.js';
import { findDuplicateContacts } from './merge.js';
import { personOf, recordEvent } from '../events/record.js';
import { actorOf } from '../events/actor.js';
import { lockPeopleWorkFirst } from '../background/lock-first.js';

type ContactFields = z.output<typeof contactFieldsSchema>;
type Metadata = z.output<typeof contactMetadataSchema>;
export type ContactPatch = z.output<typeof updateContactSchema>;

/**
 * Split the API's metadata into the jsonb document and the date column; a contact sent without a
 * country code gets the church's default country (stored, so the phone is read the same way later).
 */
function storedMetadata(
  input: Metadata | undefined,
  churchCountry: CountryCode,
): { metadata: ContactMetadata; dateOfBirth: string | null } {
  const m = input ?? contactMetadataSchema.parse({});
  const { dateOfBirth, ...rest } = m;
  const metadata: ContactMetadata = {
    ...rest,
    countryCode: rest.countryCode ?? churchCountry,
    staffRole: rest.isServiceStaff ? (rest.staffRole ?? null) : null,
    wwccNumber: rest.isServiceStaff ? (rest.wwccNumber ?? null) : null,
  };
  return { metadata, dateOfBirth: dateOfBirth ?? null };
}

function columns(input: ContactFields, churchCountry: CountryCode) {
  const { metadata, dateOfBirth } = storedMetadata(input.metadata, churchCountry);
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email || null,
    phone: input.phone || null,
    phoneE164: toE164(input.phone, metadata.countryCode!),
    tags: input.tags ?? [],
    metadata: JSON.stringify(metadata),
    dateOfBirth,
  };
}

type IfDuplicate = { ifDuplicate?: 'ask' | 'save' };

/**
 * With `ifDuplicate: 'ask'`: a 409 naming the church's other contacts with this email or phone (the
 * lookup the form's warning uses), so a quick save after typing still asks first. Not a uniqueness
 * rule: two saves at the same instant can both pass, and 'save' keeps the second deliberately.
 */
async function askAboutDuplicates(
  db: Db,
  tenantId: number,
  c: { email: string; phone: string; countryCode: CountryCode; excludeId?: number },
): Promise<void> {
  const duplicates = await findDuplicateContacts(db, tenantId, c);
  if (duplicates.length > 0) throw conflict(duplicatesQuestion(duplicates), 'ifDuplicate');
}

export async function createContact(
  db: Db,
  tenantId: number,
  input: ContactFields & IfDuplicate,
): Promise<z.input<typeof contactSchema>> {
  const country = await churchCountryCode(db, tenantId);
  if (input.ifDuplicate === 'ask') {
    const countryCode = input.metadata?.countryCode ?? country;
    await askAboutDuplicates(db, tenantId, { email: input.email, phone: input.phone, countryCode });
  }
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contacts')
      .values({ userId: tenantId, ...columns(input, country) })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Staff in the app, or an integrator with an API key.
    const via = actorOf(trx).kind === 'api_key' ? 'api' : 'staff';
    await recordEvent(trx, tenantId, {
      type: 'contact.created',
      contactId: row.id,
      payload: { person: personOf(row), via },
    });
    return toContact(row);
  });
}

type ContactOut = z.input<typeof contactSchema>;

/**
 * The names of the fields that differ ('email', 'tags', and a metadata key by its own name:
 * 'city', 'isChurchMember'): what `contact.updated` says changed.
 */
export function changedContactFields(before: ContactOut, after: ContactOut): string[] {
  const top = ['firstName', 'lastName', 'email', 'phone', 'tags'] as const;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changed: string[] = top.filter((k) => !same(before[k], after[k]));
  const a = before.metadata as Record<string, unknown>;
  const b = after.metadata as Record<string, unknown>;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!same(a[k], b[k])) changed.push(k);
  return changed;
}

/** The keys of `o` whose value is not undefined (a PATCH sends only what changes). */
export function sentFields<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The contact update's two statements, written once (the columns `columns` gives, in its order):
 * no query tree built, walked by the camel-case plugin and compiled per save.
 */
const CONTACT_FOR_UPDATE = 'select * from contacts where id = $1 and user_id = $2 for update';
const UPDATE_CONTACT = `
  update contacts set first_name = $1, last_name = $2, email = $3, phone = $4, phone_e164 = $5, tags = $6,
    metadata = $7, date_of_birth = $8, updated_at = $9
  where id = $10 and user_id = $11
  returning *`;

/**
 * PATCH a contact: unsent fields keep their values, metadata is merged key by key, and the E.164
 * phone is recomputed from the merged phone and country code (read and written under a row lock).
 */
export async function updateContact(
  db: Db,
  tenantId: number,
  input: ContactPatch,
): Promise<z.input<typeof contactSchema>> {
  const { id, userId: _ignored, metadata: metadataPatch, tags, ifDuplicate, ...fields } = input;
  return db.transaction().execute(async (trx) => {
    const current = (await trx.executeQuery<ContactRow>(CompiledQuery.raw(CONTACT_FOR_UPDATE, [id, tenantId]))).rows[0];
    if (!current) throw notFound('Contact not found');
    const before = toContact(current);
    // The stored country, not toContact's display fallback: a contact saved without one (an
    // older row) is read in the church's default country.
    const storedCountry = (current.metadata ?? {}).countryCode;
    const churchCountry = storedCountry ?? (await churchCountryCode(trx, tenantId));
    const merged = {
      firstName: before.firstName,
      lastName: before.lastName,
      email: before.email ?? '',
      phone: before.phone ?? '',
      ...sentFields(fields),
      tags: tags ?? before.tags,
      metadata: { ...(before.metadata as Metadata), countryCode: storedCountry, ...sentFields(metadataPatch) },
    };
    // Asked only when what identifies the person changes: editing Mary's notes does not ask again.
    const countryCode = merged.metadata.countryCode ?? churchCountry;
    const identityChanged =
      merged.email !== (before.email ?? '') ||
      merged.phone !== (before.phone ?? '') ||
      countryCode !== (storedCountry ?? churchCountry);
    if (ifDuplicate === 'ask' && identityChanged)
      await askAboutDuplicates(trx, tenantId, { email: merged.email, phone: merged.phone, countryCode, excludeId: id });
    const c = columns(merged, churchCountry);
    const updated = await trx.executeQuery<ContactRow>(
      CompiledQuery.raw(UPDATE_CONTACT, [
        c.firstName,
        c.lastName,
        c.email,
        c.phone,
        c.phoneE164,
        c.tags,
        c.metadata,
        c.dateOfBirth,
        new Date(),
        id,
        tenantId,
      ]),
    );
    const row = updated.rows[0];
    if (!row) throw new Error('The locked contact was not updated');
    const after = toContact(row);
    const changed = changedContactFields(before, after);
    if (changed.length > 0) {
      await recordEvent(trx, tenantId, {
        type: 'contact.updated',
        contactId: id,
        payload: { person: personOf(row), changed },
      });
    }
    return after;
  });
}

async function getContactRow(db: Db, tenantId: number, id: number): Promise<ContactRow> {
  const row = await findChurchRow(db, tenantId, { table: 'contacts', id: id, missing: 'Contact not found' });
  return row;
}

export async function getContact(db: Db, tenantId: number, id: number): Promise<z.input<typeof contactSchema>> {
  return toContact(await getContactRow(db, tenantId, id));
}

/** The church's contacts (or one list's) by name, the order of the list and the export. */
export function contactsByName(db: Db, tenantId: number, opts: { listId?: number } = {}) {
  let q = db.selectFrom('contacts').selectAll('contacts').where('contacts.userId', '=', tenantId);
  if (opts.listId) {
    q = q.innerJoin('contactsInLists as m', 'm.contactId', 'contacts.id').where('m.listId', '=', opts.listId);
  }
  return q
    .orderBy(sql`lower(contacts.last_name)`)
    .orderBy(sql`lower(contacts.first_name)`)
    .orderBy('contacts.id');
}

export interface FindContactsInput {
  search?: string;
  tab: ContactTab;
  listId?: number;
  page: number;
  pageSize: number;
}

const SEARCH_DOC = sql<string>`lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(phone_e164, ''))`;

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The columns of a contact the API answers (`contactAnswerOf`), listed: the statements below run prepared. */
const CONTACT_COLUMNS = `c.id, c.user_id, c.first_name, c.last_name, c.email, c.phone, c.phone_e164, c.tags, c.metadata,
    c.date_of_birth, c.email_consent, c.email_consent_at, c.email_consent_source, c.sms_consent,
    c.sms_consent_at, c.sms_consent_source, c.created_at, c.updated_at`;

/**
 * A page of the whole address book by name, with the church's number of contacts (kept by the
 * writes, migration 0096) in the same statement: one round trip. The statement is written once,
 * not built per request (the contacts list's first page is the app's most frequent read), and run
 * prepared (@lampstand/db's prepared.ts), as the search below.
 */
const PAGE_OF_ALL = preparedStatement(`
  select ${CONTACT_COLUMNS},
    (select coalesce(sum(added - removed), 0) from contact_counts where user_id = $1)::int as total_count
  from contacts c where c.user_id = $1
  order by lower(c.last_name), lower(c.first_name), c.id
  limit $2 offset $3`);

async function pageOfAll(db: Db, tenantId: number, input: FindContactsInput): Promise<ContactPage> {
  const rows = await snakeRows<SnakeContactRow & { total_count: number }>(
    db,
    CompiledQuery.raw(PAGE_OF_ALL, [tenantId, input.pageSize, (input.page - 1) * input.pageSize]),
  );
  // A page past the end has no row to carry the total.
  const total = rows[0]?.total_count ?? (await contactTotal(db, tenantId));
  return {
    items: rows.map(contactAnswerOf),
    total,
    page: input.page,
    pageSize: input.pageSize,
  };
}

/**
 * A page of the whole address book's search (see `findContacts`), written once like `PAGE_OF_ALL`:
 * no query tree built, walked by the camel-case plugin and compiled per request.
 */
const SEARCH_PAGE = preparedStatement(`
  select ${CONTACT_COLUMNS}, p.total as search_total
  from contact_search_page($1, $2::text[], $3, $4) with ordinality p
  left join contacts c on c.id = p.id and c.user_id = $1
  order by p.ordinality`);

/** The words of a search (at most 5) as LIKE patterns, and whether the trigram index can serve them. */
function searchPatterns(search: string | undefined) {
  const words = (search?.trim().toLowerCase() ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  // Words of 3+ letters can use the church's trigram index.
  return {
    patterns: words.map((w) => '%' + escapeLike(w) + '%'),
    indexed: words.length > 0 && words.every((w) => w.length >= 3),
  };
}

/**
 * A page of contacts: case-insensitive search over name, email and phone; tab filter; by name. In
 * the API's output form (dates as ISO strings), answered as it is (`exactOutput`).
 */
export async function findContacts(db: Db, tenantId: number, input: FindContactsInput): Promise<ContactPage> {
  if (input.tab === 'all' && !input.listId && !input.search?.trim()) return pageOfAll(db, tenantId, input);
  const { patterns, indexed } = searchPatterns(input.search);
  const offset = (input.page - 1) * input.pageSize;
  if (indexed && input.tab === 'all' && !input.listId) {
    // The whole address book searched: `contact_search_page` (migrations 0099, 0171) counts the
    // matches and returns the page's ids in the list's order, each with the total (one row with
    // no id when the page is past the end); only the page's contacts are read, under the policies.
    const rows = await snakeRows<(SnakeContactRow | { id: null }) & { search_total: number }>(
      db,
      CompiledQuery.raw(SEARCH_PAGE, [tenantId, patterns, input.pageSize, offset]),
    );
    return {
      items: rows.filter((r): r is SnakeContactRow & { search_total: number } => r.id !== null).map(contactAnswerOf),
      total: rows[0]?.search_total ?? 0,
      page: input.page,
      pageSize: input.pageSize,
    };
  }
  const q = matchingContacts(db, tenantId, input);
  const rowsQuery = q
    .selectAll('contacts')
    .orderBy(sql`lower(contacts.last_name)`)
    .orderBy(sql`lower(contacts.first_name)`)
    .orderBy('contacts.id')
    .limit(input.pageSize)
    .offset(offset);
  const [rows, count] = await Promise.all([
    rowsQuery.execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(contactAnswer), total: Number(count.n), page: input.page, pageSize: input.pageSize };
}

/**
 * The church's contacts matching a search, tab and list, as a query to select from (the contacts
 * page's filter; the picker's "Select all" adds every one of them in one statement).
 */
export function matchingContacts(
  db: Db,
  tenantId: number,
  input: Pick<FindContactsInput, 'search' | 'tab' | 'listId'>,
) {
  let q = db.selectFrom('contacts').where('contacts.userId', '=', tenantId);
  if (input.tab === 'members') q = q.where(sql<boolean>`(metadata->>'isChurchMember') = 'true'`);
  if (input.tab === 'staff') q = q.where(sql<boolean>`(metadata->>'isServiceStaff') = 'true'`);
  if (input.listId) {
    q = q.where('contacts.id', 'in', (eb) =>
      eb
        .selectFrom('contactsInLists')
        .select('contactId')
        .where('listId', '=', input.listId!)
        .where('userId', '=', tenantId),
    );
  }
  const { patterns, indexed } = searchPatterns(input.search);
  // Every word must appear somewhere (so 'mary smith' finds Mary Smith). The trigram index cannot
  // be used through the row-level security policies (LIKE is not leakproof): `contact_search_page`
  // and `contact_search_ids` find the ids with the index of `contact_search` (each contact's
  // lowered text, kept by triggers) under the same rule as the policy (migrations 0095 and 0099,
  // docs/security.md), and the rows are still read under the policies here.
  if (indexed) {
    return q.where(
      'contacts.id',
      'in',
      sql<number>`(select id from contact_search_ids(${tenantId}, ${patterns}::text[]))`,
    );
  }
  for (const pattern of patterns) q = q.where(sql<boolean>`${SEARCH_DOC} like ${pattern}`);
  return q;
}

/**
 * Delete a contact. Its list memberships, family links, children (and their list memberships) and
 * consent history go with it: their foreign keys are `on delete cascade` (migration 0002).
 */
export async function deleteContact(db: Db, tenantId: number, id: number): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    // What background work holds of them first (journey enrolments, recurring gifts): a visit or a
    // charge in flight is waited for, not deadlocked with.
    await lockPeopleWorkFirst(trx, tenantId, [id]);
    const row = await trx
      .deleteFrom('contacts')
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw notFound('Contact not found');
    // After the delete: its earlier events are anonymised by then (migration 0054); this one names
    // the id only, never the person.
    await recordEvent(trx, tenantId, { type: 'contact.deleted', contactId: id, payload: {} });
    return { id };
  });
}
