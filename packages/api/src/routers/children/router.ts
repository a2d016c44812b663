import { z } from 'zod';
import {
  addChildSchema,
  childIdSchema,
  childSchema,
  childToListSchema,
  contactIdSchema,
  updateChildSchema,
} from '../../schemas/contacts.js';
import { addChild, addChildToList, listChildren, removeChild, updateChild } from '../../services/contacts/children.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Children');

export const childrenRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/contacts/{id}/children', "A contact's children"))
    .input(contactIdSchema)
    .output(z.array(childSchema))
    .query(({ ctx, input }) => listChildren(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .meta(rest.post('/api/contacts/{id}/children', 'Add a child', { status: 201 }))
    .input(addChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      addChild(ctx.db, ctx.tenantId, { ...fields, parentContactId: id }),
    ),
  update: protectedProcedure
    .meta(rest.patch('/api/contacts/children/{childId}', 'Change a child (partial: unsent fields keep their values)'))
    .input(updateChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input }) => updateChild(ctx.db, ctx.tenantId, input)),
  remove: protectedProcedure
    .meta(rest.delete('/api/contacts/children/{childId}', 'Remove a child'))
    .input(childIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeChild(ctx.db, ctx.tenantId, input.childId)),
  addToList: protectedProcedure
    .meta(rest.post('/api/contacts/children/{childId}/lists/{listId}', 'Add a child to a list of type sms or both'))
    .input(childToListSchema)
    .output(z.object({ childId: z.number().int(), listId: z.number().int() }))
    .mutation(({ ctx, input }) =>
      addChildToList(ctx.db, ctx.tenantId, { childId: input.childId, listId: input.listId! }),
    ),
});
