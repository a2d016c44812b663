import { z } from 'zod';
import {
  createProjectSchema,
  createUpdateSchema,
  findProjectsSchema,
  projectIdSchema,
  projectPageSchema,
  projectSchema,
  projectUpdateSchema,
  supporterSchema,
  updateProjectSchema,
} from '../../schemas/show-up.js';
import { createProject, findProjects, getProject, updateProject } from '../../services/show-up/projects.js';
import { createUpdate, listSupporters, listUpdates } from '../../services/show-up/updates.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';

export const showUpRouter = router({
  list: publicProcedure
    .input(findProjectsSchema)
    .output(projectPageSchema)
    .query(({ ctx, input }) => findProjects(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  get: publicProcedure
    .input(projectIdSchema)
    .output(projectSchema)
    .query(({ ctx, input }) => getProject(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  updates: publicProcedure
    .input(projectIdSchema)
    .output(z.array(projectUpdateSchema))
    .query(({ ctx, input }) => listUpdates(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  supporters: publicProcedure
    .input(projectIdSchema)
    .output(z.array(supporterSchema))
    .query(({ ctx, input }) => listSupporters(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  create: protectedProcedure
    .input(createProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.tenantId, input)),
  createUpdate: protectedProcedure
    .input(createUpdateSchema)
    .output(projectUpdateSchema)
    .mutation(({ ctx, input }) => createUpdate(ctx.db, ctx.tenantId, input)),
});
