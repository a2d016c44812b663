import { z } from 'zod';
import {
  consentEventSchema,
  contactIdSchema,
  contactMergeResultSchema,
  contactPageSchema,
  contactSchema,
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
import { protectedProcedure, router, streamedProcedure } from '../../trpc.js';

/** Who made a change, for consent history and the merge log. */
function staffSource(ctx: { effectiveUser: { _impersonatedBy?: { username: string } | null } }): string {
  return ctx.effectiveUser._impersonatedBy ? `staff (admin ${ctx.effectiveUser._impersonatedBy.username})` : 'staff';
}

export const contactsRouter = router({
  // GET /api/contacts and GET /api/contacts/export, streamed (openContactsExport, openContactsCsvExport).
  list: streamedProcedure.output(z.array(contactSchema)).query(() => []),
  export: streamedProcedure
    .input(exportContactsSchema)
    .output(csvFileSchema)
    .query(() => ({ fileName: '', csv: '' })),
  find: protectedProcedure
    .input(findContactsSchema)
    .output(contactPageSchema)
    .query(({ ctx, input }) => findContacts(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(contactIdSchema)
    .output(contactSchema)
    .query(({ ctx, input }) => getContact(ctx.db, ctx.tenantId, input.id)),
  create: protectedProcedure
    .input(createContactSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) => createContact(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateContactSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) => updateContact(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(contactIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteContact(ctx.db, ctx.tenantId, input.id)),
  duplicates: protectedProcedure
    .input(findDuplicatesSchema)
    .output(z.array(duplicateContactSchema))
    .query(({ ctx, input }) => findDuplicateContacts(ctx.db, ctx.tenantId, input)),
  merge: protectedProcedure
    .input(mergeContactsSchema)
    .output(contactMergeResultSchema)
    .mutation(({ ctx, input }) => mergeContacts(ctx.db, ctx.tenantId, { ...input, mergedBy: staffSource(ctx) })),
  updateConsent: protectedProcedure
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
    .input(contactIdSchema)
    .output(z.array(consentEventSchema))
    .query(({ ctx, input }) => consentHistory(ctx.db, ctx.tenantId, input.id)),
});
