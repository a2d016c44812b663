import { awayWords, blocksDate, type Blockout } from './auto-schedule.js';
import { memberTargets, queueNotice } from './notices.js';
import { alreadyCoveredMessage, coveredBy } from './offer-state.js';
import crypto from 'node:crypto';
import type { z } from 'zod';
import { sql, type AssignmentStatus, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmailTransport } from '../../providers/email.js';
import type { assignmentSchema } from '../../schemas/service-planner.js';
import type { DeliveryConfig } from '../delivery/config.js';
import type { JobQueue } from '../../jobs.js';
import { takeDailyAllowance } from '../delivery/daily-limit.js';
import { skipReasonSql } from '../delivery/contact-rule.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';
import { recordEvent, recordEvents } from '../events/record.js';
import type { NewEvent } from '../../schemas/events.js';

/** A plan event (`plan.request_sent`, `plan.accepted`, `plan.declined`) of one assignment. */
function planEvent(
  type: 'plan.request_sent' | 'plan.accepted' | 'plan.declined',
  a: { id: number; contactId: number | null; name: string; email: string | null; planId: number; planTitle: string },
  positionName: string | null,
): NewEvent {
  return {
    type,
    contactId: a.contactId,
    payload: {
      person: { name: a.name, email: a.email },
      plan: { id: a.planId, name: a.planTitle },
      position: positionName ?? '',
      assignmentId: a.id,
    },
  };
}

/** Assignments (a) with their member (m), plan (p) and position (pos, if any). */
function assignmentsJoined(db: Db) {
  return db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId');
}

/** Two assignments of a plan overlap when either is for all times or both are for the same time. */
const sameTime = sql<boolean>`(o.service_time is null or a.service_time is null or o.service_time = a.service_time)`;

/** A service time must be one of the plan's (400 naming serviceTime); null: all its times. */
function assertServiceTime(plan: { serviceTimes: string[] }, time: string | null | undefined): void {
  if (time && !plan.serviceTimes.includes(time))
    throw badRequest(
      plan.serviceTimes.length
        ? `Service time must be one of the plan's times (${plan.serviceTimes.join(', ')})`
        : 'This plan has no service times: leave the time empty for all of it',
      'serviceTime',
    );
}

function assignmentQuery(db: Db, tenantId: number) {
  return assignmentsJoined(db)
    .select(['a.id', 'a.servicePlanId as planId', 'a.teamMemberId as memberId', 'a.serviceItemId as itemId'])
    .select(['a.positionId', 'a.status', 'a.notes', 'a.requestedAt', 'a.respondedAt', 'a.serviceTime'])
    .select(['m.name as memberName', 'm.email as memberEmail', 'pos.name as positionName'])
    .select((eb) => [
      // The member's blockouts whose range holds the plan's date (a recurring one may still miss it).
      sql<Blockout[] | null>`(
        select json_agg(json_build_object('memberId', b.team_member_id, 'startsOn', b.starts_on::text,
          'endsOn', b.ends_on::text, 'recurrence', b.recurrence) order by b.starts_on)
        from team_member_blockouts b
        where b.team_member_id = a.team_member_id and b.starts_on <= p.date and b.ends_on >= p.date)`.as('blockouts'),
      'p.date as planDate',
      eb
        .selectFrom('servicePlanAssignments as o')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('o.servicePlanId', '=', 'a.servicePlanId')
        .whereRef('o.teamMemberId', '=', 'a.teamMemberId')
        .where(sameTime)
        .as('timesInPlan'),
      // Why the last request could not be sent (after its retries), until it is sent again.
      eb
        .selectFrom('deliveries as d')
        .select(sql<string | null>`case when d.status = 'failed' then coalesce(d.last_error, 'Not sent') end`.as('e'))
        .whereRef('d.assignmentId', '=', 'a.id')
        .where('d.kind', '=', 'planner-request')
        .orderBy('d.id', 'desc')
        .limit(1)
        .as('requestError'),
    ])
    .where('a.userId', '=', tenantId);
}

type Row = Awaited<ReturnType<ReturnType<typeof assignmentQuery>['executeTakeFirstOrThrow']>>;

function toAssignment(r: Row): z.input<typeof assignmentSchema> {
  const warnings: string[] = [];
  const away = (r.blockouts ?? []).find((b) => blocksDate(b, r.planDate));
  if (away) warnings.push(awayWords(r.memberName, away));
  if (Number(r.timesInPlan) > 1) warnings.push(`${r.memberName} is scheduled more than once in this plan`);
  return {
    id: r.id,
    planId: r.planId,
    memberId: r.memberId,
    memberName: r.memberName,
    memberEmail: r.memberEmail,
    positionId: r.positionId,
    positionName: r.positionName ?? null,
    itemId: r.itemId,
    serviceTime: r.serviceTime,
    status: r.status,
    notes: r.notes,
    requestedAt: r.requestedAt,
    respondedAt: r.respondedAt,
    requestError: r.requestedAt ? null : (r.requestError ?? null),
    warnings,
  };
}

