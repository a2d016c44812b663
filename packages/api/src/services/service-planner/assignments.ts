import crypto from 'node:crypto';
import type { z } from 'zod';
import { sql, type AssignmentStatus, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { EmailTransport } from '../../providers/email.js';
import type { assignmentSchema } from '../../schemas/service-planner.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { escapeHtml } from '../../render/html.js';

function assignmentQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select([
      'a.id',
      'a.servicePlanId as planId',
      'a.teamMemberId as memberId',
      'm.name as memberName',
      'm.email as memberEmail',
      'a.positionId',
      'pos.name as positionName',
      'a.serviceItemId as itemId',
      'a.status',
      'a.notes',
      'a.requestedAt',
      'a.respondedAt',
    ])
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('teamMemberBlockouts as b')
            .select(sql`1`.as('one'))
            .whereRef('b.teamMemberId', '=', 'a.teamMemberId')
            .whereRef('b.startsOn', '<=', 'p.date')
            .whereRef('b.endsOn', '>=', 'p.date'),
        )
        .as('blocked'),
      eb
        .selectFrom('servicePlanAssignments as o')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('o.servicePlanId', '=', 'a.servicePlanId')
        .whereRef('o.teamMemberId', '=', 'a.teamMemberId')
        .as('timesInPlan'),
    ])
    .where('a.userId', '=', tenantId);
}

type Row = Awaited<ReturnType<ReturnType<typeof assignmentQuery>['executeTakeFirstOrThrow']>>;

