import { sql, type Db } from '@lampstand/db';
import type { ImportPolicy, PolicyField } from '../../schemas/imports.js';
import type { PersonRow } from './read.js';
import { lowerCased, nameKey } from './values.js';

/**
 * Finding a file's people among the church's contacts — by the source's id, then email, then
 * phone, then name and birth date — and what the file would change for each, by the per-field
 * policy (fill empty only unless staff chose otherwise).
 */

export interface Ours {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  dateOfBirth: string | null;
  notes: string | null;
  hasExternalId: boolean;
}

/** A child of a household with an adult is one of the adult's children, not a contact. */
export const isChildOfHousehold = (p: PersonRow, withAdult: Set<string>) =>
  p.child && p.households.some((h) => withAdult.has(h.id));

export function householdsWithAdults(all: PersonRow[]): Set<string> {
  return new Set(all.filter((p) => !p.child).flatMap((p) => p.households.map((h) => h.id)));
}

/** Values that one person of the file has alone (two people sharing an email match by it neither). */
function uniqueValues(values: (string | null)[]): Set<string> {
  const seen = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v) seen.set(v, (seen.get(v) ?? 0) + 1);
  }
  const unique = new Set<string>();
  seen.forEach((n, v) => n === 1 && unique.add(v));
  return unique;
}

/** A person's email lower-cased (undefined without one). */
const lowerEmail = (p: PersonRow) => (p.email != null ? lowerCased(p.email) : undefined);

/** The values `of` the people, each once, in the order first met (no array a person). */
function distinct(people: PersonRow[], of: (p: PersonRow) => string | null): string[] {
  const values = new Set<string>();
  for (let i = 0; i < people.length; i++) {
    const v = of(people[i]!);
    if (v) values.add(v);
  }
  return [...values];
}

/** Each person's contact (or null: new), a contact matched once at most. */
export async function matchPeople(
  db: Db,
  tenantId: number,
  system: string,
  people: PersonRow[],
  /** The whole file's people, when `people` is one batch of it (an email two of them share matches neither). */
  all: PersonRow[] = people,
): Promise<(Ours | null)[]> {
  // Two statements, whatever the file's size: its ids, then every contact that any of its ids,
  // emails, phones or birth dates could match, each once (one array a kind, not a list of
  // parameters per thousand values: a 5,000-person file took 18–24 statements, and a contact
  // matched several ways came back once per way).
  const byExt = new Map<string, number>();
  const ids = distinct(people, (p) => p.externalId);
  if (ids.length) {
    const rows = await db
      .selectFrom('contactExternalIds')
      .select(['contactId', 'externalId'])
      .where('userId', '=', tenantId)
      .where('source', '=', system)
      .where(sql<boolean>`external_id = any(${ids}::text[])`)
      .execute();
    for (const r of rows) byExt.set(r.externalId, r.contactId);
  }
  const emails = uniqueValues(all.map((p) => lowerEmail(p) ?? null));
  const phones = uniqueValues(all.map((p) => p.phoneE164));
  const mine = (set: Set<string>, values: (string | null | undefined)[]) =>
    [...new Set(values)].filter((v): v is string => !!v && set.has(v));
  const linked = [...new Set(byExt.values())];
  const theirEmails = mine(
    emails,
    people.map((p) => lowerEmail(p)),
  );
  const theirPhones = mine(
    phones,
    people.map((p) => p.phoneE164),
  );
  const births = distinct(people, (p) => p.birthDate);
  const found = new Map<number, Ours>();
  const byEmail = new Map<string, number>();
  const byPhone = new Map<string, number>();
  const byName = new Map<string, number>();
  if (linked.length || theirEmails.length || theirPhones.length || births.length) {
    const rows = await db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName', 'email', 'phone', 'phoneE164', 'dateOfBirth', 'metadata'])
      .where('userId', '=', tenantId)
      .where(
        sql<boolean>`(id = any(${linked}::int[]) or email_lower = any(${theirEmails}::text[])
          or phone_e164 = any(${theirPhones}::text[]) or date_of_birth = any(${births}::date[]))`,
      )
      // Where two contacts share an email, a phone or a name and birth date, the one the file's id
      // names comes first, then one found by email, then by phone, each kind by id.
      .orderBy(
        sql`case when id = any(${linked}::int[]) then 0 when email_lower = any(${theirEmails}::text[]) then 1
          when phone_e164 = any(${theirPhones}::text[]) then 2 else 3 end`,
      )
      .orderBy('id')
      .execute();
    for (const r of rows) {
      found.set(r.id, {
        id: r.id,
        firstName: r.firstName,
        lastName: r.lastName,
        email: r.email,
        phone: r.phone,
        phoneE164: r.phoneE164,
        dateOfBirth: r.dateOfBirth,
        notes: (r.metadata as { notes?: string | null }).notes ?? null,
        hasExternalId: false,
      });
      if (r.email && !byEmail.has(r.email.toLowerCase())) byEmail.set(r.email.toLowerCase(), r.id);
      if (r.phoneE164 && !byPhone.has(r.phoneE164)) byPhone.set(r.phoneE164, r.id);
      if (r.dateOfBirth) {
        const k = `${nameKey(r.firstName, r.lastName)}|${r.dateOfBirth}`;
        if (!byName.has(k)) byName.set(k, r.id);
      }
    }
  }

  const used = new Set<number>();
  return people.map((p) => {
    const candidates = [
      p.externalId ? byExt.get(p.externalId) : undefined,
      p.email && emails.has(lowerCased(p.email)) ? byEmail.get(lowerCased(p.email)) : undefined,
      p.phoneE164 && phones.has(p.phoneE164) ? byPhone.get(p.phoneE164) : undefined,
      p.birthDate ? byName.get(`${nameKey(p.firstName, p.lastName)}|${p.birthDate}`) : undefined,
    ];
    const id = candidates.find((c) => c !== undefined && !used.has(c));
    if (id === undefined) return null;
    used.add(id);
    const ours = found.get(id)!;
    return { ...ours, hasExternalId: id === candidates[0] };
  });
}

export type FieldChanges = Partial<{
  firstName: string;
  lastName: string;
  email: string;
  phone: { phone: string; phoneE164: string | null };
  birthDate: string;
  notes: string;
}>;

/** What the file writes on a matched person, field by field, under the policy. */
export function changesFor(p: PersonRow, ours: Ours, policy: ImportPolicy): FieldChanges {
  const out: FieldChanges = {};
  const decide = (field: PolicyField, theirs: string | null, current: string | null) => {
    const rule = policy[field] ?? 'fill';
    if (!theirs || rule === 'keep') return false;
    if (rule === 'fill') return !current;
    return theirs !== current;
  };
  if (decide('firstName', p.firstName, ours.firstName)) out.firstName = p.firstName;
  if (decide('lastName', p.lastName, ours.lastName)) out.lastName = p.lastName;
  if (decide('email', p.email, ours.email) && lowerEmail(p) !== ours.email?.toLowerCase()) out.email = p.email!;
  if (decide('phone', p.phone, ours.phone) && (p.phoneE164 === null || p.phoneE164 !== ours.phoneE164))
    out.phone = { phone: p.phone!, phoneE164: p.phoneE164 };
  if (decide('birthDate', p.birthDate, ours.dateOfBirth)) out.birthDate = p.birthDate!;
  // Notes from the file are added once, never replacing what the church wrote.
  if (p.notes && !(ours.notes ?? '').includes(p.notes)) out.notes = ours.notes ? `${ours.notes}\n${p.notes}` : p.notes;
  return out;
}
