import type { FastifyInstance } from 'fastify';
import { createUpload, EXPORT_KEY_PREFIX, MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import { readUpload, registerMultipart } from './multipart-upload.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Image uploads: `POST /api/uploads` (multipart, field `file`, signed in) answers 201
 * `{ id, url, thumbnailUrl, width, height, contentType }` (a session or an API key); `GET /uploads/*` serves stored files
 * (local folder, or the bucket when it has no public URL of its own).
 */
export async function uploadRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, storage } = opts.deps;
  // Scoped to this plugin: other routes keep refusing multipart bodies.
  await registerMultipart(app, MAX_UPLOAD_BYTES);

  // multipart: let multipart/form-data past the global 415; still CSRF-checked (an allowed Origin).
  app.post(
    '/api/uploads',
    { config: { multipart: true, tooLargeMessage: UPLOAD_TOO_LARGE_MESSAGE }, bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024 },
    async (req, reply) => {
      // The session cookie or a church's API key (`Authorization: Bearer lsk_…`), as everywhere in /api.
      const { effectiveUser, data } = await readUpload(opts.deps, req, {
        what: 'the image',
        tooLarge: UPLOAD_TOO_LARGE_MESSAGE,
        missing: 'Choose an image to upload.',
      });
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