function toAssignment(r: Row): z.input<typeof assignmentSchema> {
  const warnings: string[] = [];
  if (r.blocked) warnings.push(`${r.memberName} is blocked out on this date`);
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
    status: r.status,
    notes: r.notes,
    requestedAt: r.requestedAt,
    respondedAt: r.respondedAt,
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
    force: boolean;
  },
): Promise<z.input<typeof assignmentSchema>> {
  const id = await db.transaction().execute(async (trx) => {
    const plan = await trx
      .selectFrom('servicePlans')
      .select(['id', 'date'])
      .where('id', '=', input.planId)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!plan) throw notFound('Service plan not found');
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
      const blocked = await trx
        .selectFrom('teamMemberBlockouts')
        .select('id')
        .where('teamMemberId', '=', member.id)
        .where('userId', '=', tenantId)
        .where('startsOn', '<=', plan.date)
        .where('endsOn', '>=', plan.date)
        .executeTakeFirst();
      if (blocked) throw conflict(`${member.name} is blocked out on this date`, 'memberId');
      const twice = await trx
        .selectFrom('servicePlanAssignments')
        .select('id')
        .where('servicePlanId', '=', plan.id)
        .where('teamMemberId', '=', member.id)
        .executeTakeFirst();
      if (twice) throw conflict(`${member.name} is already scheduled in this plan`, 'memberId');
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
  },
): Promise<z.input<typeof assignmentSchema>> {
  const { id, ...fields } = input;
  const current = await db
    .selectFrom('servicePlanAssignments')
    .select(['id', 'servicePlanId', 'status'])
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!current) throw notFound('Assignment not found');
  await assertRefs(db, tenantId, { planId: current.servicePlanId, ...fields });
  const set = Object.fromEntries(
    Object.entries({
      positionId: fields.positionId,
      serviceItemId: fields.itemId,
      status: fields.status,
      notes: fields.notes,
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
  const row = await db
    .deleteFrom('servicePlanAssignments')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Assignment not found');
  return row;
}

// ---- Scheduling requests ----

/** 'Sunday, December 6, 2026' from 'YYYY-MM-DD' (no time zone shift). */
export function longDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** '10:30 AM' from 'HH:MM'. */
export function shortTime(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  return `${((h! + 11) % 12) + 1}:${String(m).padStart(2, '0')} ${h! < 12 ? 'AM' : 'PM'}`;
}

/** The page the links in a request open (answers need a button press there: a POST). */
const requestUrl = (publicUrl: string, token: string, answer: 'accept' | 'decline') =>
  `${publicUrl}/serve/${token}?answer=${answer}`;

/**
 * Email everyone scheduled on the plan who has not been asked yet, through the church's email
 * transport (SMTP, or the outbox without it), with Accept and Decline links.
 *
 * Each request is claimed before it is sent (`requested_at` set only where it is still null, in
 * one statement), so two presses at once send each request once. A send that fails gives the
 * claim back, so the next press tries again. Still outside the delivery engine (issue 24 §15, not
 * done): no daily allowance, no rate slot, no automatic retry.
 */
export async function sendRequests(
  deps: { db: Db; email: EmailTransport; config: DeliveryConfig },
  tenantId: number,
  input: { planId: number },
): Promise<{ sent: number; skippedNoEmail: string[]; message: string }> {
  const { db, email, config } = deps;
  const plan = await db
    .selectFrom('servicePlans as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['p.id', 'p.title', 'p.date', 'p.startTime', 'p.location', 'u.churchName'])
    .where('p.id', '=', input.planId)
    .where('p.userId', '=', tenantId)
    .executeTakeFirst();
  if (!plan) throw notFound('Service plan not found');
  const pending = await db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select(['a.id', 'a.token', 'm.name', 'm.email', 'pos.name as positionName'])
    .where('a.servicePlanId', '=', plan.id)
    .where('a.userId', '=', tenantId)
    .where('a.status', '=', 'scheduled')
    .where('a.requestedAt', 'is', null)
    .orderBy('a.id')
    .execute();
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  const when = `${longDate(plan.date)}${plan.startTime ? ` at ${shortTime(plan.startTime)}` : ''}`;
  let sent = 0;
  const skippedNoEmail: string[] = [];
  const failed: string[] = [];
  for (const a of pending) {
    if (!a.email) {
      skippedNoEmail.push(a.name);
      continue;
    }
    const claimed = await db
      .updateTable('servicePlanAssignments')
      .set({ requestedAt: new Date(), updatedAt: new Date() })
      .where('id', '=', a.id)
      .where('userId', '=', tenantId)
      .where('status', '=', 'scheduled')
      .where('requestedAt', 'is', null)
      .returning('requestedAt')
      .executeTakeFirst();
    if (!claimed) continue; // another press is sending this one
    const role = a.positionName ? ` as ${a.positionName}` : '';
    const accept = requestUrl(config.publicUrl, a.token, 'accept');
    const decline = requestUrl(config.publicUrl, a.token, 'decline');
    const subject = `Can you serve${role} on ${longDate(plan.date)}?`;
    const html =
      `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
      `<p>Hi ${escapeHtml(a.name)},</p>` +
      `<p>${escapeHtml(plan.churchName)} has scheduled you${escapeHtml(role)} for <strong>${escapeHtml(plan.title)}</strong> on ${escapeHtml(when)}` +
      `${plan.location ? ` at ${escapeHtml(plan.location)}` : ''}.</p><p>Can you serve?</p>` +
      `<p><a href="${escapeHtml(accept)}" style="background:#364fc7;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Accept</a> ` +
      `&nbsp; <a href="${escapeHtml(decline)}" style="color:#364fc7">Decline</a></p>` +
      `<p style="color:#6b7280;font-size:13px">${escapeHtml(plan.churchName)}</p></body></html>`;
    const text =
      `Hi ${a.name},\n\n${plan.churchName} has scheduled you${role} for ${plan.title} on ${when}` +
      `${plan.location ? ` at ${plan.location}` : ''}.\n\nCan you serve?\n\nAccept: ${accept}\nDecline: ${decline}\n\n${plan.churchName}\n`;
    try {
      await email.send({
        from: formatFrom(plan.churchName, config.emailFrom),
        to: a.email,
        subject,
        html,
        text,
        headers: {},
        messageId: `serve-${a.id}.${crypto.randomUUID()}@${host}`,
        meta: { userId: tenantId },
      });
    } catch {
      // Not sent: give the claim back, so that the next press asks this person again.
      await db
        .updateTable('servicePlanAssignments')
        .set({ requestedAt: null, updatedAt: new Date() })
        .where('id', '=', a.id)
        .where('userId', '=', tenantId)
        .where('requestedAt', '=', claimed.requestedAt)
        .execute();
      failed.push(a.name);
      continue;
    }
    sent += 1;
  }
  const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  const message =
    pending.length === 0
      ? 'Everyone scheduled has already been asked'
      : `Requests sent to ${people(sent)}` +
        (skippedNoEmail.length ? `; no email address for ${skippedNoEmail.join(', ')}` : '') +
        (failed.length ? `; could not be sent to ${failed.join(', ')} (try again)` : '') +
        (email.kind === 'outbox' ? ' (saved to your outbox: no SMTP server is configured)' : '');
  return { sent, skippedNoEmail, message };
}

function requestQuery(db: Db, token: string) {
  return db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select([
      'a.id',
      'u.churchName',
      'm.name as memberName',
      'p.title as planTitle',
      'p.date',
      'p.startTime',
      'p.location',
      'pos.name as positionName',
      'a.status',
    ])
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
  const row = await db
    .updateTable('servicePlanAssignments')
    .set({
      status: input.response === 'accept' ? 'confirmed' : 'declined',
      respondedAt: new Date(),
      updatedAt: new Date(),
    })
    .where('token', '=', input.token)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('This link is not valid');
  return getRequest(db, input);
}
