import { z } from 'zod';
import {
  contactIdSchema,
  contactListSchema,
  contactSchema,
  createContactListSchema,
  listContactListsSchema,
  listIdSchema,
  listMembershipSchema,
  updateContactListSchema,
} from '../../schemas/contacts.js';
import {
  addContactToList,
  createContactList,
  deleteContactList,
  listContactLists,
  listsOfContact,
  removeContactFromList,
  updateContactList,
} from '../../services/contacts/lists.js';
import { protectedProcedure, router, streamedProcedure } from '../../trpc.js';

const membership = z.object({ listId: z.number().int(), contactId: z.number().int() });

export const contactListsRouter = router({
  list: protectedProcedure
    .input(listContactListsSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listContactLists(ctx.db, ctx.tenantId, { includeCounts: input.include_counts })),
  create: protectedProcedure
    .input(createContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => createContactList(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => updateContactList(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(listIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteContactList(ctx.db, ctx.tenantId, input.id)),
  // GET /api/contact-lists/{id}/contacts, streamed (openContactsExport with the list).
  contacts: streamedProcedure
    .input(listIdSchema)
    .output(z.array(contactSchema))
    .query(() => []),
  addContact: protectedProcedure
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => addContactToList(ctx.db, ctx.tenantId, input)),
  removeContact: protectedProcedure
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => removeContactFromList(ctx.db, ctx.tenantId, input)),
  ofContact: protectedProcedure
    .input(contactIdSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listsOfContact(ctx.db, ctx.tenantId, input.id)),
});
