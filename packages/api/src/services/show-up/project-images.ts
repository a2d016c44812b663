import type { Db, ShowUpImage } from '@lampstand/db';
import type { z } from 'zod';
import { AppError, badRequest } from '../../errors.js';
import { getUpload } from '../uploads/uploads.js';
import type { imageInputSchema } from '../../schemas/show-up.js';

type ImageIn = z.output<typeof imageInputSchema>;

/** The stored shape of an image; the upload's id is kept when known. */
export function toStoredImage(image: ImageIn): ShowUpImage {
  return { id: image.id ?? null, url: image.url, thumbnailUrl: image.thumbnailUrl ?? null };
}

/**
 * An image with an upload id must be one of this church's uploads; its addresses are taken from the
 * upload, not from the request. An image given only by address is kept as given.
 */
/** `field` names the input field in the error when the upload is not the church's. */
export async function resolveImage(
  db: Db,
  tenantId: number,
  { image, field }: { image: ImageIn; field: string },
): Promise<ImageIn> {
  if (image.id == null) return image;
  try {
    const upload = await getUpload(db, tenantId, { id: image.id });
    return { id: upload.id, url: upload.url, thumbnailUrl: upload.thumbnailUrl };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw badRequest('Image not found', field);
    throw err;
  }
}

/** A project's cover and gallery with each upload's own addresses (see resolveImage). */
export async function resolveFields<T extends { coverImage?: ImageIn | null; images?: ImageIn[] }>(
  db: Db,
  tenantId: number,
  input: T,
): Promise<T> {
  return {
    ...input,
    ...(input.coverImage
      ? { coverImage: await resolveImage(db, tenantId, { image: input.coverImage, field: 'coverImage' }) }
      : {}),
    ...(input.images
      ? {
          images: await Promise.all(
            input.images.map((img, i) => resolveImage(db, tenantId, { image: img, field: `images.${i}` })),
          ),
        }
      : {}),
  };
}
