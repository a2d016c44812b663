import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import {
  AppError,
  getMoveIn,
  IMPORT_TOO_LARGE_MESSAGE,
  isZip,
  uploadChurchExport,
  importSourceIdSchema,
  MAX_IMPORT_BYTES,
  uploadMoveIn,
} from '@lampstand/api/server';
import { tenantDb } from '@lampstand/db';
import { READ_ONLY_KEY_REFUSED } from '@lampstand/api/schemas/api-keys';
import type { AppDeps } from '../app-deps.js';
import { createContext } from '../context.js';

/**
 * `POST /api/imports` (multipart, signed in): a file exported from another system (field `file`)
 * and optionally `source` or `presetId`; answers 201 with the import and its dry run (the same
 * `uploadMoveIn` as the app's `imports.upload`). A ZIP is a Lampstand export for a new church.
 */
export async function importUploadRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  // Scoped to this plugin: other routes keep refusing multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  app.post(
    '/api/imports',
    { config: { multipart: true, tooLargeMessage: IMPORT_TOO_LARGE_MESSAGE }, bodyLimit: MAX_IMPORT_BYTES + 64 * 1024 },
    async (req, reply) => {
      const { effectiveUser, user, apiKeyScope } = await createContext(opts.deps, req);
      if (!effectiveUser) throw new AppError('UNAUTHORIZED', 'Not authenticated');
      if (apiKeyScope === 'read') throw new AppError('FORBIDDEN', READ_ONLY_KEY_REFUSED);
      if (!req.isMultipart())
        throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data in the field "file".', 'file');
      let data: Buffer | undefined;
      let fileName = 'import.csv';
      const fields: Record<string, string> = {};
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || data) {
              await part.toBuffer().catch(() => undefined);
              continue;
            }
            fileName = part.filename || fileName;
            data = await part.toBuffer();
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } catch (err) {
        const e = err as { code?: string; statusCode?: number };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('PAYLOAD_TOO_LARGE', IMPORT_TOO_LARGE_MESSAGE, 'file');
        if (typeof e.statusCode === 'number' && e.statusCode < 500)
          throw new AppError('BAD_REQUEST', 'The upload could not be read. Please try again.', 'file');
        throw err;
      }
      if (!data) throw new AppError('BAD_REQUEST', 'Choose a CSV file to upload.', 'file');
      if (isZip(data)) {
        // A ZIP can only be a Lampstand export ("Export everything"), moved whole into a new church.
        const db = tenantDb(opts.deps.db, effectiveUser.id);
        const { id } = await uploadChurchExport(db, effectiveUser.id, {
          fileName: fileName.slice(0, 255),
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
      const imp = await uploadMoveIn(tenantDb(opts.deps.db, effectiveUser.id), effectiveUser.id, {
        fileName: fileName.slice(0, 255),
        csv: data.toString('utf8'),
        source: source?.data,
        presetId,
        createdBy: user?.id ?? null,
      });
      return reply.code(201).send(imp);
    },
  );
}
