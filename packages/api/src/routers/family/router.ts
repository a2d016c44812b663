import { z } from 'zod';
import { addFamilyLinkSchema, contactIdSchema, familyItemSchema, familyLinkIdSchema } from '../../schemas/contacts.js';
import { addFamilyLink, listFamily, removeFamilyLink } from '../../services/contacts/family.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Family');

export const familyRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/contacts/{id}/family', "A contact's family links (link, contact, relationship, isInverse)"))
    .input(contactIdSchema)
    .output(z.array(familyItemSchema))
    .query(({ ctx, input }) => listFamily(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .meta(
      rest.post('/api/contacts/{id}/family', 'Link a family member (relatedContactId, relationship)', {
        status: 201,
        errors: [409],
      }),
    )
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
    .meta(rest.delete('/api/contacts/family/{linkId}', 'Remove a family link'))
    .input(familyLinkIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeFamilyLink(ctx.db, ctx.tenantId, input.linkId)),
});
