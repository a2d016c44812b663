import { restTag } from '../../rest-meta.js';
import { plannerSettingsSchema, updatePlannerSettingsSchema } from '../../schemas/service-planner.js';
import { getPlannerSettings, updatePlannerSettings } from '../../services/service-planner/planner-settings.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

/** Reminders before a plan, and how long teammates have to cover a slot. */
export const plannerSettingsRouter = router({
  get: protectedProcedure
    .meta(rest.get('/api/service-planner/settings', 'Reminder days before a plan, and hours to find a substitute'))
    .output(plannerSettingsSchema)
    .query(({ ctx }) => getPlannerSettings(ctx.db, ctx.tenantId)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/settings', 'Change the reminder days or the hours to find a substitute'))
    .input(updatePlannerSettingsSchema)
    .output(plannerSettingsSchema)
    .mutation(({ ctx, input }) => updatePlannerSettings(ctx.db, ctx.tenantId, input)),
});
