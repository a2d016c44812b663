import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import {
  AppError,
  createUpload,
  EXPORT_KEY_PREFIX,
  MAX_UPLOAD_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import { createContext } from '../context.js';
import { READ_ONLY_KEY_REFUSED } from '@lampstand/api/schemas/api-keys';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Image uploads: `POST /api/uploads` (multipart, field `file`, signed in) answers 201
 * `{ id, url, thumbnailUrl, width, height, contentType }` (a session or an API key); `GET /uploads/*` serves stored files
 * (local folder, or the bucket when it has no public URL of its own).
 */
export async function uploadRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, storage } = opts.deps;
  // Scoped to this plugin: other routes keep refusing multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });

  // multipart: let multipart/form-data past the global 415; still CSRF-checked (an allowed Origin).
  app.post(
    '/api/uploads',
    { config: { multipart: true, tooLargeMessage: UPLOAD_TOO_LARGE_MESSAGE }, bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024 },
    async (req, reply) => {
      // The session cookie or a church's API key (`Authorization: Bearer lsk_…`), as everywhere in /api.
      const { effectiveUser, apiKeyScope } = await createContext(opts.deps, req);
      if (!effectiveUser) throw new AppError('UNAUTHORIZED', 'Not authenticated');
      if (apiKeyScope === 'read') throw new AppError('FORBIDDEN', READ_ONLY_KEY_REFUSED);
      if (!req.isMultipart())
        throw new AppError('BAD_REQUEST', 'Send the image as multipart/form-data in the field "file".', 'file');
      let data: Buffer | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || data) {
              await part.toBuffer().catch(() => undefined);
              continue;
            }
            data = await part.toBuffer();
          }
        }
      } catch (err) {
        const e = err as { code?: string; statusCode?: number };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_TOO_LARGE_MESSAGE, 'file');
        if (typeof e.statusCode === 'number' && e.statusCode < 500)
          throw new AppError('BAD_REQUEST', 'The upload could not be read. Please try again.', 'file');
        throw err;
      }
      if (!data) throw new AppError('BAD_REQUEST', 'Choose an image to upload.', 'file');
      const upload = await createUpload({ db, storage }, effectiveUser.id, { data });
      return reply.code(201).send(upload);
    },
  );

  app.get<{ Params: { '*': string } }>('/uploads/*', async (req, reply) => {
    // A church's "Export everything" ZIP shares the storage; it is fetched only through its own link.
    const key = req.params['*'];
    const object = key.startsWith(EXPORT_KEY_PREFIX) ? null : await storage.get(key);
    if (!object) return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    return reply
      .type(object.contentType)
      .header('cache-control', IMMUTABLE)
      .header('x-content-type-options', 'nosniff')
      .send(object.body);
  });
}
