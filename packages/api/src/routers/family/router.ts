import { z } from 'zod';
import { addFamilyLinkSchema, contactIdSchema, familyItemSchema, familyLinkIdSchema } from '../../schemas/contacts.js';
import { addFamilyLink, listFamily, removeFamilyLink } from '../../services/contacts/family.js';
import { protectedProcedure, router } from '../../trpc.js';

export const familyRouter = router({
  list: protectedProcedure
    .input(contactIdSchema)
    .output(z.array(familyItemSchema))
    .query(({ ctx, input }) => listFamily(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .input(addFamilyLinkSchema)
    .output(familyItemSchema.shape.link)
    .mutation(({ ctx, input }) =>
      addFamilyLink(ctx.db, ctx.tenantId, {
        contactId: input.id,
        relatedContactId: input.relatedContactId,
        relationship: input.relationship,
      }),
    ),
  remove: protectedProcedure
    .input(familyLinkIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeFamilyLink(ctx.db, ctx.tenantId, input.linkId)),
});