export async function loadAssignments(db: Db, tenantId: number, o: { planId: number }) {
  const rows = await assignmentQuery(db, tenantId)
    .where('a.servicePlanId', '=', o.planId)
    .orderBy('pos.category')
    .orderBy('pos.name')
    .orderBy('m.name')
    .orderBy('a.id')
    .execute();
  return rows.map(toAssignment);
}

async function getAssignment(db: Db, tenantId: number, id: number): Promise<z.input<typeof assignmentSchema>> {
  const row = await assignmentQuery(db, tenantId).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Assignment not found');
  return toAssignment(row);
}

async function assertRefs(
  db: Db,
  tenantId: number,
  o: { planId: number; positionId?: number | null; itemId?: number | null },
): Promise<void> {
  if (o.positionId) {
    const p = await db
      .selectFrom('teamPositions')
      .select('id')
      .where('id', '=', o.positionId)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!p) throw badRequest('Position not found', 'positionId');
  }
  if (o.itemId) {
    const i = await db
      .selectFrom('serviceItems')
      .select('id')
      .where('id', '=', o.itemId)
      .where('servicePlanId', '=', o.planId)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!i) throw badRequest('Item not found in this plan', 'itemId');
  }
}

/**
 * Schedule a member. Someone blocked out on the plan's date, or already in this plan, is refused
 * with a 409 saying so, unless `force` (the planner saw the warning and chose to go ahead).
 */
