import {
  MAX_UPLOAD_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
  UPLOAD_TYPES,
  UPLOAD_WRONG_TYPE_MESSAGE,
} from '../schemas/uploads.js';

// An image checked in the browser with the same limits and words as the server.

/** What is wrong with a file before it is sent (its declared type and size), or null. */
export function uploadProblem(file: { type: string; size: number }): string | null {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return UPLOAD_WRONG_TYPE_MESSAGE;
  if (file.size > MAX_UPLOAD_BYTES) return UPLOAD_TOO_LARGE_MESSAGE;
  return null;
}
