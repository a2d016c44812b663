import { sql, type Db, type ServicePlanStatus } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import { type planDetailSchema, type PlanItem, type planSummarySchema } from '../../schemas/service-planner.js';
import { computeItemTimes } from '../../shared/service-planner.js';
import { loadAnnouncements } from './announce.js';
import { loadAssignments } from './assignments.js';
import { ensureItemTypes } from './item-types.js';
import { storeItemStartTimes } from './item-times.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';

export interface PlanFields {
  title: string;
  date: string;
  startTime?: string | null;
  endTime?: string | null;
  location?: string | null;
  description?: string | null;
  theme?: string | null;
  notes?: string | null;
  status?: ServicePlanStatus;
  serviceTimes?: string[];
}

const PLAN_COLUMNS = [
  'p.id',
  'p.title',
  'p.date',
  'p.startTime',
  'p.endTime',
  'p.serviceTimes',
  'p.positionsNeeded',
  'p.location',
  'p.description',
  'p.status',
  'p.theme',
  'p.notes',
  'p.createdAt',
  'p.updatedAt',
] as const;

function summaryQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('servicePlans as p')
    .select(PLAN_COLUMNS)
    .select((eb) => [
      eb
        .selectFrom('serviceItems as i')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('i.servicePlanId', '=', 'p.id')
        .as('itemCount'),
      eb
        .selectFrom('servicePlanAssignments as a')
        .select(sql<number>`count(*) filter (where a.status = 'confirmed')`.as('n'))
        .whereRef('a.servicePlanId', '=', 'p.id')
        .as('confirmed'),
      eb
        .selectFrom('servicePlanAssignments as a')
        .select(sql<number>`count(*) filter (where a.status <> 'declined')`.as('n'))
        .whereRef('a.servicePlanId', '=', 'p.id')
        .as('teamTotal'),
    ])
    .where('p.userId', '=', tenantId);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

function toSummary(r: SummaryRow): z.input<typeof planSummarySchema> {
  return {
    id: r.id,
    title: r.title,
    date: r.date,
    startTime: r.startTime,
    endTime: r.endTime,
    serviceTimes: r.serviceTimes,
    positionsNeeded: r.positionsNeeded,
    location: r.location,
    description: r.description,
    status: r.status,
    theme: r.theme,
    notes: r.notes,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    itemCount: Number(r.itemCount ?? 0),
    team: { confirmed: Number(r.confirmed ?? 0), total: Number(r.teamTotal ?? 0) },
  };
}

/** Upcoming plans soonest first; past plans latest first; 'all' = upcoming then past. */
export async function listPlans(
  db: Db,
  tenantId: number,
  input: { when: 'upcoming' | 'past' | 'all' },
): Promise<z.input<typeof planSummarySchema>[]> {
  const upcoming = () =>
    summaryQuery(db, tenantId)
      .where('p.date', '>=', sql<string>`current_date`)
      .orderBy('p.date')
      .orderBy('p.startTime')
      .limit(500)
      .execute();
  const past = () =>
    summaryQuery(db, tenantId)
      .where('p.date', '<', sql<string>`current_date`)
      .orderBy('p.date', 'desc')
      .limit(500)
      .execute();
  const rows =
    input.when === 'upcoming'
      ? await upcoming()
      : input.when === 'past'
        ? await past()
        : [...(await upcoming()), ...(await past())];
  return rows.map(toSummary);
}

/** A plan's items in order with their types, songs and computed start times. */
async function loadItems(
  db: Db,
  tenantId: number,
  plan: { id: number; startTime: string | null; endTime: string | null },
) {
  const rows = await db
    .selectFrom('serviceItems as i')
    .leftJoin('serviceItemTypes as t', (j) => j.onRef('t.id', '=', 'i.serviceItemTypeId').on('t.userId', '=', tenantId))
    .leftJoin('servicePlanSongs as ps', 'ps.serviceItemId', 'i.id')
    .leftJoin('songs as s', (j) => j.onRef('s.id', '=', 'ps.songId').on('s.userId', '=', tenantId))
    .select([
      'i.id',
      'i.servicePlanId',
      'i.serviceItemTypeId',
      'i.title',
      'i.description',
      'i.duration',
      'i.notes',
      'i.position',
      'i.isRehearsalNeeded',
      't.name as typeName',
      't.color as typeColor',
      't.icon as typeIcon',
      't.description as typeDescription',
      't.isDefault as typeIsDefault',
      's.id as songId',
      's.title as songTitle',
      's.artist as songArtist',
      's.keySignature as songKey',
      's.chords as songChords',
      's.lyrics as songLyrics',
      'ps.keySignature as planKey',
      'ps.arrangement',
      'ps.notes as songNotes',
    ])
    .where('i.servicePlanId', '=', plan.id)
    .where('i.userId', '=', tenantId)
    .orderBy('i.position')
    .orderBy('i.id')
    .execute();
  const times = computeItemTimes(plan, rows);
  const items: PlanItem[] = rows.map((r, idx) => ({
    id: r.id,
    planId: r.servicePlanId,
    serviceItemTypeId: r.serviceItemTypeId,
    type:
      r.serviceItemTypeId && r.typeName
        ? {
            id: r.serviceItemTypeId,
            name: r.typeName,
            color: r.typeColor ?? 'gray',
            icon: r.typeIcon ?? 'circle',
            description: r.typeDescription ?? null,
            isDefault: r.typeIsDefault ?? false,
          }
        : null,
    title: r.title,
    description: r.description,
    duration: r.duration,
    notes: r.notes,
    position: r.position,
    startTime: times.starts[idx] ?? null,
    isRehearsalNeeded: r.isRehearsalNeeded,
    song: r.songId
      ? {
          songId: r.songId,
          title: r.songTitle ?? '',
          artist: r.songArtist ?? null,
          keySignature: r.planKey ?? null,
          songKey: r.songKey ?? null,
          arrangement: r.arrangement ?? null,
          notes: r.songNotes ?? null,
          chords: r.songChords ?? null,
          lyrics: r.songLyrics ?? null,
        }
      : null,
  }));
  return { items, times };
}

