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
import { openContactsExport } from '../../services/contacts/export.js';
import { protectedProcedure, router, streamedProcedure } from '../../trpc.js';

const membership = z.object({ listId: z.number().int(), contactId: z.number().int() });

export const contactListsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/contact-lists',
        summary: 'Contact lists; include_counts=true adds contactCount',
        tag: 'Contact lists',
      },
    })
    .input(listContactListsSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listContactLists(ctx.db, ctx.tenantId, { includeCounts: input.include_counts })),
  create: protectedProcedure
    .meta({
      rest: { method: 'POST', path: '/api/contact-lists', summary: 'Create a list', tag: 'Contact lists', status: 201 },
    })
    .input(createContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => createContactList(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/contact-lists/{id}',
        summary: 'Replace a list (PUT: send the whole record; unsent optional fields are cleared)',
        tag: 'Contact lists',
      },
    })
    .input(updateContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => updateContactList(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/contact-lists/{id}',
        summary: 'Delete a list (its contacts stay)',
        tag: 'Contact lists',
      },
    })
    .input(listIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteContactList(ctx.db, ctx.tenantId, input.id)),
  // GET /api/contact-lists/{id}/contacts, streamed (openContactsExport with the list).
  contacts: streamedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/contact-lists/{id}/contacts',
        summary: 'Contacts in a list',
        tag: 'Contact lists',
        errors: [429],
        stream: ({ db, tenantId }, input) => openContactsExport(db, tenantId, { listId: (input as { id: number }).id }),
      },
    })
    .input(listIdSchema)
    .output(z.array(contactSchema))
    .query(() => []),
  addContact: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contact-lists/{listId}/contacts/{contactId}',
        summary: 'Add a contact to a list',
        tag: 'Contact lists',
      },
    })
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => addContactToList(ctx.db, ctx.tenantId, input)),
  removeContact: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/contact-lists/{listId}/contacts/{contactId}',
        summary: 'Remove a contact from a list',
        tag: 'Contact lists',
      },
    })
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => removeContactFromList(ctx.db, ctx.tenantId, input)),
  ofContact: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/contacts/{id}/lists', summary: 'Lists a contact is in', tag: 'Contact lists' },
    })
    .input(contactIdSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listsOfContact(ctx.db, ctx.tenantId, input.id)),
});
