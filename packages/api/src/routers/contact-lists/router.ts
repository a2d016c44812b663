import { z } from 'zod';
import {
  addMatchingToListResultSchema,
  addMatchingToListSchema,
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
  addMatchingContactsToList,
  createContactList,
  deleteContactList,
  listContactLists,
  listsOfContact,
  removeContactFromList,
  updateContactList,
} from '../../services/contacts/lists.js';
import { openContactsExport } from '../../services/contacts/export.js';
import { protectedProcedure, router, streamedProcedure } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Contact lists');

const membership = z.object({ listId: z.number().int(), contactId: z.number().int() });

export const contactListsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/contact-lists', 'Contact lists; include_counts=true adds contactCount'))
    .input(listContactListsSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listContactLists(ctx.db, ctx.tenantId, { includeCounts: input.include_counts })),
  create: protectedProcedure
    .meta(rest.post('/api/contact-lists', 'Create a list', { status: 201 }))
    .input(createContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => createContactList(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.put(
        '/api/contact-lists/{id}',
        'Replace a list (PUT: send the whole record; unsent optional fields are cleared)',
      ),
    )
    .input(updateContactListSchema)
    .output(contactListSchema)
    .mutation(({ ctx, input }) => updateContactList(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/contact-lists/{id}', 'Delete a list (its contacts stay)'))
    .input(listIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteContactList(ctx.db, ctx.tenantId, input.id)),
  // GET /api/contact-lists/{id}/contacts, streamed (openContactsExport with the list).
  contacts: streamedProcedure
    .meta(
      rest.get('/api/contact-lists/{id}/contacts', 'Contacts in a list', {
        errors: [429],
        stream: ({ db, tenantId }, input) => openContactsExport(db, tenantId, { listId: (input as { id: number }).id }),
      }),
    )
    .input(listIdSchema)
    .output(z.array(contactSchema))
    .query(() => []),
  addContact: protectedProcedure
    .meta(rest.post('/api/contact-lists/{listId}/contacts/{contactId}', 'Add a contact to a list'))
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => addContactToList(ctx.db, ctx.tenantId, input)),
  addMatching: protectedProcedure
    .meta(
      rest.post(
        '/api/contact-lists/{listId}/contacts/matching',
        'Add every contact matching a search (and tab) to a list; added counts the newly added',
      ),
    )
    .input(addMatchingToListSchema)
    .output(addMatchingToListResultSchema)
    .mutation(async ({ ctx, input }) => ({
      listId: input.listId,
      added: await addMatchingContactsToList(ctx.db, ctx.tenantId, input),
    })),
  removeContact: protectedProcedure
    .meta(rest.delete('/api/contact-lists/{listId}/contacts/{contactId}', 'Remove a contact from a list'))
    .input(listMembershipSchema)
    .output(membership)
    .mutation(({ ctx, input }) => removeContactFromList(ctx.db, ctx.tenantId, input)),
  ofContact: protectedProcedure
    .meta(rest.get('/api/contacts/{id}/lists', 'Lists a contact is in'))
    .input(contactIdSchema)
    .output(z.array(contactListSchema))
    .query(({ ctx, input }) => listsOfContact(ctx.db, ctx.tenantId, input.id)),
});
