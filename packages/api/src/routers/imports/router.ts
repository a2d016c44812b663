import { z } from 'zod';
import {
  commitImportSchema,
  importIdInputSchema,
  importPresetInputSchema,
  importPresetSchema,
  importSchema,
  uploadMoveInSchema,
} from '../../schemas/imports.js';
import { csvFileSchema } from '../../schemas/contacts.js';
import { commitMoveIn, getMoveIn, listMoveIns, moveInProblems, uploadMoveIn } from '../../services/imports/imports.js';
import { listImportPresets, saveImportPreset } from '../../services/imports/presets.js';
import { undoMoveIn } from '../../services/imports/undo.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';
import { giftRenewalsSchema } from '../../schemas/gift-renewals.js';
import { listRenewals } from '../../services/giving/renewals.js';

const rest = restTag('Imports');

/**
 * Moving in from another system. `POST /api/imports` takes the file as multipart/form-data
 * (apps/server's imports plugin, which calls the same `uploadMoveIn`); the app uploads through
 * `upload` here with the file's text. Both are read in the server's previews thread when it has one
 * (`services.moveInUploads`).
 */
export const importsRouter = router({
  upload: protectedProcedure
    .input(uploadMoveInSchema)
    .output(importSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.moveInUploads
        ? ctx.services.moveInUploads(ctx.tenantId, { ...input, createdBy: ctx.user.id })
        : uploadMoveIn(ctx.db, ctx.tenantId, { ...input, createdBy: ctx.user.id }),
    ),
  list: protectedProcedure
    .meta(rest.get('/api/imports', 'The church’s latest imports (preview, progress and report of each)'))
    .output(z.array(importSchema))
    .query(({ ctx }) => listMoveIns(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .meta(rest.get('/api/imports/{id}', 'An import: the recognised source, the dry run’s preview, progress and report'))
    .input(importIdInputSchema)
    .output(importSchema)
    .query(({ ctx, input }) => getMoveIn(ctx.db, ctx.tenantId, input.id)),
  problems: protectedProcedure
    .meta(
      rest.get('/api/imports/{id}/problems', 'The rows the import cannot read, as a CSV file (line, column, problem)'),
    )
    .input(importIdInputSchema)
    .output(csvFileSchema)
    .query(({ ctx, input }) => moveInProblems(ctx.db, ctx.tenantId, input.id)),
  commit: protectedProcedure
    .meta(
      rest.post(
        '/api/imports/{id}/commit',
        'Confirm the dry run (policy: per field keep, take or fill, the default) and import in the background; one import at a time per church',
        { errors: [409] },
      ),
    )
    .input(commitImportSchema)
    .output(importSchema)
    .mutation(({ ctx, input }) => commitMoveIn(ctx.db, ctx.services.jobs, ctx.tenantId, input)),
  recurring: protectedProcedure
    .meta(
      rest.get(
        '/api/imports/recurring',
        'Recurring givers brought back after a move: each with their personal link and status, and the totals (re-enrolled of all, per month recovered of per month before)',
      ),
    )
    .output(giftRenewalsSchema)
    .query(({ ctx }) => listRenewals(ctx.db, ctx.tenantId, ctx.services.delivery.publicUrl)),
  undo: protectedProcedure
    .meta(
      rest.post(
        '/api/imports/{id}/undo',
        'Undo a completed import, for 7 days after it finished: everything it created removed, everything it changed restored (a field someone edited since keeps the edit)',
        { errors: [409] },
      ),
    )
    .input(importIdInputSchema)
    .output(importSchema)
    .mutation(({ ctx, input }) => undoMoveIn(ctx.db, ctx.tenantId, { id: input.id, undoneBy: ctx.user.id })),
  presets: protectedProcedure
    .meta(rest.get('/api/import-presets', 'The church’s saved column mappings for a generic CSV'))
    .output(z.array(importPresetSchema))
    .query(({ ctx }) => listImportPresets(ctx.db, ctx.tenantId)),
  savePreset: protectedProcedure
    .meta(
      rest.post('/api/import-presets', 'Save a column mapping (field → the file’s column) as a preset', {
        status: 201,
        errors: [409],
      }),
    )
    .input(importPresetInputSchema)
    .output(importPresetSchema)
    .mutation(({ ctx, input }) => saveImportPreset(ctx.db, ctx.tenantId, input)),
});
