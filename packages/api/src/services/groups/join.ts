import { sql, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound, tooManyRequests } from '../../errors.js';
import { askToJoinSchema } from '../../schemas/groups-people.js';
import { escapeHtml } from '../../render/html.js';
import { toE164 } from '../contacts/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { personOf, PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import { actingAs } from '../events/actor.js';
import { splitName } from '../landing-pages/signups.js';
import { queuePortalMessage } from '../portal/messages.js';
import { findChurchRow } from '../church-rows.js';
import { addMembers } from './members.js';

// Asking to join a group from the public finder, and the leaders' (or staff's) answer. An 'open'
// group with room takes the person at once; a 'request' group, or a full one, records a request;
// a 'closed' group refuses. The person is found by email among the church's contacts or added
// (not subscribed to anything), and gets a confirmation email through the one delivery engine
// (a portal message: transactional, asked for by the person).

const GROUP_MISSING = 'Group not found';
const PER_EMAIL_PER_HOUR = 5;

export interface JoinDeps {
  db: Db;
  /** Starts the portal messages' sender ('portal-deliver'). */
  jobs: { send(name: 'portal-deliver', data: { userId: number }): Promise<unknown> };
}

export type JoinOutcome = 'joined' | 'requested';

export async function askToJoin(
  deps: JoinDeps,
  input: { tenantId: number; churchName: string; groupId: number; form: unknown },
): Promise<{ outcome: JoinOutcome; groupName: string }> {
  const { db } = deps;
  const { tenantId } = input;
  const form = askToJoinSchema.parse(input.form);
  const email = form.email.toLowerCase();
  const recent = await db
    .selectFrom('groupJoinRequests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', tenantId)
    .where(sql`lower(email)`, '=', email)
    .where('createdAt', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= PER_EMAIL_PER_HOUR)
    throw tooManyRequests('Too many requests from this address. Please try again later.');
  const countryCode = await churchCountryCode(db, tenantId);

  const result = await actingAs(db, PUBLIC_ACTOR)
    .transaction()
    .execute(async (trx) => {
      const group = await trx
        .selectFrom('groups')
        .select(['id', 'name', 'joinMode', 'capacity'])
        .where('id', '=', input.groupId)
        .where('userId', '=', tenantId)
        .where('archivedAt', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!group) throw notFound(GROUP_MISSING);
      if (group.joinMode === 'closed')
        throw badRequest('This group is not taking new members. Please ask the church about another group.', 'group');
      let contact = await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email', 'phone'])
        .where('userId', '=', tenantId)
        .where('emailLower', '=', email)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      const phone = form.phone ?? null;
      if (!contact) {
        contact = await trx
          .insertInto('contacts')
          .values({
            userId: tenantId,
            ...splitName(form.name),
            email,
            phone,
            phoneE164: toE164(phone, countryCode),
            tags: ['group-finder'],
            metadata: JSON.stringify({ countryCode }),
            emailConsent: 'unsubscribed',
            smsConsent: 'unsubscribed',
          })
          .returning(['id', 'firstName', 'lastName', 'email', 'phone'])
          .executeTakeFirstOrThrow();
        await recordEvents(trx, tenantId, [
          { type: 'contact.created', contactId: contact.id, payload: { person: personOf(contact), via: 'signup' } },
        ]);
      }
      const count = await trx
        .selectFrom('groupMembers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('groupId', '=', group.id)
        .where('leftOn', 'is', null)
        .executeTakeFirstOrThrow();
      const member = await trx
        .selectFrom('groupMembers')
        .select('id')
        .where('groupId', '=', group.id)
        .where('contactId', '=', contact.id)
        .where('leftOn', 'is', null)
        .executeTakeFirst();
      const full = group.capacity !== null && Number(count.n) >= group.capacity;
      const joinNow = !member && group.joinMode === 'open' && !full;
      const request = await trx
        .insertInto('groupJoinRequests')
        .values({
          userId: tenantId,
          groupId: group.id,
          contactId: contact.id,
          name: form.name,
          email,
          phone,
          note: form.note ?? null,
          status: joinNow || member ? 'approved' : 'pending',
          decidedAt: joinNow || member ? new Date() : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (joinNow)
        await addMembers(trx, tenantId, { id: group.id, contactIds: [contact.id], role: 'member' }, { via: 'finder' });
      else if (!member)
        await recordEvents(trx, tenantId, [
          {
            type: 'group.join_requested',
            contactId: contact.id,
            payload: { person: personOf(contact), group: { id: group.id, name: group.name }, requestId: request.id },
          },
        ]);
      const outcome: JoinOutcome = joinNow || member ? 'joined' : 'requested';
      await queuePortalMessage(trx, tenantId, confirmation(input.churchName, group.name, email, outcome, full));
      return { outcome, groupName: group.name };
    });
  await deps.jobs.send('portal-deliver', { userId: tenantId });
  return result;
}

function confirmation(church: string, group: string, address: string, outcome: JoinOutcome, full: boolean) {
  const lines =
    outcome === 'joined'
      ? [`You have joined ${group}.`, 'A leader will be in touch with the details of the next meeting.']
      : [
          `Thank you for asking to join ${group}.`,
          full
            ? 'The group is full at the moment; a leader will let you know when there is room.'
            : 'A leader will look at your request and be in touch.',
        ];
  const subject = outcome === 'joined' ? `You have joined ${group}` : `Your request to join ${group}`;
  const text = `${lines.join('\n\n')}\n\n${church}`;
  const html = `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p>${escapeHtml(church)}</p>`;
  return { channel: 'email' as const, address, subject, text, html };
}

export async function listJoinRequests(
  db: Db,
  tenantId: number,
  input: { id: number; status?: 'pending' | 'approved' | 'declined' },
) {
  await findChurchRow(db, tenantId, { table: 'groups', id: input.id, missing: GROUP_MISSING, columns: ['id'] });
  let q = db
    .selectFrom('groupJoinRequests')
    .select(['id', 'groupId', 'contactId', 'name', 'email', 'phone', 'note', 'status', 'createdAt', 'decidedAt'])
    .where('userId', '=', tenantId)
    .where('groupId', '=', input.id);
  q = q.where('status', '=', input.status ?? 'pending');
  return q.orderBy('createdAt').orderBy('id').limit(500).execute();
}

/** Approve (the person joins; 409 when the group is full) or decline a pending request. */
export async function decideJoinRequest(
  db: Db,
  tenantId: number,
  input: { id: number; requestId: number; decision: 'approve' | 'decline' },
) {
  return db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom('groupJoinRequests')
      .select(['id', 'contactId', 'status'])
      .where('id', '=', input.requestId)
      .where('groupId', '=', input.id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!request) throw notFound('Request not found');
    if (request.status !== 'pending') throw conflict(`This request was already ${request.status}`, 'requestId');
    const decided = await trx
      .updateTable('groupJoinRequests')
      .set({ status: input.decision === 'approve' ? 'approved' : 'declined', decidedAt: new Date() })
      .where('id', '=', request.id)
      .returning(['id', 'groupId', 'contactId', 'name', 'email', 'phone', 'note', 'status', 'createdAt', 'decidedAt'])
      .executeTakeFirstOrThrow();
    if (input.decision === 'approve') {
      if (!request.contactId) throw conflict('The person of this request was deleted', 'requestId');
      await addMembers(
        trx,
        tenantId,
        { id: input.id, contactIds: [request.contactId], role: 'member' },
        { via: 'request' },
      );
    }
    return decided;
  });
}
