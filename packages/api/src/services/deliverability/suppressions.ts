import { sql, type Db } from '@lampstand/db';
import type { RawBuilder } from 'kysely';
import { notFound } from '../../errors.js';
import { findChurchRow } from '../church-rows.js';
import { recordEvents } from '../events/record.js';
import { changeConsent } from '../contacts/consent.js';
import { findDeliveryRef, deliveryPerson } from '../delivery/events.js';
import type { NewEvent } from '../../schemas/events.js';
import type { BounceReport } from './reports.js';
import { suppressedSql } from './suppressed-sql.js';

/** Soft bounces of one address within 30 days that suppress it. */
export const SOFT_BOUNCE_LIMIT = 3;

export type BounceOutcome = 'recorded' | 'suppressed' | 'unknown-delivery' | 'not-email' | 'duplicate';

/**
 * A bounce or complaint about one delivery (found by its VERP token, or by the Message-ID the
 * report quotes), in one transaction: the bounce row, the delivery's 'bounce' event, the person's
 * `email.bounced` / `email.complained` event, and the suppression when it is due: a hard bounce at
 * once, the third soft bounce in 30 days, a complaint at once (which also unsubscribes every
 * contact of the church with the address from email, on their consent history).
 */
export async function recordBounce(
  db: Db,
  input: {
    token?: string | null;
    report: BounceReport;
    /** A provider's event, recorded once by its id (a repeated event changes nothing). */
    providerEvent?: { provider: string; eventId: string };
  },
): Promise<BounceOutcome> {
  const { report } = input;
  return db.transaction().execute(async (trx) => {
    if (input.providerEvent) {
      const first = await trx
        .insertInto('emailProviderEvents')
        .values(input.providerEvent)
        .onConflict((oc) => oc.columns(['provider', 'eventId']).doNothing())
        .returning('eventId')
        .executeTakeFirst();
      if (!first) return 'duplicate';
    }
    let q = trx.selectFrom('deliveries').select(['id', 'userId', 'address', 'channel', 'token']);
    if (input.token) q = q.where('token', '=', input.token);
    else {
      const ids = report.messageIds.map((m) => {
        const [id, prefix] = m.split('.');
        return { id: Number(id), prefix: prefix! };
      });
      if (ids.length === 0) return 'unknown-delivery';
      q = q.where('id', '=', ids[0]!.id).where(sql<boolean>`left(token, 12) = ${ids[0]!.prefix}`);
    }
    const delivery = await q.executeTakeFirst();
    if (!delivery) return 'unknown-delivery';
    if (delivery.channel !== 'email') return 'not-email';
    const email = delivery.address.toLowerCase();
    const userId = delivery.userId;
    await trx
      .insertInto('emailBounces')
      .values({
        userId,
        email,
        deliveryId: delivery.id,
        kind: report.kind,
        status: report.status,
        detail: report.detail,
      })
      .execute();
    await trx.insertInto('deliveryEvents').values({ deliveryId: delivery.id, type: 'bounce', url: null }).execute();
    const ref = (await findDeliveryRef(trx, delivery.id))!;
    const events: NewEvent[] = [];
    const base = { person: deliveryPerson(ref), campaign: ref.campaign, deliveryId: delivery.id };
    if (report.kind === 'complaint') events.push({ type: 'email.complained', contactId: ref.contactId, payload: base });
    else
      events.push({
        type: 'email.bounced',
        contactId: ref.contactId,
        payload: { ...base, reason: `${report.kind === 'hard' ? 'Hard' : 'Soft'} bounce: ${report.detail}` },
      });

    let reason: 'hard_bounce' | 'soft_bounces' | 'complaint' | null = null;
    if (report.kind === 'hard') reason = 'hard_bounce';
    else if (report.kind === 'complaint') reason = 'complaint';
    else {
      const soft = await trx
        .selectFrom('emailBounces')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('userId', '=', userId)
        .where('email', '=', email)
        .where('kind', '=', 'soft')
        .where('createdAt', '>', sql<Date>`now() - interval '30 days'`)
        .executeTakeFirstOrThrow();
      if (Number(soft.n) >= SOFT_BOUNCE_LIMIT) reason = 'soft_bounces';
    }
    let suppressed = false;
    if (reason) {
      const row = await trx
        .insertInto('emailSuppressions')
        .values({ userId, email, reason, detail: report.detail, deliveryId: delivery.id })
        .onConflict((oc) => oc.columns(['userId', 'email']).where('removedAt', 'is', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      suppressed = !!row;
    }
    if (report.kind === 'complaint') {
      // A complaint unsubscribes the person from all email: every contact of the church with the address.
      const contacts = await trx
        .selectFrom('contacts')
        .select('id')
        .where('userId', '=', userId)
        .where('emailLower', '=', email)
        .execute();
      for (const c of contacts) {
        const { event } = await changeConsent(trx, userId, {
          contactId: c.id,
          channel: 'email',
          status: 'unsubscribed',
          source: 'complaint',
          note: report.detail,
        });
        if (event) events.push(event);
      }
    }
    await recordEvents(trx, userId, events, { actor: { kind: 'system', id: null } });
    return suppressed ? 'suppressed' : 'recorded';
  });
}

const REASON_WORDS = { hard_bounce: 'Hard bounce', soft_bounces: 'Soft bounces', complaint: 'Complaint' } as const;

/** The church's suppression list, newest first, with the campaign of the message that caused each. */
export async function listSuppressions(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('emailSuppressions as s')
    .leftJoin('deliveries as d', 'd.id', 's.deliveryId')
    .leftJoin('emailCampaigns as c', (j) => j.onRef('c.id', '=', 'd.campaignId').on('d.kind', '=', 'campaign'))
    .select([
      's.id',
      's.email',
      's.reason',
      's.detail',
      's.createdAt',
      's.deliveryId',
      'c.id as campaignId',
      'c.name as campaignName',
    ])
    .where('s.userId', '=', tenantId)
    .where('s.removedAt', 'is', null)
    .orderBy('s.createdAt', 'desc')
    .orderBy('s.id', 'desc')
    .limit(5000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    reason: r.reason,
    reasonText: REASON_WORDS[r.reason],
    detail: r.detail,
    createdAt: new Date(r.createdAt).toISOString(),
    deliveryId: r.deliveryId,
    campaign: r.campaignId && r.campaignName !== null ? { id: r.campaignId, name: r.campaignName } : null,
  }));
}

