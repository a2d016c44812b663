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

export const childrenRouter = router({
  list: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/contacts/{id}/children', summary: "A contact's children", tag: 'Children' },
    })
    .input(contactIdSchema)
    .output(z.array(childSchema))
    .query(({ ctx, input }) => listChildren(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contacts/{id}/children',
        summary: 'Add a child',
        tag: 'Children',
        status: 201,
      },
    })
    .input(addChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      addChild(ctx.db, ctx.tenantId, { ...fields, parentContactId: id }),
    ),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/contacts/children/{childId}',
        summary: 'Change a child (partial: unsent fields keep their values)',
        tag: 'Children',
      },
    })
    .input(updateChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input }) => updateChild(ctx.db, ctx.tenantId, input)),
  remove: protectedProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/contacts/children/{childId}', summary: 'Remove a child', tag: 'Children' },
    })
    .input(childIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeChild(ctx.db, ctx.tenantId, input.childId)),
  addToList: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contacts/children/{childId}/lists/{listId}',
        summary: 'Add a child to a list of type sms or both',
        tag: 'Children',
      },
    })
    .input(childToListSchema)
    .output(z.object({ childId: z.number().int(), listId: z.number().int() }))
    .mutation(({ ctx, input }) =>
      addChildToList(ctx.db, ctx.tenantId, { childId: input.childId, listId: input.listId! }),
    ),
});
