import {
  contactImportSchema,
  importIdSchema,
  startImportSchema,
  uploadImportSchema,
} from '../../schemas/contact-imports.js';
import { getImport, startImport, uploadImport } from '../../services/contacts/import.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Contacts');

export const contactImportsRouter = router({
  upload: protectedProcedure
    .meta(
      rest.post('/api/contacts/import', 'Upload a CSV (fileName, csv): columns, preview and suggested mapping', {
        status: 201,
        bodyLimit: 25 * 1024 * 1024,
        errors: [413],
      }),
    )
    .input(uploadImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => uploadImport(ctx.db, ctx.tenantId, input)),
  start: protectedProcedure
    .meta(
      rest.post(
        '/api/contacts/import/{id}/start',
        'Confirm the column mapping (and optional listId) and import in the background',
        { errors: [409, 429] },
      ),
    )
    .input(startImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => startImport(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/contacts/import/{id}', 'Progress and report of an import'))
    .input(importIdSchema)
    .output(contactImportSchema)
    .query(({ ctx, input }) => getImport(ctx.db, ctx.tenantId, input.id, { preview: true })),
});
