import { sql, type Db } from '@lampstand/db';
import type { ImportPolicy } from '../../schemas/imports.js';
import type { NewEvent } from '../../schemas/events.js';
import { changeConsent, type ConsentChannel } from '../contacts/consent.js';
import { personOf } from '../events/record.js';
import type { PersonRow } from './read.js';
import { changesFor, isChildOfHousehold, matchPeople, type Ours } from './people.js';
import type { UndoLog } from './undo-log.js';

/** Writing one batch of a people file, then its households (families and children) at the end. */

export interface PeopleJob {
  tenantId: number;
  system: string;
  fileName: string;
  countryCode: string;
  policy: ImportPolicy;
  /** The whole file's people (matching reads it; households are made from it). */
  all: PersonRow[];
  /** Households with at least one adult: their children are children of that adult. */
  withAdult: Set<string>;
  /** What the import creates and changes, for its undo (flushed in each batch's transaction). */
  undo: UndoLog;
}

export interface PeopleCounts {
  created: number;
  updated: number;
  unchanged: number;
}

async function keepExternalId(trx: Db, job: PeopleJob, contactId: number, p: PersonRow) {
  if (!p.externalId) return;
  const made = await trx
    .insertInto('contactExternalIds')
    .values({ userId: job.tenantId, contactId, source: job.system, externalId: p.externalId })
    .onConflict((oc) => oc.columns(['userId', 'source', 'externalId']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) job.undo.created('contact_external_ids', made.id);
}

/** The consent the file states, per channel (null: it says nothing). */
const stated = (p: PersonRow): [ConsentChannel, boolean | null][] => [
  ['email', p.emailOptIn],
  ['sms', p.smsOptIn],
];

async function createPerson(trx: Db, job: PeopleJob, p: PersonRow, events: NewEvent[]): Promise<void> {
  const now = new Date();
  const status = (v: boolean | null) => (v === true ? 'subscribed' : 'unsubscribed');
  const { id } = await trx
    .insertInto('contacts')
    .values({
      userId: job.tenantId,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      phone: p.phone,
      phoneE164: p.phoneE164,
      dateOfBirth: p.birthDate,
      // Subscribed only where the source says the person opted in.
      emailConsent: status(p.emailOptIn),
      emailConsentAt: now,
      emailConsentSource: job.system,
      smsConsent: status(p.smsOptIn),
      smsConsentAt: now,
      smsConsentSource: job.system,
      metadata: JSON.stringify({
        countryCode: job.countryCode,
        isChurchMember: false,
        isBaptised: false,
        isSeeker: false,
        isServiceStaff: false,
        ...p.address,
        ...(p.notes ? { notes: p.notes } : {}),
      }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  job.undo.created('contacts', id);
  const history = await trx
    .insertInto('contactConsentEvents')
    .values(
      stated(p).map(([channel, v]) => ({
        userId: job.tenantId,
        contactId: id,
        channel,
        status: status(v),
        source: job.system,
        note: v === null ? `${job.fileName}: not marked as opted in` : `${job.fileName}: as ${job.system} states it`,
        at: now,
      })),
    )
    .returning('id')
    .execute();
  for (const h of history) job.undo.created('contact_consent_events', h.id);
  await keepExternalId(trx, job, id, p);
  events.push({ type: 'contact.created', contactId: id, payload: { person: personOf(p), via: 'import' } });
}

async function updatePerson(trx: Db, job: PeopleJob, p: PersonRow, ours: Ours, events: NewEvent[]): Promise<boolean> {
  const c = changesFor(p, ours, job.policy);
  await keepExternalId(trx, job, ours.id, p);
  let changed = Object.keys(c).length > 0;
  if (changed) {
    const after = {
      ...(c.firstName ? { firstName: c.firstName } : {}),
      ...(c.lastName ? { lastName: c.lastName } : {}),
      ...(c.email ? { email: c.email } : {}),
      ...(c.phone ? c.phone : {}),
      ...(c.birthDate ? { dateOfBirth: c.birthDate } : {}),
    };
    await trx
      .updateTable('contacts')
      .set({
        updatedAt: new Date(),
        ...after,
        ...(c.notes ? { metadata: sql<string>`metadata || ${JSON.stringify({ notes: c.notes })}::jsonb` } : {}),
      })
      .where('id', '=', ours.id)
      .where('userId', '=', job.tenantId)
      .execute();
    const was = ours as unknown as Record<string, unknown>;
    const before = Object.fromEntries(Object.keys(after).map((k) => [k, was[k]]));
    job.undo.changed(
      'contacts',
      ours.id,
      c.notes ? { ...before, notes: ours.notes } : before,
      c.notes ? { ...after, notes: c.notes } : after,
    );
    const fields = Object.keys(c).map((k) => (k === 'birthDate' ? 'dateOfBirth' : k));
    events.push({ type: 'contact.updated', contactId: ours.id, payload: { person: personOf(p), changed: fields } });
  }
  for (const [channel, v] of stated(p)) {
    if (v === null) continue;
    const { event, written } = await changeConsent(trx, job.tenantId, {
      contactId: ours.id,
      channel,
      status: v ? 'subscribed' : 'unsubscribed',
      source: job.system,
      note: job.fileName,
    });
    if (written) {
      job.undo.changed('contacts', ours.id, written.before, written.after);
      job.undo.created('contact_consent_events', written.historyId);
    }
    if (event) {
      events.push(event);
      changed = true;
    }
  }
  return changed;
}

/** One batch of the file's people: each created, updated by the policy, or left as it is. */
export async function writePeople(
  trx: Db,
  job: PeopleJob,
  batch: PersonRow[],
  events: NewEvent[],
): Promise<PeopleCounts> {
  const counts: PeopleCounts = { created: 0, updated: 0, unchanged: 0 };
  const adults = batch.filter((p) => !isChildOfHousehold(p, job.withAdult));
  const matches = await matchPeople(trx, job.tenantId, job.system, adults, job.all);
  for (const [i, p] of adults.entries()) {
    const ours = matches[i];
    if (!ours) {
      await createPerson(trx, job, p, events);
      counts.created++;
    } else if (await updatePerson(trx, job, p, ours, events)) counts.updated++;
    else counts.unchanged++;
  }
  return counts;
}

/**
 * Households become families: the household's primary contact (else its first adult) is linked to
 * each other adult — as spouse where the source says so — and each child becomes that adult's
 * child with their birth date. Running it again adds nothing.
 */
export async function writeHouseholds(trx: Db, job: PeopleJob): Promise<void> {
  const adults = job.all.filter((p) => !isChildOfHousehold(p, job.withAdult));
  const matches = await matchPeople(trx, job.tenantId, job.system, adults, job.all);
  const contactOf = new Map<PersonRow, number>();
  for (const [i, p] of adults.entries()) {
    const ours = matches[i];
    if (ours) contactOf.set(p, ours.id);
  }
  const households = new Map<string, { adults: PersonRow[]; children: PersonRow[] }>();
  for (const p of job.all) {
    for (const h of p.households) {
      const entry = households.get(h.id) ?? { adults: [], children: [] };
      (contactOf.has(p) ? entry.adults : entry.children).push(p);
      households.set(h.id, entry);
    }
  }
  for (const [hid, h] of households) {
    const head = h.adults.find((p) => p.households.some((x) => x.id === hid && x.primary)) ?? h.adults[0];
    if (!head) continue;
    const headId = contactOf.get(head)!;
    for (const other of h.adults) {
      const otherId = contactOf.get(other)!;
      if (otherId === headId) continue;
      const role = other.households.find((x) => x.id === hid)?.role ?? '';
      const link = await trx
        .insertInto('contactFamilyLinks')
        .values({
          userId: job.tenantId,
          contact1Id: headId,
          contact2Id: otherId,
          relationship: /spouse|wife|husband/i.test(role)
            ? 'spouse'
            : /sibling|brother|sister/i.test(role)
              ? 'sibling'
              : 'other',
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (link) job.undo.created('contact_family_links', link.id);
    }
    for (const child of h.children) {
      const name = `${child.firstName} ${child.lastName}`.trim();
      const exists = await trx
        .selectFrom('contactChildren')
        .select('id')
        .where('userId', '=', job.tenantId)
        .where('parentContactId', '=', headId)
        .where(sql<boolean>`lower(name) = lower(${name})`)
        .executeTakeFirst();
      if (exists) continue;
      const made = await trx
        .insertInto('contactChildren')
        .values({ userId: job.tenantId, parentContactId: headId, name, dateOfBirth: child.birthDate })
        .returning('id')
        .executeTakeFirstOrThrow();
      job.undo.created('contact_children', made.id);
    }
  }
}
