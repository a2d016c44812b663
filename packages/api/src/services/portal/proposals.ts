import crypto from 'node:crypto';
import { sql, tenantDb, type Db } from '@lampstand/db';
import { badRequest } from '../../errors.js';
import { escapeHtml } from '../../render/html.js';
import {
  ADDRESS_FIELDS,
  PROPOSAL_FIELDS,
  portalDetailsSchema,
  type ProfileUpdate,
  type ProposalField,
} from '../../schemas/portal.js';
import type { EventActor } from '../../schemas/events.js';
import { updateContact } from '../contacts/contacts.js';
import { personOf, recordEvent } from '../events/record.js';
import { portalActor } from '../events/actor.js';
import { throttle } from '../rate-limit/buckets.js';
import { toE164 } from '../contacts/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { portalPerson } from './member.js';
import type { PortalSession } from './sessions.js';
import {
  newToken,
  PORTAL_LINK_MINUTES,
  portalPath,
  sha256,
  type PortalChurch,
  type PortalMailDeps,
} from './sign-in.js';
import { queuePortalMessage } from './messages.js';

const PER_PERSON_PER_HOUR = { limit: 10, windowSeconds: 3600 };
export const TOO_MANY_PROPOSALS = 'You have proposed many changes this hour. Please try again later.';
type Changes = Record<string, { from: string | null; to: string | null }>;

const codeHash = (proposalId: number, code: string) => sha256(`portal-proposal:${proposalId}:${code}`);

/** A new phone cannot be confirmed where no text can be sent. */
export const PHONE_NOT_CONFIRMABLE =
  'A new phone number is confirmed by a text, and this church cannot send texts yet. Please ask the church office to change it.';

/**
 * My details: the fields that differ from the contact become one proposal for staff to approve.
 * Each new channel is confirmed on itself: a new email by a link sent to it, a new phone by a code
 * texted to it; staff see the proposal only once every one of them is confirmed. 10 proposals an
 * hour a person.
 */
export async function proposeDetails(
  deps: PortalMailDeps,
  church: PortalChurch,
  s: PortalSession,
  contactId: number,
  input: unknown,
): Promise<{ id: number; confirm: { email: boolean; phone: boolean } }> {
  const person = await portalPerson(deps.db, s, contactId);
  const details = portalDetailsSchema.parse(input);
  const current: Record<ProposalField, string | null> = {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    phone: person.phone,
    address: person.address,
    city: person.city,
    state: person.state,
    postalCode: person.postalCode,
    country: person.country,
    dateOfBirth: person.dateOfBirth,
  };
  const changes: Changes = {};
  for (const f of PROPOSAL_FIELDS) {
    const to = details[f] || null;
    const from = current[f] || null;
    const same = f === 'email' ? (to ?? '').toLowerCase() === (from ?? '').toLowerCase() && to === from : to === from;
    if (!same) changes[f] = { from, to };
  }
  if (Object.keys(changes).length === 0) throw badRequest('Nothing has changed');
  await throttle(deps.db, `portal-proposal:${church.userId}:${contactId}`, PER_PERSON_PER_HOUR, TOO_MANY_PROPOSALS);

  const db = tenantDb(deps.db, church.userId);
  const phoneE164 = changes.phone?.to ? toE164(changes.phone.to, await churchCountryCode(db, church.userId)) : null;
  if (phoneE164 && !deps.canText) throw badRequest(PHONE_NOT_CONFIRMABLE, 'phone');
  const token = changes.email?.to ? newToken() : null;
  const code = phoneE164 ? String(crypto.randomInt(0, 1_000_000)).padStart(6, '0') : null;
  const confirm = { email: token !== null, phone: code !== null };

  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('profileUpdateProposals')
      .values({
        userId: church.userId,
        contactId,
        changes: JSON.stringify(changes),
        status: token || code ? 'unconfirmed' : 'pending',
        confirmTokenHash: token ? sha256(token) : null,
        confirmExpiresAt: token || code ? sql<Date>`now() + make_interval(mins => ${PORTAL_LINK_MINUTES})` : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (code)
      await trx
        .updateTable('profileUpdateProposals')
        .set({ phoneCodeHash: codeHash(row.id, code) })
        .where('id', '=', row.id)
        .execute();
    await recordEvent(
      trx,
      church.userId,
      {
        type: 'profile.update_proposed',
        contactId,
        payload: { person: personOf(person), proposalId: row.id, fields: Object.keys(changes) },
      },
      { actor: portalActor(contactId) },
    );
    if (token) {
      const link = `${deps.publicUrl}${portalPath(church.handle)}/confirm/${token}`;
      await queuePortalMessage(trx, church.userId, {
        channel: 'email',
        address: changes.email!.to!,
        subject: `Please confirm your new email address for ${church.churchName}`,
        html:
          `<p>Hello,</p><p>Please confirm that this is your new email address for ${escapeHtml(church.churchName)}. ` +
          `The link works for ${PORTAL_LINK_MINUTES} minutes:</p><p><a href="${escapeHtml(link)}">Confirm my email address</a></p>` +
          `<p>If you did not ask for it, ignore this email.</p>`,
        text: `Please confirm that this is your new email address for ${church.churchName}:\n${link}\n\nIf you did not ask for it, ignore this email.\n`,
      });
    }
    if (code && phoneE164)
      await queuePortalMessage(trx, church.userId, {
        channel: 'sms',
        address: phoneE164,
        text: `${code} is your code to confirm your new phone number for ${church.churchName}.`,
      });
    return row.id;
  });

  // Sent by the worker: the answer does not wait for SMTP or SMS.
  if (token || code) await deps.jobs.send('portal-deliver', { userId: church.userId });
  return { id, confirm };
}

