import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { AppError } from '@lampstand/api/server';
import { READ_ONLY_KEY_REFUSED } from '@lampstand/api/schemas/api-keys';
import type { AppDeps } from '../app-deps.js';
import { createContext } from '../context.js';

/**
 * The one way a multipart upload is read (an image, a move-in file): signed in with a session or a
 * key that may write, one file in the field `file` (a second file or another field's file is
 * drained and ignored), a few short text fields beside it, and the upload's own failures worded
 * (too large: 413 with the route's message; a broken body: 400), never a 500.
 */

/** Multipart bodies for this plugin's routes only (others keep refusing them), files up to `maxBytes`. */
export function registerMultipart(app: FastifyInstance, maxBytes: number) {
  return app.register(fastifyMultipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
}

export interface UploadWords {
  /** What to send, for a body that is not multipart ('the image'). */
  what: string;
  /** The 413 message. */
  tooLarge: string;
  /** The message when no file came ('Choose an image to upload.'). */
  missing: string;
}

export async function readUpload(deps: AppDeps, req: FastifyRequest, words: UploadWords) {
  const { effectiveUser, user, apiKeyScope } = await createContext(deps, req);
  if (!effectiveUser) throw new AppError('UNAUTHORIZED', 'Not authenticated');
  if (apiKeyScope === 'read') throw new AppError('FORBIDDEN', READ_ONLY_KEY_REFUSED);
  if (!req.isMultipart())
    throw new AppError('BAD_REQUEST', `Send ${words.what} as multipart/form-data in the field "file".`, 'file');
  let data: Buffer | undefined;
  let fileName: string | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || data) {
          await part.toBuffer().catch(() => undefined);
          continue;
        }
        fileName = part.filename || null;
        data = await part.toBuffer();
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', words.tooLarge, 'file');
    if (typeof e.statusCode === 'number' && e.statusCode < 500)
      throw new AppError('BAD_REQUEST', 'The upload could not be read. Please try again.', 'file');
    throw err;
  }
  if (!data) throw new AppError('BAD_REQUEST', words.missing, 'file');
  return { effectiveUser, user, data, fileName, fields };
}
