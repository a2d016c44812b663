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
    .input(uploadImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => uploadImport(ctx.db, ctx.tenantId, input)),
  start: protectedProcedure
    .input(startImportSchema)
    .output(contactImportSchema)
    .mutation(({ ctx, input }) => startImport(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  get: protectedProcedure
    .input(importIdSchema)
    .output(contactImportSchema)
    .query(({ ctx, input }) => getImport(ctx.db, ctx.tenantId, input.id, { preview: true })),
});
