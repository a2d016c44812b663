// Plain constants only: the browser checks a chosen image with the same limits and words as the server.

/** The largest image `POST /api/uploads` takes. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The image types it takes (checked by content on the server, by the file's type in the browser). */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const UPLOAD_TOO_LARGE_MESSAGE = 'This image is larger than 10 MB.';
export const UPLOAD_WRONG_TYPE_MESSAGE = 'Only JPEG, PNG or WebP images can be uploaded.';
