import { describe, expect, it } from 'vitest';
import { ownerDb, sql, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { lockWaiters } from '@lampstand/db/test/lock-waiters';
import { createContactSchema } from '../../schemas/contacts.js';
import { registerUser } from '../auth/register-user.js';
import { addChild, listChildren } from './children.js';
import { setConsent, consentHistory } from './consent.js';
import { createContact, getContact } from './contacts.js';
import { addFamilyLink, listFamily } from './family.js';
import { addContactToList, createContactList, listsOfContact } from './lists.js';
import { findDuplicateContacts, mergeContacts } from './merge.js';

const { db } = await freshDatabase();
const register = (name: string) =>
  registerUser(db, { username: name, password: 'secret12', churchName: name, email: `${name}@example.org` });
const grace = (await register('grace')).id;
const hope = (await register('hope')).id;

let n = 0;
async function contact(tenantId: number, overrides: Record<string, unknown> = {}) {
  n++;
  return createContact(
    db,
    tenantId,
    createContactSchema.parse({
      firstName: `Mary${n}`,
      lastName: 'Smith',
      email: `mary${n}@example.org`,
      phone: `0412 000 ${String(n).padStart(3, '0')}`,
      ...overrides,
    }),
  );
}

/** A monthly recurring gift of `donor`'s (written as the tables' owner). */
function recurringGift(donor: { id: number; email: string | null }) {
  return ownerDb(db)
    .insertInto('giftSchedules')
    .values({
      userId: grace,
      contactId: donor.id,
      donorName: 'Mary Smith',
      donorEmail: donor.email!,
      frequency: 'monthly',
      startDate: '2026-01-01',
      nextDate: '2026-12-01',
      amountCents: 2500,
      manageToken: `m-${donor.id}`,
      idempotencyKey: `s-${donor.id}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Background work as it runs beside a merge: in a transaction, `lock` (the row the work holds), then,
 * once `go()` is called, a row that names the person written, which key-share locks the person's row
 * through its foreign key. Resolves `held` once `lock` has run.
 */
async function workHolding(lock: (trx: Db) => Promise<unknown>, personId: number) {
  let go!: () => void;
  const released = new Promise<void>((r) => (go = r));
  let locked!: () => void;
  const held = new Promise<void>((r) => (locked = r));
  const done = db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await released;
    await sql`select 1 from contacts where id = ${personId} for key share`.execute(trx);
  });
  await held;
  return { go, done };
}

/**
 * Merges `other` into `keep` while `work` holds its row, and lets the work go on once the merge
 * waits for it (released whatever the wait shows: a transaction left open would hold the file's
 * other tests back). Without the merge taking that row first, the two deadlock (40P01).
 */
async function mergeBeside(work: { go: () => void; done: Promise<void> }, keepId: number, otherId: number) {
  const merged = mergeContacts(db, grace, { id: keepId, otherId, mergedBy: 'staff' });
  try {
    await expect.poll(() => lockWaiters(db), { timeout: 15_000 }).toBe(1);
  } finally {
    work.go();
    await work.done;
  }
  return merged;
}

describe('findDuplicateContacts', () => {
  it('finds the same email in any case and the same phone written another way, in this church only', async () => {
    const a = await contact(grace, { email: 'Ruth@Example.org', phone: '0499 111 222' });
    await contact(hope, { email: 'ruth@example.org', phone: '0499 111 222' });
    const byEmail = await findDuplicateContacts(db, grace, { email: ' ruth@EXAMPLE.org ' });
    expect(byEmail.map((d) => [d.id, d.matchedOn])).toEqual([[a.id, ['email']]]);
    const byPhone = await findDuplicateContacts(db, grace, { phone: '+61 499 111 222', countryCode: '+61' });
    expect(byPhone.map((d) => [d.id, d.matchedOn])).toEqual([[a.id, ['phone']]]);
    expect(
      (await findDuplicateContacts(db, grace, { email: 'ruth@example.org', phone: '499111222' }))[0]!.matchedOn,
    ).toEqual(['email', 'phone']);
    expect(await findDuplicateContacts(db, grace, { email: 'ruth@example.org', excludeId: a.id })).toEqual([]);
    expect(await findDuplicateContacts(db, grace, { phone: '0499 111 222', countryCode: '+44' })).toEqual([]);
    expect(await findDuplicateContacts(db, grace, {})).toEqual([]);
  });
});

describe('mergeContacts', () => {
  it('moves lists, family links, children and consent history onto the kept contact, and logs it', async () => {
    const keep = await contact(grace, { metadata: { notes: 'Sings alto' } });
    // Imported contacts may have no phone: the merge fills it from the other contact.
    await db.updateTable('contacts').set({ phone: null, phoneE164: null }).where('id', '=', keep.id).execute();
    const other = await contact(grace, {
      phone: '(202) 555-0143',
      tags: ['choir'],
      metadata: {
        countryCode: '+1',
        isChurchMember: true,
        isServiceStaff: true,
        staffRole: 'elder',
        notes: 'Prefers email',
      },
    });
    const spouse = await contact(grace);
    const sharedSibling = await contact(grace);
    const choir = await createContactList(db, grace, { name: 'Choir', type: 'both' });
    const youth = await createContactList(db, grace, { name: 'Youth', type: 'both' });
    await addContactToList(db, grace, { listId: choir.id, contactId: keep.id });
    await addContactToList(db, grace, { listId: choir.id, contactId: other.id });
    await addContactToList(db, grace, { listId: youth.id, contactId: other.id });
    await addFamilyLink(db, grace, { contactId: other.id, relatedContactId: spouse.id, relationship: 'spouse' });
    await addFamilyLink(db, grace, { contactId: other.id, relatedContactId: keep.id, relationship: 'sibling' });
    await addFamilyLink(db, grace, { contactId: keep.id, relatedContactId: sharedSibling.id, relationship: 'sibling' });
    await addFamilyLink(db, grace, {
      contactId: sharedSibling.id,
      relatedContactId: other.id,
      relationship: 'sibling',
    });
    await addChild(db, grace, { parentContactId: other.id, name: 'Sam' });
    await setConsent(db, grace, { contactId: other.id, channel: 'sms', status: 'unsubscribed', source: 'sms-keyword' });

    const result = await mergeContacts(db, grace, { id: keep.id, otherId: other.id, mergedBy: 'staff' });

    expect(result.mergedContactId).toBe(other.id);
    expect(result.moved).toMatchObject({ lists: 1, familyLinks: 1, children: 1, consentEvents: 1 });
    await expect(getContact(db, grace, other.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const kept = await getContact(db, grace, keep.id);
    expect(kept).toMatchObject({
      email: keep.email,
      phone: '(202) 555-0143',
      phoneE164: '+12025550143',
      tags: ['choir'],
      metadata: {
        countryCode: '+1',
        isChurchMember: true,
        isServiceStaff: true,
        staffRole: 'elder',
        notes: 'Sings alto\n\nPrefers email',
      },
      consent: { email: { status: 'subscribed' }, sms: { status: 'unsubscribed', source: 'merge' } },
    });
    expect((await listsOfContact(db, grace, keep.id)).map((l) => l.name).sort()).toEqual(['Choir', 'Youth']);
    const family = await listFamily(db, grace, keep.id);
    expect(family.map((f) => f.contact.id).sort()).toEqual([spouse.id, sharedSibling.id].sort());
    expect((await listChildren(db, grace, keep.id)).map((c) => c.name)).toEqual(['Sam']);
    const history = await consentHistory(db, grace, keep.id);
    expect(history.map((e) => [e.channel, e.status, e.source])).toEqual([
      ['sms', 'unsubscribed', 'merge'],
      ['sms', 'unsubscribed', 'sms-keyword'],
    ]);

    const log = await db.selectFrom('contactMerges').selectAll().where('keptContactId', '=', keep.id).execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ userId: grace, mergedContactId: other.id, mergedBy: 'staff' });
    expect(log[0]!.mergedContact).toMatchObject({ id: other.id, email: other.email, firstName: other.firstName });
    // The log keeps every table's count too (what `carryOver` moved), beside the answer's.
    expect(log[0]!.moved).toEqual({
      ...result.moved,
      carried: expect.objectContaining({ gifts: 0, groupMembers: 0 }),
    });
  });

  it('carries their gifts, recurring gifts, groups, attendance and outside ids; a shared group stays once, led if either led', async () => {
    const keep = await contact(grace);
    const other = await contact(grace);
    const owner = ownerDb(db);
    const tenant = { userId: grace };
    const gift = await owner
      .insertInto('gifts')
      .values({
        ...tenant,
        contactId: other.id,
        amountCents: 5000,
        idempotencyKey: `g-${other.id}`,
        receiptToken: `r-${other.id}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recurringGift(other);
    const [choir, youth] = await owner
      .insertInto('groups')
      .values([
        { ...tenant, name: 'Choir' },
        { ...tenant, name: 'Youth' },
      ])
      .returning('id')
      .execute();
    // Both in the choir (the kept contact's membership stays, once); only the other in youth.
    await owner
      .insertInto('groupMembers')
      .values([
        { ...tenant, groupId: choir!.id, contactId: keep.id },
        { ...tenant, groupId: choir!.id, contactId: other.id, role: 'leader' },
        { ...tenant, groupId: youth!.id, contactId: other.id },
      ])
      .execute();
    const meeting = await owner
      .insertInto('groupMeetings')
      .values({ ...tenant, groupId: youth!.id, meetsOn: '2026-11-20' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await owner
      .insertInto('groupAttendance')
      .values({ ...tenant, meetingId: meeting.id, contactId: other.id })
      .execute();
    await owner
      .insertInto('contactExternalIds')
      .values({ ...tenant, contactId: other.id, source: 'planning_center', externalId: `pc-${other.id}` })
      .execute();

    const result = await mergeContacts(db, grace, { id: keep.id, otherId: other.id, mergedBy: 'staff' });
    expect(result.moved).toMatchObject({ gifts: 1, recurringGifts: 1, groups: 1, checkIns: 0 });
    const of = async (table: 'gifts' | 'giftSchedules' | 'groupAttendance' | 'contactExternalIds') =>
      (await owner.selectFrom(table).select('contactId').where('userId', '=', grace).execute()).map((r) => r.contactId);
    expect(
      (await owner.selectFrom('gifts').select('contactId').where('id', '=', gift.id).executeTakeFirstOrThrow())
        .contactId,
    ).toBe(keep.id);
    expect(await of('giftSchedules')).toEqual([keep.id]);
    expect(await of('groupAttendance')).toEqual([keep.id]);
    expect(await of('contactExternalIds')).toEqual([keep.id]);
    const members = await owner
      .selectFrom('groupMembers')
      .select(['groupId', 'contactId', 'role'])
      .where('userId', '=', grace)
      .orderBy('groupId')
      .execute();
    expect(members).toEqual([
      // The other led the choir: the kept membership leads it now.
      { groupId: choir!.id, contactId: keep.id, role: 'leader' },
      { groupId: youth!.id, contactId: keep.id, role: 'member' },
    ]);
  });

  it('waits for a recurring gift being charged instead of deadlocking with it', async () => {
    const keep = await contact(grace);
    const other = await contact(grace);
    const schedule = await recurringGift(other);
    // A charge as the recurring-gifts job makes it: the schedule locked, then its gift written.
    const charge = await workHolding(
      (trx) => trx.selectFrom('giftSchedules').select('id').where('id', '=', schedule.id).forUpdate().execute(),
      other.id,
    );
    expect((await mergeBeside(charge, keep.id, other.id)).moved.recurringGifts).toBe(1);
  });

  it('waits for a text reply being written instead of deadlocking with it', async () => {
    const keep = await contact(grace);
    const other = await contact(grace);
    const conversation = await ownerDb(db)
      .insertInto('conversations')
      .values({ userId: grace, contactId: other.id, phoneE164: `+61499${String(other.id).padStart(6, '0')}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A reply as sendReply writes it: the conversation locked, then its delivery written.
    const reply = await workHolding(
      (trx) => trx.selectFrom('conversations').select('id').where('id', '=', conversation.id).forUpdate().execute(),
      other.id,
    );
    await mergeBeside(reply, keep.id, other.id);
    const moved = await db.selectFrom('conversations').select('contactId').where('id', '=', conversation.id).execute();
    expect(moved).toEqual([{ contactId: keep.id }]);
  });

  it("refuses the same contact twice and another church's contact, changing nothing", async () => {
    const mine = await contact(grace);
    const theirs = await contact(hope);
    const attempt = (tenantId: number, id: number, otherId: number) =>
      mergeContacts(db, tenantId, { id, otherId, mergedBy: 'staff' });
    await expect(attempt(grace, mine.id, mine.id)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(attempt(grace, mine.id, theirs.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(attempt(hope, mine.id, theirs.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await getContact(db, hope, theirs.id)).id).toBe(theirs.id);
    expect((await getContact(db, grace, mine.id)).id).toBe(mine.id);
  });
});
