import type { FastifyInstance } from 'fastify';
import {
  AppError,
  getMoveIn,
  IMPORT_TOO_LARGE_MESSAGE,
  isZip,
  uploadChurchExport,
  importSourceIdSchema,
  MAX_IMPORT_BYTES,
} from '@lampstand/api/server';
import { tenantDb } from '@lampstand/db';
import type { AppDeps } from '../app-deps.js';
import { readUpload, registerMultipart } from './multipart-upload.js';

/**
 * `POST /api/imports` (multipart, signed in): a file exported from another system (field `file`)
 * and optionally `source` or `presetId`; answers 201 with the import and its dry run (the same
 * `uploadMoveIn` as the app's `imports.upload`, run in a worker thread). A ZIP is a Lampstand export for a new church.
 */
export async function importUploadRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  // Scoped to this plugin: other routes keep refusing multipart bodies.
  await registerMultipart(app, MAX_IMPORT_BYTES);
  app.post(
    '/api/imports',
    { config: { multipart: true, tooLargeMessage: IMPORT_TOO_LARGE_MESSAGE }, bodyLimit: MAX_IMPORT_BYTES + 64 * 1024 },
    async (req, reply) => {
      const { effectiveUser, user, data, fields, ...upload } = await readUpload(opts.deps, req, {
        what: 'the file',
        tooLarge: IMPORT_TOO_LARGE_MESSAGE,
        missing: 'Choose a CSV file to upload.',
      });
      const fileName = (upload.fileName ?? 'import.csv').slice(0, 255);
      if (isZip(data)) {
        // A ZIP can only be a Lampstand export ("Export everything"), moved whole into a new church.
        const db = tenantDb(opts.deps.db, effectiveUser.id);
        const { id } = await uploadChurchExport(db, effectiveUser.id, {
          fileName,
          zip: data,
          createdBy: user?.id ?? null,
        });
        return reply.code(201).send(await getMoveIn(db, effectiveUser.id, id));
      }
      const source = fields.source ? importSourceIdSchema.exclude(['preset']).safeParse(fields.source) : undefined;
      if (source && !source.success)
        throw new AppError(
          'BAD_REQUEST',
          `Unknown source '${fields.source}': ${importSourceIdSchema.exclude(['preset']).options.join(', ')}`,
          'source',
        );
      const presetId = fields.presetId ? Number(fields.presetId) : undefined;
      if (presetId !== undefined && !(Number.isInteger(presetId) && presetId > 0 && presetId < 2 ** 31))
        throw new AppError('BAD_REQUEST', 'presetId must be a number', 'presetId');
      // Read in the previews' thread (imports-preview-pool.ts), off the event loop other churches use.
      const imp = await opts.deps.previews.upload(effectiveUser.id, {
        fileName,
        data,
        source: source?.data,
        presetId,
        createdBy: user?.id ?? null,
      });
      return reply.code(201).send(imp);
    },
  );
}
