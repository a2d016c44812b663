import {
  churchExportListSchema,
  churchExportSchema,
  createExportSchema,
  exportIdSchema,
} from '../../schemas/exports.js';
import { createExport, getExport, listExports } from '../../services/exports/exports.js';
import { protectedProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Exports');

export const exportsRouter = router({
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/exports',
        'Export everything the church owns as one ZIP, built in the background and emailed as a link',
        {
          status: 201,
          errors: [409],
        },
      ),
    )
    .input(createExportSchema)
    .output(churchExportSchema)
    .mutation(({ ctx }) =>
      createExport({ db: ctx.db, jobs: ctx.services.jobs }, ctx.tenantId, { requestedBy: ctx.user.id }),
    ),
  get: protectedProcedure
    .meta(rest.get('/api/exports/{id}', 'Status, progress and expiry of an export'))
    .input(exportIdSchema)
    .output(churchExportSchema)
    .query(({ ctx, input }) => getExport(ctx.db, ctx.tenantId, input.id)),
  list: protectedProcedure
    .meta(rest.get('/api/exports', 'The church’s recent exports, newest first'))
    .output(churchExportListSchema)
    .query(({ ctx }) => listExports(ctx.db, ctx.tenantId)),
});
