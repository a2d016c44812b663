import { sql, type Db, type ImportSkip } from '@lampstand/db';
import type { ImportField } from '../../schemas/contact-imports.js';
import type { NewEvent } from '../../schemas/events.js';
import type { CountryCode } from '../settings/church-settings.js';
import { changeConsent, type ConsentChannel } from './consent.js';
import { personOf } from '../events/record.js';
import { rowToCandidate, type Candidate } from './import-rows.js';
import type { CsvRow } from './import-csv.js';

/** What one batch of an import's rows does: which rows create, update or are skipped, and writing them. */

/** An import being worked on: what its steps need to know of it. */
export interface ImportJob {
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
export interface BatchPlan {
  skipped: ImportSkip[];
  toCreate: Candidate[];
  toUpdate: { id: number; c: Candidate }[];
}

/**
 * Each row becomes a skip, a new contact or an update of the church's contact with the same email
 * (any case), else the same phone; a second new row for the same person is skipped.
 */
export async function planBatch(trx: Db, job: ImportJob, headers: string[], batch: CsvRow[]): Promise<BatchPlan> {
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
export async function createContacts(
  trx: Db,
  job: ImportJob,
  toCreate: Candidate[],
  events: NewEvent[],
): Promise<number[]> {
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
export async function updateContacts(
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
export async function addToList(
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
