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
    .input(contactIdSchema)
    .output(z.array(childSchema))
    .query(({ ctx, input }) => listChildren(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .input(addChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input: { id, ...fields } }) =>
      addChild(ctx.db, ctx.tenantId, { ...fields, parentContactId: id }),
    ),
  update: protectedProcedure
    .input(updateChildSchema)
    .output(childSchema)
    .mutation(({ ctx, input }) => updateChild(ctx.db, ctx.tenantId, input)),
  remove: protectedProcedure
    .input(childIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeChild(ctx.db, ctx.tenantId, input.childId)),
  addToList: protectedProcedure
    .input(childToListSchema)
    .output(z.object({ childId: z.number().int(), listId: z.number().int() }))
    .mutation(({ ctx, input }) =>
      addChildToList(ctx.db, ctx.tenantId, { childId: input.childId, listId: input.listId! }),
    ),
});
