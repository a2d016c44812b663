import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '@lampstand/db';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { FileStorage } from '../../providers/storage.js';

import {
  MAX_UPLOAD_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
  UPLOAD_TYPES,
  UPLOAD_WRONG_TYPE_MESSAGE,
} from '../../schemas/uploads.js';

export { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE };
const ACCEPTED = new Set<string>(UPLOAD_TYPES);
const LARGE_MAX = 1600;
const THUMB_MAX = 400;
/** A decompression bomb (tiny file, huge canvas) is refused before decoding. */
const MAX_INPUT_PIXELS = 60_000_000;

export interface Upload {
  id: number;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  contentType: string;
}

export interface ProcessedImage {
  large: { data: Buffer; width: number; height: number };
  thumbnail: { data: Buffer; width: number; height: number };
}

/**
 * Checks the bytes (not the name or the declared type) and re-encodes to WebP: orientation
 * applied, every metadata block (EXIF with GPS, XMP, IPTC) dropped, a large and a thumbnail variant.
 */
async function processImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length === 0) throw badRequest('The file is empty.', 'file');
  if (input.length > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', UPLOAD_TOO_LARGE_MESSAGE, 'file');
  const type = await fileTypeFromBuffer(input);
  if (!type || !ACCEPTED.has(type.mime)) throw badRequest(UPLOAD_WRONG_TYPE_MESSAGE, 'file');
  // Loaded on first use: a process that never re-encodes an image (a worker) does not hold sharp.
  const { default: sharp } = await import('sharp');
  const variant = async (max: number, quality: number) => {
    // sharp writes no metadata unless asked (withMetadata/keepExif), so EXIF and GPS are gone.
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: max, height: max, fit: 'inside', withoutEnlargement: true })
      .webp({ quality })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  };
  try {
    return { large: await variant(LARGE_MAX, 82), thumbnail: await variant(THUMB_MAX, 75) };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = (err as Error).message ?? '';
    if (/pixel limit/i.test(message))
      throw badRequest('The image has too many pixels. Please upload a smaller image.', 'file');
    throw badRequest('The image could not be read. Please upload a valid JPEG, PNG or WebP file.', 'file');
  }
}

/** Re-encodes and stores both variants, then records them for the church. */
export async function createUpload(
  deps: { db: Db; storage: FileStorage },
  tenantId: number,
  input: { data: Buffer },
): Promise<Upload> {
  const image = await processImage(input.data);
  const base = `u${tenantId}/${randomBytes(12).toString('hex')}`;
  const storageKey = `${base}-large.webp`;
  const thumbnailKey = `${base}-thumb.webp`;
  await deps.storage.put(storageKey, image.large.data, 'image/webp');
  await deps.storage.put(thumbnailKey, image.thumbnail.data, 'image/webp');
  const row = await deps.db
    .insertInto('uploads')
    .values({
      userId: tenantId,
      storageKey,
      thumbnailKey,
      url: deps.storage.urlFor(storageKey),
      thumbnailUrl: deps.storage.urlFor(thumbnailKey),
      contentType: 'image/webp',
      width: image.large.width,
      height: image.large.height,
      bytes: image.large.data.length,
    })
    .returning(['id', 'url', 'thumbnailUrl', 'width', 'height', 'contentType'])
    .executeTakeFirstOrThrow();
  return row;
}

/** One of the church's uploads (another church's id is not found). */
export async function getUpload(db: Db, tenantId: number, input: { id: number }): Promise<Upload> {
  const row = await db
    .selectFrom('uploads')
    .select(['id', 'url', 'thumbnailUrl', 'width', 'height', 'contentType'])
    .where('userId', '=', tenantId)
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (!row) throw notFound('Image not found');
  return row;
}
