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
import { restTag } from '../../rest-meta.js';

const rest = restTag('Children');

export const childGroupsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/child-groups', 'Child groups'))
    .output(z.array(childGroupSchema))
    .query(({ ctx }) => listChildGroups(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(rest.post('/api/child-groups', 'Create a child group', { status: 201 }))
    .input(createChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => createChildGroup(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.put(
        '/api/child-groups/{id}',
        'Replace a child group (PUT: send the whole record; unsent optional fields are cleared)',
      ),
    )
    .input(updateChildGroupSchema)
    .output(childGroupSchema)
    .mutation(({ ctx, input }) => updateChildGroup(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/child-groups/{id}', 'Delete a child group (its children stay, without a group)'))
    .input(childGroupIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteChildGroup(ctx.db, ctx.tenantId, input.id)),
});
