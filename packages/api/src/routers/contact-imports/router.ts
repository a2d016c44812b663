import {
  contactImportSchema,
  importHouseholdsResultSchema,
  importHouseholdsSchema,
  importIdSchema,
  startImportSchema,
  uploadImportSchema,
} from '../../schemas/contact-imports.js';
import { getImport, startImport, uploadImport } from '../../services/contacts/import.js';
import { countHouseholds } from '../../services/contacts/import-households.js';
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
  households: protectedProcedure
    .meta(
      rest.get(
        '/api/contacts/import/{id}/households',
        'How many families a household column (column) of an uploaded import would make',
      ),
    )
    .input(importHouseholdsSchema)
    .output(importHouseholdsResultSchema)
    .query(({ ctx, input }) => countHouseholds(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/contacts/import/{id}', 'Progress and report of an import'))
    .input(importIdSchema)
    .output(contactImportSchema)
    .query(({ ctx, input }) => getImport(ctx.db, ctx.tenantId, input.id, { preview: true })),
});
