import type { Db, PlanTemplateItem } from '@lampstand/db';
import type { z } from 'zod';
import { conflict, notFound } from '../../errors.js';
import type { planTemplateSchema } from '../../schemas/service-planner.js';
import { findChurchRow } from '../church-rows.js';
import { storeItemStartTimes } from './item-times.js';

// Plan templates: a plan's shape kept under a name (times, items with their lengths
// and songs, the positions its team filled), and new plans made from it.

const COLUMNS = [
  'id',
  'name',
  'title',
  'startTime',
  'endTime',
  'location',
  'serviceTimes',
  'items',
  'positionsNeeded',
  'createdAt',
] as const;

function toTemplate(r: {
  id: number;
  name: string;
  title: string;
  startTime: string | null;
  endTime: string | null;
  location: string | null;
  serviceTimes: string[];
  items: PlanTemplateItem[];
  positionsNeeded: number[];
  createdAt: Date;
}): z.input<typeof planTemplateSchema> {
  return {
    ...r,
    items: r.items.map((i) => ({ title: i.title, duration: i.duration, songId: i.song?.songId ?? null })),
  };
}

export async function listTemplates(db: Db, tenantId: number): Promise<z.input<typeof planTemplateSchema>[]> {
  const rows = await db
    .selectFrom('servicePlanTemplates')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('name')
    .execute();
  return rows.map(toTemplate);
}

/** Saves a plan's shape as a template; the positions needed are those its team fills now. */
export async function createTemplate(
  db: Db,
  tenantId: number,
  input: { planId: number; name: string },
): Promise<z.input<typeof planTemplateSchema>> {
  const plan = await findChurchRow(db, tenantId, {
    table: 'servicePlans',
    id: input.planId,
    missing: 'Service plan not found',
  });
  const [items, songs, assignments] = await Promise.all([
    db
      .selectFrom('serviceItems')
      .selectAll()
      .where('servicePlanId', '=', plan.id)
      .where('userId', '=', tenantId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('servicePlanSongs')
      .select(['serviceItemId', 'songId', 'keySignature', 'notes', 'arrangement'])
      .where('servicePlanId', '=', plan.id)
      .where('userId', '=', tenantId)
      .execute(),
    db
      .selectFrom('servicePlanAssignments')
      .select('positionId')
      .where('servicePlanId', '=', plan.id)
      .where('userId', '=', tenantId)
      .where('positionId', 'is not', null)
      .orderBy('positionId')
      .execute(),
  ]);
  const templateItems: PlanTemplateItem[] = items.map((i) => {
    const song = songs.find((s) => s.serviceItemId === i.id);
    return {
      serviceItemTypeId: i.serviceItemTypeId,
      title: i.title,
      description: i.description,
      duration: i.duration,
      notes: i.notes,
      content: i.content ?? {},
      isRehearsalNeeded: i.isRehearsalNeeded,
      song: song
        ? { songId: song.songId, keySignature: song.keySignature, notes: song.notes, arrangement: song.arrangement }
        : null,
    };
  });
  const positionsNeeded = plan.positionsNeeded.length ? plan.positionsNeeded : assignments.map((a) => a.positionId!);
  const row = await db
    .insertInto('servicePlanTemplates')
    .values({
      userId: tenantId,
      name: input.name,
      title: plan.title,
      startTime: plan.startTime,
      endTime: plan.endTime,
      location: plan.location,
      serviceTimes: plan.serviceTimes,
      items: JSON.stringify(templateItems),
      positionsNeeded,
    })
    .onConflict((oc) => oc.columns(['userId', 'name']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw conflict('A template with this name already exists', 'name');
  return toTemplate(row);
}

export async function deleteTemplate(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  const row = await db
    .deleteFrom('servicePlanTemplates')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Template not found');
  return row;
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * New draft plans from a template, on `date` and then every week for `weeks` weeks, all in one
 * transaction. A song deleted since the template was saved is left out of its item.
 */
export async function plansFromTemplate(
  db: Db,
  tenantId: number,
  input: { id: number; date: string; weeks: number },
): Promise<{ plans: { id: number; date: string; title: string }[] }> {
  return db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom('servicePlanTemplates')
      .selectAll()
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    if (!t) throw notFound('Template not found');
    const songIds = t.items.flatMap((i) => (i.song ? [i.song.songId] : []));
    const liveSongs = new Set(
      songIds.length
        ? (
            await trx
              .selectFrom('songs')
              .select('id')
              .where('userId', '=', tenantId)
              .where('id', 'in', songIds)
              .execute()
          ).map((s) => s.id)
        : [],
    );
    const typeIds = t.items.flatMap((i) => (i.serviceItemTypeId ? [i.serviceItemTypeId] : []));
    const liveTypes = new Set(
      typeIds.length
        ? (
            await trx
              .selectFrom('serviceItemTypes')
              .select('id')
              .where('userId', '=', tenantId)
              .where('id', 'in', typeIds)
              .execute()
          ).map((s) => s.id)
        : [],
    );
    const plans: { id: number; date: string; title: string }[] = [];
    for (let week = 0; week < input.weeks; week++) {
      const date = addDays(input.date, 7 * week);
      const plan = await trx
        .insertInto('servicePlans')
        .values({
          userId: tenantId,
          title: t.title,
          date,
          startTime: t.startTime,
          endTime: t.endTime,
          location: t.location,
          serviceTimes: t.serviceTimes,
          positionsNeeded: t.positionsNeeded,
          status: 'draft',
        })
        .returning(['id', 'date', 'title'])
        .executeTakeFirstOrThrow();
      for (const [position, item] of t.items.entries()) {
        const row = await trx
          .insertInto('serviceItems')
          .values({
            userId: tenantId,
            servicePlanId: plan.id,
            serviceItemTypeId:
              item.serviceItemTypeId && liveTypes.has(item.serviceItemTypeId) ? item.serviceItemTypeId : null,
            title: item.title,
            description: item.description,
            duration: item.duration,
            notes: item.notes,
            position,
            content: JSON.stringify(item.content ?? {}),
            isRehearsalNeeded: item.isRehearsalNeeded,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (item.song && liveSongs.has(item.song.songId))
          await trx
            .insertInto('servicePlanSongs')
            .values({
              userId: tenantId,
              servicePlanId: plan.id,
              serviceItemId: row.id,
              songId: item.song.songId,
              keySignature: item.song.keySignature,
              notes: item.song.notes,
              arrangement: item.song.arrangement,
            })
            .execute();
      }
      await storeItemStartTimes(trx, tenantId, { planId: plan.id });
      plans.push(plan);
    }
    return { plans };
  });
}
