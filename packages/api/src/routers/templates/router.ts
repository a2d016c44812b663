import { z } from 'zod';
import {
  assignedChurchSchema,
  assignmentIdSchema,
  assignmentQuerySchema,
  assignmentSchema,
  churchPackageSchema,
  createAssignmentSchema,
  packageFieldsSchema,
  packageIdSchema,
  packageSchema,
  templateFieldsSchema,
  templateIdSchema,
  templateSchema,
  updatePackageSchema,
  updateTemplateSchema,
  useTemplateResultSchema,
} from '../../schemas/templates.js';
import * as svc from '../../services/templates/templates.js';
import { adminProcedure, protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Admin');
const templatesRest = restTag('Templates');

const idOut = z.object({ id: z.number().int() });

/** Platform administration of templates, packages and their assignment to churches. */
export const adminTemplatesRouter = router({
  templates: adminProcedure
    .meta(rest.get('/api/admin/marketing-templates', 'All marketing templates'))
    .output(z.array(templateSchema))
    .query(({ ctx }) => svc.listTemplates(ctx.db)),
  createTemplate: adminProcedure
    .meta(
      rest.post('/api/admin/marketing-templates', 'Create a template (content kept as given for its type)', {
        status: 201,
      }),
    )
    .input(templateFieldsSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.createTemplate(ctx.db, input)),
  updateTemplate: adminProcedure
    .meta(
      rest.put(
        '/api/admin/marketing-templates/{id}',
        'Replace a template (PUT: send the whole record; unsent optional fields are cleared)',
        { errors: [409] },
      ),
    )
    .input(updateTemplateSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.updateTemplate(ctx.db, input)),
  deleteTemplate: adminProcedure
    .meta(rest.delete('/api/admin/marketing-templates/{id}', 'Delete a template'))
    .input(templateIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteTemplate(ctx.db, input.id)),
  packages: adminProcedure
    .meta(rest.get('/api/admin/marketing-packages', 'All marketing packages'))
    .output(z.array(packageSchema))
    .query(({ ctx }) => svc.listPackages(ctx.db)),
  createPackage: adminProcedure
    .meta(
      rest.post('/api/admin/marketing-packages', 'Create a package (links only to templates of the matching type)', {
        status: 201,
      }),
    )
    .input(packageFieldsSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.createPackage(ctx.db, input)),
  updatePackage: adminProcedure
    .meta(
      rest.put(
        '/api/admin/marketing-packages/{id}',
        'Replace a package (PUT: send the whole record; unsent optional fields are cleared)',
      ),
    )
    .input(updatePackageSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.updatePackage(ctx.db, input)),
  deletePackage: adminProcedure
    .meta(rest.delete('/api/admin/marketing-packages/{id}', 'Delete a package'))
    .input(packageIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deletePackage(ctx.db, input.id)),
  assignments: adminProcedure
    .meta(rest.get('/api/admin/assignments', "A church's assigned templates and packages (?userId=)"))
    .input(assignmentQuerySchema)
    .output(z.array(assignmentSchema))
    .query(({ ctx, input }) => svc.listAssignments(ctx.db, input.userId)),
  /** The churches one template is assigned to (the Assign to churches dialog reads this once). */
  templateChurches: adminProcedure
    .meta(
      rest.get(
        '/api/admin/marketing-templates/{id}/churches',
        'The churches a template is assigned to (userId with the assignment id, to unassign)',
      ),
    )
    .input(templateIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { templateId: input.id })),
  packageChurches: adminProcedure
    .meta(
      rest.get(
        '/api/admin/marketing-packages/{id}/churches',
        'The churches a package is assigned to (userId with the assignment id, to unassign)',
      ),
    )
    .input(packageIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { packageId: input.id })),
  assign: adminProcedure
    .meta(
      rest.post('/api/admin/assignments', 'Assign a template or a package (userId with templateId or packageId)', {
        status: 201,
        errors: [409],
      }),
    )
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => svc.createAssignment(ctx.db, input)),
  unassign: adminProcedure
    .meta(rest.delete('/api/admin/assignments/{id}', 'Unassign'))
    .input(assignmentIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteAssignment(ctx.db, input.id)),
});

/** What a church sees: only active templates and packages assigned to it. */
export const templatesRouter = router({
  list: protectedProcedure
    .meta(templatesRest.get('/api/templates', 'Active templates assigned to this church (directly or by package)'))
    .output(z.array(templateSchema))
    .query(({ ctx }) => svc.churchTemplates(ctx.db, ctx.tenantId)),
  packages: protectedProcedure
    .meta(templatesRest.get('/api/packages', 'Active packages assigned to this church, with their templates'))
    .output(z.array(churchPackageSchema))
    .query(({ ctx }) => svc.churchPackages(ctx.db, ctx.tenantId)),
  use: protectedProcedure
    .meta(templatesRest.post('/api/templates/{id}/use', 'Start a draft from a template in the matching tool'))
    .input(templateIdSchema)
    .output(useTemplateResultSchema)
    .mutation(({ ctx, input }) => svc.useTemplate(ctx.db, ctx.services.jobs, ctx.tenantId, input.id)),
});
