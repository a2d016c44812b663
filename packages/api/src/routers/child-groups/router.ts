import { z } from 'zod';
import {
  childGroupIdSchema,
  childGroupSchema,
  createChildGroupSchema,
  updateChildGroupSchema,
} from '../../schemas/contacts.js';
import {
  createChildGroup,
  deleteChildGroup,
  listChildGroups,
  updateChildGroup,
} from '../../services/contacts/child-groups.js';
import { protectedProcedure, router } from '../../trpc.js';

export const childGroupsRouter = router({
  list: protectedProcedure.output(z.array(childGroupSchema)).query(({ ctx }) => listChildGroups(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .input(createChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => createChildGroup(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => updateChildGroup(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(childGroupIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteChildGroup(ctx.db, ctx.tenantId, input.id)),
});
