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
  templates: adminProcedure.output(z.array(templateSchema)).query(({ ctx }) => svc.listTemplates(ctx.db)),
  createTemplate: adminProcedure
    .input(templateFieldsSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.createTemplate(ctx.db, input)),
  updateTemplate: adminProcedure
    .input(updateTemplateSchema)
    .output(templateSchema)
    .mutation(({ ctx, input }) => svc.updateTemplate(ctx.db, input)),
  deleteTemplate: adminProcedure
    .input(templateIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteTemplate(ctx.db, input.id)),
  packages: adminProcedure.output(z.array(packageSchema)).query(({ ctx }) => svc.listPackages(ctx.db)),
  createPackage: adminProcedure
    .input(packageFieldsSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.createPackage(ctx.db, input)),
  updatePackage: adminProcedure
    .input(updatePackageSchema)
    .output(packageSchema)
    .mutation(({ ctx, input }) => svc.updatePackage(ctx.db, input)),
  deletePackage: adminProcedure
    .input(packageIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deletePackage(ctx.db, input.id)),
  assignments: adminProcedure
    .input(assignmentQuerySchema)
    .output(z.array(assignmentSchema))
    .query(({ ctx, input }) => svc.listAssignments(ctx.db, input.userId)),
  /** The churches one template is assigned to (the Assign to churches dialog reads this once). */
  templateChurches: adminProcedure
    .input(templateIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { templateId: input.id })),
  packageChurches: adminProcedure
    .input(packageIdSchema)
    .output(z.array(assignedChurchSchema))
    .query(({ ctx, input }) => svc.listAssignedChurches(ctx.db, { packageId: input.id })),
  assign: adminProcedure
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => svc.createAssignment(ctx.db, input)),
  unassign: adminProcedure
    .input(assignmentIdSchema)
    .output(idOut)
    .mutation(({ ctx, input }) => svc.deleteAssignment(ctx.db, input.id)),
});

/** What a church sees: only active templates and packages assigned to it. */
export const templatesRouter = router({
  list: protectedProcedure
    .output(z.array(templateSchema))
    .query(({ ctx }) => svc.churchTemplates(ctx.db, ctx.tenantId)),
  packages: protectedProcedure
    .output(z.array(churchPackageSchema))
    .query(({ ctx }) => svc.churchPackages(ctx.db, ctx.tenantId)),
  use: protectedProcedure
    .input(templateIdSchema)
    .output(useTemplateResultSchema)
    .mutation(({ ctx, input }) => svc.useTemplate(ctx.db, ctx.services.jobs, ctx.tenantId, input.id)),
});
