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

const idOut = z.object({ id: z.number().int() });

/** Platform administration of templates, packages and their assignment to churches. */
export const adminTemplatesRouter = router({
  templates: adminProcedure
    .meta({
      rest: { method: 'GET', path: '/api/admin/marketing-templates', summary: 'All marketing templates', tag: 'Admin' },
    })
    .output(z.array(templateSchema))
    .query(({ ctx }) => svc.listTemplates(ctx.db)),
  createTemplate: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/marketing-templates',
        summary: 'Create a template (content kept as given for its type)',
        tag: 'Admin',
        status: 201,
      },
    })
    .input(templateFieldsSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.createTemplate(ctx.db, input)),
  updateTemplate: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/marketing-templates/{id}',
        summary: 'Replace a template (PUT: send the whole record; unsent optional fields are cleared)',
        tag: 'Admin',
        errors: [409],
      },
    })
    .input(updateTemplateSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.updateTemplate(ctx.db, input)),
  deleteTemplate: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/marketing-templates/{id}',
        summary: 'Delete a template',
        tag: 'Admin',
      },
    })
    .input(templateIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteTemplate(ctx.db, input.id)),
  packages: adminProcedure
    .meta({
      rest: { method: 'GET', path: '/api/admin/marketing-packages', summary: 'All marketing packages', tag: 'Admin' },
    })
    .output(z.array(packageSchema))
    .query(({ ctx }) => svc.listPackages(ctx.db)),
  createPackage: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/marketing-packages',
        summary: 'Create a package (links only to templates of the matching type)',
        tag: 'Admin',
        status: 201,
      },
    })
    .input(packageFieldsSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.createPackage(ctx.db, input)),
  updatePackage: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/marketing-packages/{id}',
        summary: 'Replace a package (PUT: send the whole record; unsent optional fields are cleared)',
        tag: 'Admin',
      },
    })
    .input(updatePackageSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.updatePackage(ctx.db, input)),
  deletePackage: adminProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/admin/marketing-packages/{id}', summary: 'Delete a package', tag: 'Admin' },
    })
    .input(packageIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deletePackage(ctx.db, input.id)),
  assignments: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/assignments',
        summary: "A church's assigned templates and packages (?userId=)",
        tag: 'Admin',
      },
    })
    .input(assignmentQuerySchema)
    .output(z.array(assignmentSchema))
    .query(({ ctx, input }) => svc.listAssignments(ctx.db, input.userId)),
  /** The churches one template is assigned to (the Assign to churches dialog reads this once). */
  templateChurches: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/marketing-templates/{id}/churches',
        summary: 'The churches a template is assigned to (userId with the assignment id, to unassign)',
        tag: 'Admin',
      },
    })
    .input(templateIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { templateId: input.id })),
  packageChurches: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/marketing-packages/{id}/churches',
        summary: 'The churches a package is assigned to (userId with the assignment id, to unassign)',
        tag: 'Admin',
      },
    })
    .input(packageIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { packageId: input.id })),
  assign: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/assignments',
        summary: 'Assign a template or a package (userId with templateId or packageId)',
        tag: 'Admin',
        status: 201,
        errors: [409],
      },
    })
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => svc.createAssignment(ctx.db, input)),
  unassign: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/admin/assignments/{id}', summary: 'Unassign', tag: 'Admin' } })
    .input(assignmentIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteAssignment(ctx.db, input.id)),
});

/** What a church sees: only active templates and packages assigned to it. */
export const templatesRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/templates',
        summary: 'Active templates assigned to this church (directly or by package)',
        tag: 'Templates',
      },
    })
    .output(z.array(templateSchema))
    .query(({ ctx }) => svc.churchTemplates(ctx.db, ctx.tenantId)),
  packages: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/packages',
        summary: 'Active packages assigned to this church, with their templates',
        tag: 'Templates',
      },
    })
    .output(z.array(churchPackageSchema))
    .query(({ ctx }) => svc.churchPackages(ctx.db, ctx.tenantId)),
  use: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/templates/{id}/use',
        summary: 'Start a draft from a template in the matching tool',
        tag: 'Templates',
      },
    })
    .input(templateIdSchema)
    .output(useTemplateResultSchema)
    .mutation(({ ctx, input }) => svc.useTemplate(ctx.db, ctx.services.jobs, ctx.tenantId, input.id)),
});
