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
  list: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/child-groups', summary: 'Child groups', tag: 'Children' } })
    .output(z.array(childGroupSchema))
    .query(({ ctx }) => listChildGroups(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/child-groups',
        summary: 'Create a child group',
        tag: 'Children',
        status: 201,
      },
    })
    .input(createChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => createChildGroup(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/child-groups/{id}',
        summary: 'Replace a child group (PUT: send the whole record; unsent optional fields are cleared)',
        tag: 'Children',
      },
    })
    .input(updateChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => updateChildGroup(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/child-groups/{id}',
        summary: 'Delete a child group (its children stay, without a group)',
        tag: 'Children',
      },
    })
    .input(childGroupIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteChildGroup(ctx.db, ctx.tenantId, input.id)),
});
