import { z } from 'zod';
import { addFamilyLinkSchema, contactIdSchema, familyItemSchema, familyLinkIdSchema } from '../../schemas/contacts.js';
import { addFamilyLink, listFamily, removeFamilyLink } from '../../services/contacts/family.js';
import { protectedProcedure, router } from '../../trpc.js';

export const familyRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/contacts/{id}/family',
        summary: "A contact's family links (link, contact, relationship, isInverse)",
        tag: 'Family',
      },
    })
    .input(contactIdSchema)
    .output(z.array(familyItemSchema))
    .query(({ ctx, input }) => listFamily(ctx.db, ctx.tenantId, input.id)),
  add: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contacts/{id}/family',
        summary: 'Link a family member (relatedContactId, relationship)',
        tag: 'Family',
        status: 201,
        errors: [409],
      },
    })
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
    .meta({
      rest: { method: 'DELETE', path: '/api/contacts/family/{linkId}', summary: 'Remove a family link', tag: 'Family' },
    })
    .input(familyLinkIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => removeFamilyLink(ctx.db, ctx.tenantId, input.linkId)),
});
