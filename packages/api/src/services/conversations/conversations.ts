import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type {
  Conversation,
  ConversationMessage,
  listConversationsInput,
  UpdateConversationInput,
} from '../../schemas/conversations.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { takeDailyAllowance } from '../delivery/daily-limit.js';
import { groupTexts } from '../groups/messages.js';
import { fillMergeTags } from '../email-campaigns/render.js';
import { createContact } from '../contacts/contacts.js';
import { optedOutSql } from './reply-channel.js';
import { preview } from './preview.js';

const MISSING = 'Conversation not found';

interface ConversationRow {
  id: number;
  phoneE164: string;
  contactId: number | null;
  name: string;
  status: 'open' | 'closed';
  assignedUserId: number | null;
  unreadCount: number;
  lastMessageAt: Date;
  lastMessagePreview: string;
  optedOut: boolean;
}

const toConversation = (r: ConversationRow): Conversation => ({
  id: r.id,
  phone: r.phoneE164,
  contactId: r.contactId,
  name: r.name,
  status: r.status,
  assignedUserId: r.assignedUserId,
  unread: Number(r.unreadCount),
  lastMessageAt: new Date(r.lastMessageAt).toISOString(),
  preview: r.lastMessagePreview,
  optedOut: r.optedOut,
});

/** The select of a conversation as the API shows it (alias `c`, contact `ct`). */
function selectConversations(db: Db, tenantId: number) {
  return db
    .selectFrom('conversations as c')
    .leftJoin('contacts as ct', 'ct.id', 'c.contactId')
    .select([
      'c.id',
      'c.phoneE164',
      'c.contactId',
      sql<string>`coalesce(nullif(trim(concat_ws(' ', ct.first_name, ct.last_name)), ''), 'Unknown')`.as('name'),
      'c.status',
      'c.assignedUserId',
      'c.unreadCount',
      'c.lastMessageAt',
      'c.lastMessagePreview',
      optedOutSql(sql.ref('c.user_id'), sql.ref('c.phone_e164')).as('optedOut'),
    ])
    .where('c.userId', '=', tenantId);
}

