import { z } from 'zod';
import {
  consentEventSchema,
  contactIdSchema,
  contactPageSchema,
  contactSchema,
  createContactSchema,
  findContactsSchema,
  updateConsentSchema,
  updateContactSchema,
} from '../../schemas/contacts.js';
import {
  createContact,
  deleteContact,
  findContacts,
  getContact,
  listContacts,
  updateContact,
} from '../../services/contacts/contacts.js';
import { consentHistory, setConsent } from '../../services/contacts/consent.js';
import { protectedProcedure, router } from '../../trpc.js';

export const contactsRouter = router({
  list: protectedProcedure.output(z.array(contactSchema)).query(({ ctx }) => listContacts(ctx.db, ctx.tenantId)),
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
  updateConsent: protectedProcedure
    .input(updateConsentSchema)
    .output(contactSchema)
    .mutation(({ ctx, input }) =>
      setConsent(ctx.db, ctx.tenantId, input.id, {
        channel: input.channel,
        status: input.status,
        source: ctx.effectiveUser._impersonatedBy
          ? `staff (admin ${ctx.effectiveUser._impersonatedBy.username})`
          : 'staff',
        note: input.note,
      }),
    ),
  consentHistory: protectedProcedure
    .input(contactIdSchema)
    .output(z.array(consentEventSchema))
    .query(({ ctx, input }) => consentHistory(ctx.db, ctx.tenantId, input.id)),
});
