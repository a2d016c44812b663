import type { FileStorage } from './storage.js';

/** Files in memory, as the local folder or the bucket would keep them (for tests). */
export function memoryStorage(): FileStorage & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    kind: 'local',
    objects,
    put: (key, body) => Promise.resolve(void objects.set(key, body)),
    get: (key) => Promise.resolve(objects.has(key) ? { body: objects.get(key)!, contentType: 'image/webp' } : null),
    delete: (key) => Promise.resolve(void objects.delete(key)),
    urlFor: (key) => `/uploads/${key}`,
  };
}
