import type { z } from 'zod';
import type { Db } from '@lampstand/db';
import type { plannerSettingsSchema } from '../../schemas/service-planner.js';

// The planner's settings: reminder days before a plan, and how long teammates
// have to cover a slot before the leader is told. Edited in the Service Planner's Settings.

export const DEFAULT_REMINDER_DAYS = [3, 1];
export const DEFAULT_SUBSTITUTE_HOURS = 48;

type PlannerSettings = z.infer<typeof plannerSettingsSchema>;

export async function getPlannerSettings(db: Db, tenantId: number): Promise<PlannerSettings> {
  const row = await db
    .selectFrom('servicePlannerSettings')
    .select(['reminderDays', 'substituteHours'])
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return {
    reminderDays: row?.reminderDays ?? DEFAULT_REMINDER_DAYS,
    substituteHours: row?.substituteHours ?? DEFAULT_SUBSTITUTE_HOURS,
  };
}

/** Partial: an unsent field keeps its value. No reminder days = no reminders. */
export async function updatePlannerSettings(
  db: Db,
  tenantId: number,
  input: Partial<PlannerSettings>,
): Promise<PlannerSettings> {
  const current = await getPlannerSettings(db, tenantId);
  const next = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  await db
    .insertInto('servicePlannerSettings')
    .values({ userId: tenantId, reminderDays: next.reminderDays, substituteHours: next.substituteHours })
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet({
        reminderDays: next.reminderDays,
        substituteHours: next.substituteHours,
        updatedAt: new Date(),
      }),
    )
    .execute();
  return next;
}