/**
 * The proposal's status once one proof is used: 'pending' (to staff) when the other channel's proof
 * is used too or was never needed, else still 'unconfirmed'. Evaluated on the locked row, so two
 * confirmations at once cannot both leave it unconfirmed.
 */
const statusAfter = (other: 'confirm_token_hash' | 'phone_code_hash') =>
  sql<'pending' | 'unconfirmed'>`case when ${sql.ref(other)} is null then 'pending' else 'unconfirmed' end`;

/** The new email's link (pressed on its page): the proposal goes to staff once its phone is confirmed too. */
export async function confirmProposalEmail(db: Db, church: PortalChurch, token: string): Promise<boolean> {
  const row = await tenantDb(db, church.userId)
    .updateTable('profileUpdateProposals')
    .set({ status: statusAfter('phone_code_hash'), confirmTokenHash: null })
    .where('userId', '=', church.userId)
    .where('status', '=', 'unconfirmed')
    .where('confirmTokenHash', '=', sha256(token))
    .where('confirmExpiresAt', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** The new phone's code, typed on My details by a person of the session; its email confirmed too, to staff. */
export async function confirmProposalCode(
  db: Db,
  s: PortalSession,
  proposalId: number,
  code: string,
): Promise<boolean> {
  await throttle(
    db,
    `portal-proposal-code:${s.userId}:${proposalId}`,
    { limit: 5, windowSeconds: 900 },
    TOO_MANY_PROPOSALS,
  );
  const row = await tenantDb(db, s.userId)
    .updateTable('profileUpdateProposals')
    .set({ status: statusAfter('confirm_token_hash'), phoneCodeHash: null })
    .where('userId', '=', s.userId)
    .where('id', '=', proposalId)
    .where('contactId', 'in', s.contactIds.length ? s.contactIds : [-1])
    .where('status', '=', 'unconfirmed')
    .where('phoneCodeHash', '=', codeHash(proposalId, code))
    .where('confirmExpiresAt', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** A person's proposals still waiting (for the portal to say 'Waiting for the church to approve'). */
export async function openProposals(db: Db, s: PortalSession, contactId: number) {
  return tenantDb(db, s.userId)
    .selectFrom('profileUpdateProposals')
    .select(['id', 'status', 'changes'])
    .select((eb) => [
      eb('confirmTokenHash', 'is not', null).as('awaitingEmail'),
      eb('phoneCodeHash', 'is not', null).as('awaitingPhone'),
    ])
    .where('userId', '=', s.userId)
    .where('contactId', '=', contactId)
    .where('status', 'in', ['unconfirmed', 'pending'])
    .orderBy('id')
    .execute();
}

/** Staff: the queue of proposals waiting for a decision, oldest first. */
export async function listProfileUpdates(db: Db, tenantId: number): Promise<ProfileUpdate[]> {
  const rows = await db
    .selectFrom('profileUpdateProposals as p')
    .innerJoin('contacts as c', 'c.id', 'p.contactId')
    .select(['p.id', 'p.contactId', 'p.changes', 'p.createdAt', 'c.firstName', 'c.lastName', 'c.email'])
    .where('p.userId', '=', tenantId)
    .where('p.status', '=', 'pending')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    contactId: r.contactId,
    contactName: [r.firstName, r.lastName].filter(Boolean).join(' ') || r.email || 'Someone',
    changes: r.changes,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function countProfileUpdates(db: Db, tenantId: number): Promise<{ pending: number }> {
  const row = await db
    .selectFrom('profileUpdateProposals')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', tenantId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { pending: Number(row.n) };
}

async function pendingOf(db: Db, tenantId: number, ids: number[]) {
  return db
    .selectFrom('profileUpdateProposals')
    .select(['id', 'contactId', 'changes'])
    .where('userId', '=', tenantId)
    .where('status', '=', 'pending')
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

/** Mark one proposal decided and log it, in one transaction; false when someone decided it first. */
async function decide(
  db: Db,
  tenantId: number,
  p: { id: number; contactId: number; changes: Changes },
  approved: boolean,
  actor: EventActor,
) {
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('profileUpdateProposals')
      .set({
        status: approved ? 'approved' : 'rejected',
        decidedAt: new Date(),
        decidedBy: actor.kind === 'user' ? actor.id : null,
      })
      .where('id', '=', p.id)
      .where('userId', '=', tenantId)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!done) return false;
    const c = await trx
      .selectFrom('contacts')
      .select(['firstName', 'lastName', 'email', 'phone'])
      .where('id', '=', p.contactId)
      .executeTakeFirstOrThrow();
    await recordEvent(
      trx,
      tenantId,
      {
        type: approved ? 'profile.update_approved' : 'profile.update_rejected',
        contactId: p.contactId,
        // In the form's order (the stored changes keep none).
        payload: { person: personOf(c), proposalId: p.id, fields: PROPOSAL_FIELDS.filter((f) => f in p.changes) },
      },
      { actor },
    );
    return true;
  });
}

/** Approve: each proposal's new values go through the contacts' partial update, then it is logged. */
export async function approveProfileUpdates(db: Db, tenantId: number, ids: number[], actor: EventActor) {
  let decided = 0;
  for (const p of await pendingOf(db, tenantId, ids)) {
    const to = (f: ProposalField) => (f in p.changes ? { [f]: p.changes[f]!.to ?? '' } : {});
    const metadata = {
      ...Object.fromEntries(ADDRESS_FIELDS.filter((f) => f in p.changes).map((f) => [f, p.changes[f]!.to])),
      ...('dateOfBirth' in p.changes ? { dateOfBirth: p.changes.dateOfBirth.to } : {}),
    };
    await updateContact(db, tenantId, {
      id: p.contactId,
      ...to('firstName'),
      ...to('lastName'),
      ...to('email'),
      ...to('phone'),
      metadata,
      ifDuplicate: 'save',
    });
    if (await decide(db, tenantId, p, true, actor)) decided++;
  }
  return { decided };
}

export async function rejectProfileUpdates(db: Db, tenantId: number, ids: number[], actor: EventActor) {
  let decided = 0;
  for (const p of await pendingOf(db, tenantId, ids)) if (await decide(db, tenantId, p, false, actor)) decided++;
  return { decided };
}
