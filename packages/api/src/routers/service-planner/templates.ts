import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  createTemplateSchema,
  okIdSchema,
  planTemplateSchema,
  plansFromTemplateResultSchema,
  plansFromTemplateSchema,
  templateIdSchema,
} from '../../schemas/service-planner.js';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  plansFromTemplate,
} from '../../services/service-planner/templates.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const templatesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/templates', 'Plan templates'))
    .output(z.array(planTemplateSchema))
    .query(({ ctx }) => listTemplates(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/templates',
        'Save a plan as a template: its times, items with lengths and songs, and the positions its team fills',
        { status: 201, errors: [409] },
      ),
    )
    .input(createTemplateSchema)
    .output(planTemplateSchema)
    .mutation(({ ctx, input }) => createTemplate(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/templates/{id}', 'Delete a plan template (plans made from it stay)'))
    .input(templateIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.tenantId, input)),
  createPlans: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/templates/{id}/plans',
        'New draft plans from a template: on a date, or every week for N weeks (weeks, at most 52)',
        { status: 201 },
      ),
    )
    .input(plansFromTemplateSchema)
    .output(plansFromTemplateResultSchema)
    .mutation(({ ctx, input }) => plansFromTemplate(ctx.db, ctx.tenantId, input)),
});
