import { z } from 'zod';
import {
  consentEventSchema,
  contactIdSchema,
  contactMergeResultSchema,
  contactPageSchema,
  contactSchema,
  contactTagsSchema,
  createContactSchema,
  csvFileSchema,
  duplicateContactSchema,
  exportContactsSchema,
  findContactsSchema,
  findDuplicatesSchema,
  mergeContactsSchema,
  updateConsentSchema,
  updateContactSchema,
} from '../../schemas/contacts.js';
import {
  createContact,
  deleteContact,
  findContacts,
  getContact,
  updateContact,
} from '../../services/contacts/contacts.js';
import { consentHistory, setConsent } from '../../services/contacts/consent.js';
import { findDuplicateContacts, mergeContacts } from '../../services/contacts/merge.js';
import { openContactsCsvExport, openContactsExport } from '../../services/contacts/export.js';
import { listContactTags } from '../../services/contacts/tags.js';
import { protectedProcedure, router, streamedProcedure } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';
import { exactOutput } from '../../exact-output.js';

const rest = restTag('Contacts');

/** Who made a change, for consent history and the merge log. */
function staffSource(ctx: { effectiveUser: { _impersonatedBy?: { username: string } | null } }): string {
  return ctx.effectiveUser._impersonatedBy ? `staff (admin ${ctx.effectiveUser._impersonatedBy.username})` : 'staff';
}

export const contactsRouter = router({
  list: streamedProcedure
    .meta(
      rest.get('/api/contacts', 'Every contact of the church, by name', {
        errors: [429],
        stream: ({ db, tenantId }) => openContactsExport(db, tenantId),
      }),
    )
    .output(z.array(contactSchema))
    .query(() => []),
  export: streamedProcedure
    .meta(
      rest.get('/api/contacts/export', 'All contacts, or one list (listId), as CSV', {
        format: 'csv',
        errors: [429],
        stream: ({ db, tenantId }, input) => openContactsCsvExport(db, tenantId, input as { listId?: number }),
      }),
    )
    .input(exportContactsSchema)
    .output(csvFileSchema)
    .query(() => ({ fileName: '', csv: '' })),
  find: protectedProcedure
    .meta(
      rest.get(
        '/api/contacts/search',
        'A page of contacts: search (name, email, phone), tab (all, members, staff), listId, page, pageSize',
      ),
    )
    .input(findContactsSchema)
    .output(contactPageSchema)
    .query(async ({ ctx, input }) => exactOutput(contactPageSchema, await findContacts(ctx.db, ctx.tenantId, input))),
  tags: protectedProcedure
    .meta(rest.get('/api/contacts/tags', "Every tag on the church's contacts, A to Z"))
    .output(contactTagsSchema)
    .query(({ ctx }) => listContactTags(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .meta(rest.get('/api/contacts/{id}', 'One contact'))
    .input(contactIdSchema)
    .output(contactSchema)
    .query(({ ctx, input }) => getContact(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .meta(
      rest.post('/api/contacts', "Create a contact (ifDuplicate 'ask': 409 naming contacts with its email or phone)", {
        status: 201,
        errors: [409],
      }),
    )
    .input(createContactSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) => createContact(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(
      rest.patch(
        '/api/contacts/{id}',
        'Change a contact (partial: unsent fields keep their values, metadata is merged, E.164 recomputed)',
        { errors: [409] },
      ),
    )
    .input(updateContactSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) => updateContact(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(
      rest.delete(
        '/api/contacts/{id}',
        'Delete a contact with its list memberships, family, children, groups and check-in history (their gifts stay in the ledger)',
      ),
    )
    .input(contactIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteContact(ctx.db, ctx.tenantId, input.id)),
  duplicates: protectedProcedure
    .meta(
      rest.get(
        '/api/contacts/duplicates',
        'Contacts with this email (any case) or phone (compared in E.164 with countryCode); excludeId skips one',
      ),
    )
    .input(findDuplicatesSchema)
    .output(z.array(duplicateContactSchema))
    .query(({ ctx, input }) => findDuplicateContacts(ctx.db, ctx.tenantId, input)),
  merge: protectedProcedure
    .meta(
      rest.post(
        '/api/contacts/{id}/merge',
        'Merge contact otherId into this one: lists, family, children, consent history move; otherId is deleted; logged',
      ),
    )
    .input(mergeContactsSchema)
    .output(contactMergeResultSchema)
    .mutation(({ ctx, input }) => mergeContacts(ctx.db, ctx.tenantId, { ...input, mergedBy: staffSource(ctx) })),
  updateConsent: protectedProcedure
    .meta(rest.put('/api/contacts/{id}/consent', "Set a contact's email or SMS consent"))
    .input(updateConsentSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) =>
      setConsent(ctx.db, ctx.tenantId, {
        contactId: input.id,
        channel: input.channel,
        status: input.status,
        source: staffSource(ctx),
        note: input.note,
      }),
    ),
  consentHistory: protectedProcedure
    .meta(rest.get('/api/contacts/{id}/consent', "A contact's consent changes, newest first"))
    .input(contactIdSchema)
    .output(z.array(consentEventSchema))
    .query(({ ctx, input }) => consentHistory(ctx.db, ctx.tenantId, input.id)),
});
