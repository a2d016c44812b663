import {
  contactImportSchema,
  importIdSchema,
  startImportSchema,
  uploadImportSchema,
} from '../../schemas/contact-imports.js';
import { getImport, startImport, uploadImport } from '../../services/contacts/import.js';
import { protectedProcedure, router } from '../../trpc.js';

export const contactImportsRouter = router({
  upload: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contacts/import',
        summary: 'Upload a CSV (fileName, csv): columns, preview and suggested mapping',
        tag: 'Contacts',
        status: 201,
        bodyLimit: 25 * 1024 * 1024,
        errors: [413],
      },
    })
    .input(uploadImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => uploadImport(ctx.db, ctx.tenantId, input)),
  start: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/contacts/import/{id}/start',
        summary: 'Confirm the column mapping (and optional listId) and import in the background',
        tag: 'Contacts',
        errors: [409, 429],
      },
    })
    .input(startImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => startImport(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/contacts/import/{id}',
        summary: 'Progress and report of an import',
        tag: 'Contacts',
      },
    })
    .input(importIdSchema)
    .output(contactImportSchema)
    .query(({ ctx, input }) => getImport(ctx.db, ctx.tenantId, input.id, { preview: true })),
});