export async function createAssignment(
  db: Db,
  tenantId: number,
  input: {
    planId: number;
    memberId: number;
    positionId?: number | null;
    itemId?: number | null;
    notes?: string | null;
    serviceTime?: string | null;
    force: boolean;
  },
): Promise<z.input<typeof assignmentSchema>> {
  const id = await db.transaction().execute(async (trx) => {
    const plan = await findChurchRow(trx, tenantId, {
      table: 'servicePlans',
      id: input.planId,
      columns: ['id', 'date', 'serviceTimes'],
      forUpdate: true,
      missing: 'Service plan not found',
    });
    assertServiceTime(plan, input.serviceTime);
    const member = await trx
      .selectFrom('teamMembers')
      .select(['id', 'name', 'isActive'])
      .where('id', '=', input.memberId)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!member) throw badRequest('Team member not found', 'memberId');
    if (!member.isActive) throw badRequest(`${member.name} is not active`, 'memberId');
    await assertRefs(trx, tenantId, input);
    if (!input.force) {
      const blockouts = await trx
        .selectFrom('teamMemberBlockouts')
        .select(['teamMemberId as memberId', 'startsOn', 'endsOn', 'recurrence'])
        .where('teamMemberId', '=', member.id)
        .where('userId', '=', tenantId)
        .where('startsOn', '<=', plan.date)
        .where('endsOn', '>=', plan.date)
        .execute();
      const away = blockouts.find((b) => blocksDate(b, plan.date));
      if (away) throw conflict(awayWords(member.name, away), 'memberId');
      const twice = await trx
        .selectFrom('servicePlanAssignments')
        .select('id')
        .where('servicePlanId', '=', plan.id)
        .where('teamMemberId', '=', member.id)
        .$if(!!input.serviceTime, (q) =>
          q.where((eb) => eb.or([eb('serviceTime', 'is', null), eb('serviceTime', '=', input.serviceTime!)])),
        )
        .executeTakeFirst();
      if (twice)
        throw conflict(
          `${member.name} is already scheduled in this plan${input.serviceTime ? ` at ${input.serviceTime}` : ''}`,
          'memberId',
        );
    }
    const row = await trx
      .insertInto('servicePlanAssignments')
      .values({
        userId: tenantId,
        servicePlanId: plan.id,
        teamMemberId: member.id,
        positionId: input.positionId ?? null,
        serviceItemId: input.itemId ?? null,
        notes: input.notes ?? null,
        serviceTime: input.serviceTime ?? null,
        token: crypto.randomBytes(32).toString('base64url'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  return getAssignment(db, tenantId, id);
}

/** Partial. The planner may also set the status by hand (an answer given in person). */
export async function updateAssignment(
  db: Db,
  tenantId: number,
  input: {
    id: number;
    positionId?: number | null;
    itemId?: number | null;
    status?: AssignmentStatus;
    notes?: string | null;
    serviceTime?: string | null;
  },
): Promise<z.input<typeof assignmentSchema>> {
  const { id, ...fields } = input;
  const current = await findChurchRow(db, tenantId, {
    table: 'servicePlanAssignments',
    id,
    columns: ['id', 'servicePlanId', 'status'],
    missing: 'Assignment not found',
  });
  await assertRefs(db, tenantId, { planId: current.servicePlanId, ...fields });
  if (fields.serviceTime)
    assertServiceTime(
      await db
        .selectFrom('servicePlans')
        .select('serviceTimes')
        .where('id', '=', current.servicePlanId)
        .executeTakeFirstOrThrow(),
      fields.serviceTime,
    );
  const set = Object.fromEntries(
    Object.entries({
      positionId: fields.positionId,
      serviceItemId: fields.itemId,
      status: fields.status,
      notes: fields.notes,
      serviceTime: fields.serviceTime,
    }).filter(([, v]) => v !== undefined),
  );
  await db
    .updateTable('servicePlanAssignments')
    .set({
      ...set,
      ...(fields.status && fields.status !== current.status
        ? { respondedAt: fields.status === 'scheduled' ? null : new Date() }
        : {}),
      updatedAt: new Date(),
    })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .execute();
  return getAssignment(db, tenantId, id);
}

export async function deleteAssignment(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, {
    table: 'servicePlanAssignments',
    id: input.id,
    missing: 'Assignment not found',
  });
}

// ---- Scheduling requests ----

export { longDate, shortTime } from './request-channel.js';

/**
 * Ask everyone scheduled on the plan who has not been asked yet, by email with Accept and Decline
 * links: as deliveries of the one engine (issue 24 §15), like campaign mail. In one transaction,
 * each request is claimed (`requested_at` set only where it is still null, rows locked in id
 * order), written as a delivery of kind 'planner-request', and counted against the church's daily
 * limit (over it: 429 with the campaign's message, nothing is queued); then the deliver job is
 * queued. The engine sends them with the email rate slot, retries with backoff, and on a final
 * failure gives the claim back with the reason shown on the assignment. Two presses at once thus
 * queue each request once.
 */
export async function sendRequests(
  deps: { db: Db; email: EmailTransport; jobs: JobQueue; config: DeliveryConfig },
  tenantId: number,
  input: { planId: number },
): Promise<{ sent: number; skippedNoEmail: string[]; message: string }> {
  const { db, email, jobs, config } = deps;
  const { queued, textedOnly, skippedNoEmail, skippedSuppressed, skippedUnsubscribed, unasked, texted } = await db
    .transaction()
    .execute(async (trx) => {
      let texts = 0;
      const plan = await findChurchRow(trx, tenantId, {
        table: 'servicePlans',
        id: input.planId,
        columns: ['id', 'title'],
        missing: 'Service plan not found',
      });
      const pending = await trx
        .selectFrom('servicePlanAssignments as a')
        .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
        .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
        .select(['a.id', 'a.teamMemberId as memberId', 'm.name', 'm.email', 'm.contactId', 'pos.name as positionName'])
        // The contact rule (operational): an address on the church's suppression list (it bounced or
        // complained) or unsubscribed from email is not asked by email.
        .select(skipReasonSql(tenantId, { channel: 'email', purpose: 'operational' }, sql.ref('m.email')).as('skip'))
        .where('a.servicePlanId', '=', plan.id)
        .where('a.userId', '=', tenantId)
        .where('a.status', '=', 'scheduled')
        .where('a.requestedAt', 'is', null)
        .orderBy('a.id')
        .forUpdate('a')
        .execute();
      const ask = pending.filter((a) => a.email && !a.skip);
      // The request as a text to the member's linked contact, by their consent (issue 31 §6: by
      // email and SMS): beside the email, or alone when the email address is missing or suppressed.
      const textOnly: typeof pending = [];
      for (const a of pending) {
        const phones = (await memberTargets(trx, tenantId, a.memberId)).filter((t) => t.channel === 'sms');
        if (phones.length === 0) continue;
        const notice = { planId: plan.id, assignmentId: a.id, notice: 'request', targets: phones };
        const queuedTexts = (await queueNotice(trx, tenantId, notice)).length;
        texts += queuedTexts;
        if (queuedTexts > 0 && !ask.includes(a)) textOnly.push(a);
      }
      const asked = [...ask, ...textOnly];
      const skipped = pending.filter((a) => !a.email && !textOnly.includes(a)).map((a) => a.name);
      const notAsked = (why: 'suppressed' | 'unsubscribed') =>
        pending.filter((a) => a.email && a.skip?.startsWith(why) && !textOnly.includes(a)).map((a) => a.name);
      const suppressed = notAsked('suppressed');
      const unsubscribed = notAsked('unsubscribed');
      if (asked.length > 0) {
        await trx
          .updateTable('servicePlanAssignments')
          .set({ requestedAt: new Date(), updatedAt: new Date() })
          .where(
            'id',
            'in',
            asked.map((a) => a.id),
          )
          .execute();
        const planRef = { planId: plan.id, planTitle: plan.title };
        await recordEvents(
          trx,
          tenantId,
          asked.map((a) => planEvent('plan.request_sent', { ...a, ...planRef }, a.positionName)),
        );
      }
      if (ask.length > 0) {
        await trx
          .insertInto('deliveries')
          .values(
            ask.map((a) => ({
              userId: tenantId,
              channel: 'email' as const,
              kind: 'planner-request' as const,
              servicePlanId: plan.id,
              assignmentId: a.id,
              address: a.email!,
              firstName: a.name,
              token: crypto.randomBytes(24).toString('hex'),
            })),
          )
          .execute();
        await takeDailyAllowance(trx, tenantId, {
          channel: 'email',
          kind: 'planner-request',
          campaignId: null,
          recipients: ask.length,
          unverifiedLimit: config.unverifiedDailyRecipients,
        });
      }
      return {
        queued: ask.length,
        textedOnly: textOnly.length,
        skippedNoEmail: skipped,
        skippedSuppressed: suppressed,
        skippedUnsubscribed: unsubscribed,
        unasked: pending.length,
        texted: texts > 0,
      };
    });
  if (queued > 0) await jobs.send('planner-request-deliver', { planId: input.planId });
  if (texted) await jobs.send('planner-notice-deliver', { planId: input.planId });
  const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  const message =
    unasked === 0
      ? 'Everyone scheduled has already been asked'
      : `Requests sent to ${people(queued + textedOnly)}` +
        (skippedNoEmail.length ? `; no email address for ${skippedNoEmail.join(', ')}` : '') +
        (skippedSuppressed.length
          ? `; the email address of ${skippedSuppressed.join(', ')} is suppressed (it bounced or complained)`
          : '') +
        (skippedUnsubscribed.length ? `; ${skippedUnsubscribed.join(', ')} unsubscribed from email` : '') +
        (email.kind === 'outbox' ? ' (saved to your outbox: no SMTP server is configured)' : '');
  return { sent: queued + textedOnly, skippedNoEmail, message };
}

function requestQuery(db: Db, token: string) {
  return assignmentsJoined(db)
    .innerJoin('users as u', 'u.id', 'a.userId')
    .select(['a.id', 'a.status', 'a.serviceTime', 'u.churchName', 'm.name as memberName', 'pos.name as positionName'])
    .select(['p.title as planTitle', 'p.date', 'p.startTime', 'p.location'])
    .where('a.token', '=', token);
}

/** What a request link shows. Reading it never answers: mail scanners open links too. */
export async function getRequest(db: Db, input: { token: string }) {
  const row = await requestQuery(db, input.token).executeTakeFirst();
  if (!row) throw notFound('This link is not valid');
  const { id: _id, ...rest } = row;
  return { ...rest, positionName: rest.positionName ?? null };
}

/** The person's answer (a POST from the confirmation page). They may change it later. */
export async function respondToRequest(db: Db, input: { token: string; response: 'accept' | 'decline' }) {
  const status = input.response === 'accept' ? 'confirmed' : 'declined';
  await db.transaction().execute(async (trx) => {
    const a = await assignmentsJoined(trx)
      .select(['a.id', 'a.userId', 'a.status', 'm.name', 'm.email', 'm.contactId', 'pos.name as positionName'])
      .select(['p.id as planId', 'p.title as planTitle'])
      .where('a.token', '=', input.token)
      .forUpdate('a')
      .executeTakeFirst();
    if (!a) throw notFound('This link is not valid');
    // A teammate covers the slot: its old links answer who, and change nothing.
    const cover = await coveredBy(trx, a.id);
    if (cover !== null) throw conflict(alreadyCoveredMessage(cover), 'token');
    await trx
      .updateTable('servicePlanAssignments')
      .set({ status, respondedAt: new Date(), updatedAt: new Date() })
      .where('id', '=', a.id)
      .execute();
    // They can serve after all: teammates still being asked to cover are no longer asked.
    if (status === 'confirmed')
      await trx
        .updateTable('substituteOffers')
        .set({ status: 'cancelled', updatedAt: new Date() })
        .where('assignmentId', '=', a.id)
        .where('kind', '=', 'substitute')
        .where('status', '=', 'open')
        .execute();
    // The same answer again (a second press) is not news.
    if (a.status !== status) {
      const type = status === 'confirmed' ? 'plan.accepted' : 'plan.declined';
      await recordEvent(trx, a.userId, planEvent(type, a, a.positionName));
    }
  });
  return getRequest(db, input);
}
