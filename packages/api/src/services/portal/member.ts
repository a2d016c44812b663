import { tenantDb, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { RELATIONSHIPS } from '../../schemas/contacts.js';
import { type ADDRESS_FIELDS } from '../../schemas/portal.js';
import { setConsent } from '../contacts/consent.js';
import { listFamily } from '../contacts/family.js';
import { listChildren } from '../contacts/children.js';
import { personOf, recordEvents } from '../events/record.js';
import { actingAs, portalActor } from '../events/actor.js';
import type { NewEvent } from '../../schemas/events.js';
import type { PortalSession } from './sessions.js';

/**
 * What a signed-in member sees: only the contacts in their session, read through the church's
 * row-level security. Any other id answers 'not found', the same as an id that does not exist.
 */

export interface PortalPerson {
  id: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  dateOfBirth: string | null;
  emailConsent: 'subscribed' | 'unsubscribed' | null;
  smsConsent: 'subscribed' | 'unsubscribed' | null;
}

export const personName = (p: { firstName: string; lastName: string; email?: string | null }) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || p.email || 'You';

export async function portalPeople(db: Db, s: PortalSession): Promise<PortalPerson[]> {
  if (s.contactIds.length === 0) return [];
  const rows = await tenantDb(db, s.userId)
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phone', 'phoneE164', 'metadata', 'dateOfBirth'])
    .select(['emailConsent', 'smsConsent'])
    .where('userId', '=', s.userId)
    .where('id', 'in', s.contactIds)
    .orderBy('id')
    .execute();
  const part = (m: (typeof rows)[number]['metadata'], key: (typeof ADDRESS_FIELDS)[number]) => {
    const v = (m as Record<string, unknown> | null)?.[key];
    return typeof v === 'string' && v ? v : null;
  };
  return rows.map(({ metadata, ...r }) => ({
    ...r,
    address: part(metadata, 'address'),
    city: part(metadata, 'city'),
    state: part(metadata, 'state'),
    postalCode: part(metadata, 'postalCode'),
    country: part(metadata, 'country'),
  }));
}

/** One person of the session, or a 404. */
export async function portalPerson(db: Db, s: PortalSession, contactId: number): Promise<PortalPerson> {
  if (!s.contactIds.includes(contactId)) throw notFound('Not found');
  const [p] = (await portalPeople(db, s)).filter((x) => x.id === contactId);
  if (!p) throw notFound('Not found');
  return p;
}

export interface PortalList {
  id: number;
  name: string;
  description: string;
  member: boolean;
}

/** The church's public lists, with whether this person is on each. */
export async function portalLists(db: Db, s: PortalSession, contactId: number): Promise<PortalList[]> {
  const rows = await tenantDb(db, s.userId)
    .selectFrom('contactLists as l')
    .leftJoin('contactsInLists as m', (j) => j.onRef('m.listId', '=', 'l.id').on('m.contactId', '=', contactId))
    .select(['l.id', 'l.name', 'l.publicDescription', 'm.contactId'])
    .where('l.userId', '=', s.userId)
    .where('l.isPublic', '=', true)
    .orderBy('l.name')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, description: r.publicDescription, member: r.contactId !== null }));
}

export interface SubscriptionChoice {
  email: boolean;
  sms: boolean;
  /** The public lists to be on; every other public list is left. */
  listIds: number[];
}

/**
 * Subscriptions: email and SMS consent (through setConsent, source 'portal', so the consent
 * history shows it) and the public lists, each joined or left with its event.
 */
export async function setPortalSubscriptions(
  db: Db,
  s: PortalSession,
  contactId: number,
  choice: SubscriptionChoice,
): Promise<void> {
  const person = await portalPerson(db, s, contactId);
  const lists = await portalLists(db, s, contactId);
  const tdb = actingAs(tenantDb(db, s.userId), portalActor(contactId));
  await tdb.transaction().execute(async (trx) => {
    for (const channel of ['email', 'sms'] as const) {
      const want = choice[channel] ? 'subscribed' : 'unsubscribed';
      const has = channel === 'email' ? person.emailConsent : person.smsConsent;
      if ((has ?? 'unsubscribed') === want) continue;
      await setConsent(trx, s.userId, { contactId, channel, status: want, source: 'portal' });
    }
    const events: NewEvent[] = [];
    for (const list of lists) {
      const want = choice.listIds.includes(list.id);
      if (want === list.member) continue;
      if (want)
        await trx
          .insertInto('contactsInLists')
          .values({ userId: s.userId, listId: list.id, contactId })
          .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
          .execute();
      else
        await trx
          .deleteFrom('contactsInLists')
          .where('listId', '=', list.id)
          .where('contactId', '=', contactId)
          .where('userId', '=', s.userId)
          .execute();
      events.push({
        type: want ? 'list.member_added' : 'list.member_removed',
        contactId,
        payload: { person: personOf(person), list: { id: list.id, name: list.name } },
      });
    }
    await recordEvents(trx, s.userId, events);
  });
}

/** 'Unsubscribe from everything': one press, email and SMS off and every public list left. */
export function unsubscribeEverything(db: Db, s: PortalSession, contactId: number): Promise<void> {
  return setPortalSubscriptions(db, s, contactId, { email: false, sms: false, listIds: [] });
}

export interface PortalHousehold {
  person: PortalPerson;
  family: { name: string; relationship: string }[];
  children: { name: string; group: string | null }[];
}

/** My household: the family members linked to each person (read-only) and their children. */
export async function portalHousehold(db: Db, s: PortalSession): Promise<PortalHousehold[]> {
  const tdb = tenantDb(db, s.userId);
  const people = await portalPeople(db, s);
  return Promise.all(
    people.map(async (person) => {
      const family = await listFamily(tdb, s.userId, person.id);
      const children = await listChildren(tdb, s.userId, person.id);
      return {
        person,
        family: family.map((f) => {
          // A stored 'parent' read from the link's other side is a Child, and the other way round.
          const r =
            f.isInverse && (f.relationship === 'parent' || f.relationship === 'child')
              ? f.relationship === 'parent'
                ? 'child'
                : 'parent'
              : f.relationship;
          return {
            name: personName(f.contact),
            relationship: RELATIONSHIPS.find((x) => x.value === r)?.label ?? 'Other Family',
          };
        }),
        children: children.map((c) => ({ name: c.name, group: c.group?.name ?? null })),
      };
    }),
  );
}