/** The church's conversations, newest first: search, open/closed, assigned to the asker. */
export async function listConversations(
  db: Db,
  tenantId: number,
  userId: number,
  input: z.output<typeof listConversationsInput>,
): Promise<{ conversations: Conversation[]; total: number; unreadTotal: number }> {
  let q = selectConversations(db, tenantId);
  if (input.status !== 'all') q = q.where('c.status', '=', input.status);
  if (input.assigned === 'me') q = q.where('c.assignedUserId', '=', userId);
  if (input.search) {
    const like = `%${input.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    const digits = input.search.replace(/[^\d]/g, '');
    q = q.where((eb) =>
      eb.or([
        eb(sql`concat_ws(' ', ct.first_name, ct.last_name)`, 'ilike', like),
        eb('c.lastMessagePreview', 'ilike', like),
        ...(digits.length >= 3 ? [eb('c.phoneE164', 'like', `%${digits}%`)] : []),
      ]),
    );
  }
  const [rows, counts] = await Promise.all([
    q
      .orderBy('c.lastMessageAt', 'desc')
      .orderBy('c.id', 'desc')
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize)
      .execute(),
    q
      .clearSelect()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const unread = await db
    .selectFrom('conversations')
    .select(sql<number>`coalesce(sum(unread_count), 0)::int`.as('n'))
    .where('userId', '=', tenantId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return { conversations: rows.map(toConversation), total: Number(counts.n), unreadTotal: Number(unread.n) };
}

export async function getConversation(db: Db, tenantId: number, input: { id: number }): Promise<Conversation> {
  const row = await selectConversations(db, tenantId).where('c.id', '=', input.id).executeTakeFirst();
  if (!row) throw notFound(MISSING);
  return toConversation(row);
}

/**
 * Change a conversation (only the fields sent): open/closed, who it is assigned to, read, and the
 * contact it belongs to (an existing contact of the church, or a new one made of the number).
 */
export async function updateConversation(
  db: Db,
  tenantId: number,
  input: UpdateConversationInput,
): Promise<Conversation> {
  const current = await getConversation(db, tenantId, { id: Number(input.id) });
  if (input.assignedUserId != null && Number(input.assignedUserId) !== tenantId)
    // Each church has one staff login today: it is the only user a conversation can be assigned to.
    throw badRequest('Assigned user must be a staff user of this church', 'assignedUserId');
  if (input.contactId != null && input.newContact)
    throw badRequest('Link to a contact or make a new one, not both', 'contactId');
  let contactId: number | undefined;
  if (input.contactId != null) {
    const contact = await db
      .selectFrom('contacts')
      .select('id')
      .where('id', '=', Number(input.contactId))
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!contact) throw notFound('Contact not found');
    contactId = contact.id;
  } else if (input.newContact) {
    const made = await createContact(db, tenantId, {
      firstName: input.newContact.firstName,
      lastName: input.newContact.lastName ?? '',
      email: '',
      phone: current.phone,
    });
    contactId = made.id;
  }
  await db
    .updateTable('conversations')
    .set({
      ...(input.status ? { status: input.status } : {}),
      ...(input.assignedUserId !== undefined
        ? { assignedUserId: input.assignedUserId === null ? null : Number(input.assignedUserId) }
        : {}),
      ...(input.read === true ? { unreadCount: 0 } : {}),
      ...(input.read === false ? { unreadCount: sql<number>`greatest(unread_count, 1)` } : {}),
      ...(contactId !== undefined ? { contactId } : {}),
      updatedAt: new Date(),
    })
    .where('id', '=', current.id)
    .where('userId', '=', tenantId)
    .execute();
  return getConversation(db, tenantId, { id: current.id });
}

/**
 * A thread's timeline, oldest first: the person's texts, the staff's replies (with their delivery
 * status) and the campaigns' and journeys' texts sent to the number, each with its merge tags filled
 * as sent (a journey's text from the step of the version the person was on).
 */
export async function listConversationMessages(
  db: Db,
  tenantId: number,
  input: { id: number },
): Promise<{ messages: ConversationMessage[] }> {
  const c = await getConversation(db, tenantId, input);
  const own = await db
    .selectFrom('conversationMessages as m')
    .leftJoin('deliveries as d', 'd.id', 'm.deliveryId')
    .select(['m.id', 'm.direction', 'm.body', 'm.keyword', 'm.createdAt', 'd.status'])
    .where('m.conversationId', '=', c.id)
    .where('m.userId', '=', tenantId)
    .orderBy('m.id', 'desc')
    .limit(500)
    .execute();
  const campaigns = await db
    .selectFrom('deliveries as d')
    .innerJoin('smsCampaigns as s', 's.id', 'd.campaignId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select(['d.id', 'd.status', 'd.sentAt', 'd.firstName', 'd.lastName', 's.name', 's.content', 'u.churchName'])
    .where('d.userId', '=', tenantId)
    .where('d.channel', '=', 'sms')
    .where('d.kind', '=', 'campaign')
    .where('d.address', '=', c.phone)
    .where('d.sentAt', 'is not', null)
    .orderBy('d.id', 'desc')
    .limit(200)
    .execute();
  const journeys = await journeyTexts(db, tenantId, c.phone);
  const groups = await groupTexts(db, tenantId, c.phone);
  // The person's texts and the staff's replies in the order they were recorded (a keyword's reply
  // is written after its text, though its time can read a millisecond earlier: two transactions'
  // clocks), the campaigns', journeys' and groups' texts merged in by time.
  const recorded: ConversationMessage[] = own
    .slice()
    .reverse()
    .map((m) => ({
      key: `${m.direction === 'inbound' ? 'in' : 'reply'}-${m.id}`,
      direction: m.direction,
      kind: m.direction === 'inbound' ? ('text' as const) : ('reply' as const),
      body: m.body,
      at: new Date(m.createdAt).toISOString(),
      keyword: m.keyword,
      status: m.direction === 'outbound' ? (m.status ?? 'pending') : null,
      campaignName: null,
      journeyName: null,
      groupName: null,
    }));
  const sent: ConversationMessage[] = [
    ...campaigns.map((d) => ({
      key: `campaign-${d.id}`,
      direction: 'outbound' as const,
      kind: 'campaign' as const,
      body: fillMergeTags(
        d.content,
        { firstName: d.firstName, lastName: d.lastName, churchName: d.churchName },
        { html: false },
      ),
      at: new Date(d.sentAt!).toISOString(),
      keyword: null,
      status: d.status,
      campaignName: d.name,
      journeyName: null,
      groupName: null,
    })),
    ...journeys,
    ...groups,
  ];
  sent.sort((a, b) => a.at.localeCompare(b.at) || a.key.localeCompare(b.key));
  return { messages: mergeByTime(recorded, sent) };
}

/** Two lists each in its own order, merged by time; at equal times (or out of order) `a`'s stay first. */
function mergeByTime(a: ConversationMessage[], b: ConversationMessage[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.at <= b[j]!.at)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** The journeys' texts sent to a number (deliveries of kind 'journey'), their step's body filled. */
async function journeyTexts(db: Db, tenantId: number, phone: string): Promise<ConversationMessage[]> {
  const { rows } = await sql<{
    id: number;
    status: string;
    sentAt: Date;
    firstName: string;
    lastName: string;
    name: string;
    body: string | null;
    churchName: string;
  }>`
    select d.id, d.status, d.sent_at, d.first_name, d.last_name, j.name, u.church_name,
      (select s->>'body' from jsonb_array_elements(v.definition->'steps') s where s->>'id' = d.journey_step_id) as body
    from deliveries d
    join journeys j on j.id = d.journey_id and j.user_id = d.user_id
    join journey_enrollments e on e.id = d.journey_enrollment_id
    join journey_versions v on v.journey_id = d.journey_id and v.version = e.version
    join users u on u.id = d.user_id
    where d.user_id = ${tenantId} and d.kind = 'journey' and d.channel = 'sms' and d.address = ${phone}
      and d.sent_at is not null
    order by d.id desc
    limit 200`.execute(db);
  return rows.map((d) => ({
    key: `journey-${d.id}`,
    direction: 'outbound' as const,
    kind: 'journey' as const,
    body: fillMergeTags(
      d.body ?? '',
      { firstName: d.firstName, lastName: d.lastName, churchName: d.churchName },
      { html: false },
    ),
    at: new Date(d.sentAt).toISOString(),
    keyword: null,
    status: d.status,
    campaignName: null,
    journeyName: d.name,
    groupName: null,
  }));
}

/**
 * Staff answer a conversation: in one transaction the reply becomes a delivery of
 * kind 'conversation-reply' of the one engine (refused while the person has texted STOP), counted
 * against the church's daily limit, and a message of the thread; answering marks the thread read.
 * Then the deliver job is queued; the engine sends it once (claim, fence, retries).
 */
export async function sendReply(
  deps: { db: Db; jobs: JobQueue; config: DeliveryConfig },
  tenantId: number,
  userId: number,
  input: { id: number; body: string },
): Promise<ConversationMessage> {
  const { db, jobs, config } = deps;
  const message = await db.transaction().execute(async (trx) => {
    const c = await trx
      .selectFrom('conversations as c')
      .leftJoin('contacts as ct', 'ct.id', 'c.contactId')
      .select([
        'c.id',
        'c.phoneE164',
        'c.contactId',
        'ct.firstName',
        'ct.lastName',
        optedOutSql(sql.ref('c.user_id'), sql.ref('c.phone_e164')).as('optedOut'),
      ])
      .where('c.id', '=', input.id)
      .where('c.userId', '=', tenantId)
      .forUpdate('c')
      .executeTakeFirst();
    if (!c) throw notFound(MISSING);
    if (c.optedOut) throw conflict('This person texted STOP: they can be texted again once they reply START', 'body');
    const delivery = await trx
      .insertInto('deliveries')
      .values({
        userId: tenantId,
        channel: 'sms',
        kind: 'conversation-reply',
        conversationId: c.id,
        contactId: c.contactId,
        address: c.phoneE164,
        firstName: c.firstName ?? '',
        lastName: c.lastName ?? '',
        token: crypto.randomBytes(24).toString('hex'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await trx
      .insertInto('conversationMessages')
      .values({
        userId: tenantId,
        conversationId: c.id,
        direction: 'outbound',
        body: input.body,
        deliveryId: delivery.id,
        sentByUserId: userId,
      })
      .returning(['id', 'createdAt'])
      .executeTakeFirstOrThrow();
    await takeDailyAllowance(trx, tenantId, {
      channel: 'sms',
      kind: 'conversation-reply',
      campaignId: null,
      recipients: 1,
      unverifiedLimit: config.unverifiedDailyRecipients,
    });
    await trx
      .updateTable('conversations')
      .set({
        unreadCount: 0,
        lastMessageAt: new Date(),
        lastMessagePreview: preview(input.body),
        updatedAt: new Date(),
      })
      .where('id', '=', c.id)
      .execute();
    return row;
  });
  await jobs.send('conversation-reply-deliver', { conversationId: input.id });
  return {
    key: `reply-${message.id}`,
    direction: 'outbound',
    kind: 'reply',
    body: input.body,
    at: new Date(message.createdAt).toISOString(),
    keyword: null,
    status: 'pending',
    campaignName: null,
    journeyName: null,
    groupName: null,
  };
}