export async function getPlan(
  db: Db,
  tenantId: number,
  input: { id: number },
): Promise<z.input<typeof planDetailSchema>> {
  await ensureItemTypes(db, tenantId);
  const row = await summaryQuery(db, tenantId).where('p.id', '=', input.id).executeTakeFirst();
  if (!row) throw notFound('Service plan not found');
  const summary = toSummary(row);
  const [{ items, times }, assignments, announcements] = await Promise.all([
    loadItems(db, tenantId, summary),
    loadAssignments(db, tenantId, { planId: summary.id }),
    loadAnnouncements(db, tenantId, { planId: summary.id }),
  ]);
  return {
    ...summary,
    items,
    assignments,
    announcements,
    times: {
      totalMinutes: times.totalMinutes,
      endsAt: times.endsAt,
      plannedMinutes: times.plannedMinutes,
      overBy: times.overBy,
    },
  };
}

export async function createPlan(
  db: Db,
  tenantId: number,
  input: PlanFields,
): Promise<z.input<typeof planDetailSchema>> {
  const row = await db
    .insertInto('servicePlans')
    .values({
      userId: tenantId,
      title: input.title,
      date: input.date,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
      location: input.location ?? null,
      description: input.description ?? null,
      theme: input.theme ?? null,
      notes: input.notes ?? null,
      status: input.status ?? 'draft',
      serviceTimes: input.serviceTimes ?? [],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getPlan(db, tenantId, { id: row.id });
}

/** Partial: unsent fields keep their values; end after start is checked on the merged plan. */
export async function updatePlan(
  db: Db,
  tenantId: number,
  input: Partial<PlanFields> & { id: number },
): Promise<z.input<typeof planDetailSchema>> {
  const { id, ...fields } = input;
  await db.transaction().execute(async (trx) => {
    const current = await findChurchRow(trx, tenantId, {
      table: 'servicePlans',
      id,
      columns: ['startTime', 'endTime'],
      forUpdate: true,
      missing: 'Service plan not found',
    });
    const start = fields.startTime === undefined ? current.startTime : fields.startTime;
    const end = fields.endTime === undefined ? current.endTime : fields.endTime;
    if (start && end && end <= start) {
      throw badRequest('End time must be after the start time', 'endTime');
    }
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    await trx
      .updateTable('servicePlans')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .execute();
    if (fields.startTime !== undefined) await storeItemStartTimes(trx, tenantId, { planId: id });
  });
  return getPlan(db, tenantId, { id });
}

export async function deletePlan(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'servicePlans', id: input.id, missing: 'Service plan not found' });
}

/**
 * A new draft on another date from an existing plan ('use last Sunday as a starting point'):
 * its fields, items and songs (with their keys); not its team answers or announcements.
 */
export async function duplicatePlan(
  db: Db,
  tenantId: number,
  input: { id: number; date: string; title?: string },
): Promise<z.input<typeof planDetailSchema>> {
  const newId = await db.transaction().execute(async (trx) => {
    const src = await findChurchRow(trx, tenantId, {
      table: 'servicePlans',
      id: input.id,
      missing: 'Service plan not found',
    });
    const plan = await trx
      .insertInto('servicePlans')
      .values({
        userId: tenantId,
        title: input.title ?? src.title,
        date: input.date,
        startTime: src.startTime,
        endTime: src.endTime,
        serviceTimes: src.serviceTimes,
        positionsNeeded: src.positionsNeeded,
        location: src.location,
        description: src.description,
        theme: src.theme,
        notes: src.notes,
        status: 'draft',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const items = await trx
      .selectFrom('serviceItems')
      .selectAll()
      .where('servicePlanId', '=', src.id)
      .where('userId', '=', tenantId)
      .orderBy('position')
      .execute();
    for (const item of items) {
      const copy = await trx
        .insertInto('serviceItems')
        .values({
          userId: tenantId,
          servicePlanId: plan.id,
          serviceItemTypeId: item.serviceItemTypeId,
          title: item.title,
          description: item.description,
          duration: item.duration,
          notes: item.notes,
          position: item.position,
          content: JSON.stringify(item.content ?? {}),
          isRehearsalNeeded: item.isRehearsalNeeded,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('servicePlanSongs')
        .columns(['userId', 'servicePlanId', 'serviceItemId', 'songId', 'keySignature', 'notes', 'arrangement'])
        .expression((eb) =>
          eb
            .selectFrom('servicePlanSongs')
            .select([
              eb.val(tenantId).as('userId'),
              eb.val(plan.id).as('servicePlanId'),
              eb.val(copy.id).as('serviceItemId'),
              'songId',
              'keySignature',
              'notes',
              'arrangement',
            ])
            .where('serviceItemId', '=', item.id)
            .where('userId', '=', tenantId),
        )
        .execute();
    }
    await storeItemStartTimes(trx, tenantId, { planId: plan.id });
    return plan.id;
  });
  return getPlan(db, tenantId, { id: newId });
}
