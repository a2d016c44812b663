import { isCleanText } from './text.js';

// Addresses a person types where an image goes.

/** An http(s) URL, or a path on this server (an uploaded image: '/uploads/…'). */
export function isImageUrl(v: string): boolean {
  if (!isCleanText(v)) return false;
  if (/^\/(?!\/)[^\s\\]*$/.test(v)) return true;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
