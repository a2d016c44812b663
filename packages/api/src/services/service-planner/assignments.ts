import { awayWords, blocksDate, type Blockout } from './auto-schedule.js';
import crypto from 'node:crypto';
import type { z } from 'zod';
import { sql, type AssignmentStatus, type Db } from '@lampstand/db';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { assignmentSchema } from '../../schemas/service-planner.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';
import { assignmentsJoined } from './assignments-joined.js';

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
        // Its own request, or the one email that asked about several of the person's slots.
        .where((w) => w.or([w('d.assignmentId', '=', w.ref('a.id')), w('d.id', '=', w.ref('a.requestDeliveryId'))]))
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

export { longDate, shortTime } from './request-channel.js';
// The planner's router takes the requests' functions from here with the assignments'.
export { getRequest, respondToRequest, sendRequests } from './requests.js';