/** Remove an address from the list: the row stays, with who removed it and when; sends reach it again. */
export async function removeSuppression(db: Db, tenantId: number, userId: number, input: { id: number }) {
  const row = await db
    .updateTable('emailSuppressions')
    .set({ removedAt: new Date(), removedBy: userId })
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .where('removedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Suppressed address not found');
  return row;
}

export { suppressedSql };

/**
 * Before a send to chosen contacts or team members (of the church; others' ids count as nobody) or a
 * list's members: how many of their addresses are suppressed and will be skipped (distinct addresses).
 */
export async function countSuppressed(
  db: Db,
  tenantId: number,
  input: { contactIds?: number[]; listId?: number; memberIds?: number[] },
): Promise<{ suppressed: number }> {
  if (input.memberIds) {
    const { rows } = await sql<{ n: number }>`
      select count(distinct lower(m.email))::int as n from team_members m
      where m.user_id = ${tenantId} and m.id = any(${input.memberIds}::int[]) and m.email is not null and m.email <> ''
        and ${suppressedSql(tenantId, sql.ref('m.email'))}`.execute(db);
    return { suppressed: Number(rows[0]?.n ?? 0) };
  }
  if (input.listId)
    await findChurchRow(db, tenantId, {
      table: 'contactLists',
      id: input.listId,
      columns: ['id'],
      missing: 'List not found',
    });
  const who = input.listId
    ? sql<boolean>`c.id in (select contact_id from contacts_in_lists where user_id = ${tenantId} and list_id = ${input.listId})`
    : sql<boolean>`c.id = any(${input.contactIds ?? []}::int[])`;
  return { suppressed: await countSuppressedContacts(db, tenantId, who) };
}

/** Distinct suppressed addresses among the church's contacts `c` that `who` selects (SQL on `c`). */
export async function countSuppressedContacts(db: Db, tenantId: number, who: RawBuilder<boolean>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(distinct lower(c.email))::int as n from contacts c
    where c.user_id = ${tenantId} and ${who} and c.email is not null and c.email <> ''
      and ${suppressedSql(tenantId, sql.ref('c.email'))}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
