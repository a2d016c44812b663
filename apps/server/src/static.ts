import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { FastifyCompressOptions } from '@fastify/compress';
import fastifyStatic from '@fastify/static';

/** Vite's content-hashed output: a changed file gets a new name, so browsers may keep these for good. */
const HASHED_DIR = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * API answers (JSON) above 1 KiB go out as brotli or gzip; quick levels of both, as they are made per
 * request. gzip at 4 instead of zlib's 6: a page of 5,000 meetings (~900 KB of JSON) in less than
 * half the time, 3% larger (`pnpm bench:groups`, whose client asks for gzip as most HTTP libraries do).
 */
export const apiCompression: FastifyCompressOptions = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 4 },
};

/**
 * Serve the built web app from `webDist`: the `.br` / `.gz` files the web build wrote beside each
 * asset (by the request's Accept-Encoding), hashed assets cached for a year, everything else
 * (index.html, favicon) revalidated on every load. Source maps are never served.
 * Returns false (and serves nothing) when there is no build.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: webDist,
    // One `/*` route that looks the file up per request; `false` made a GET and a HEAD route per
    // file at start (356 files in the web build: ~0.8 s of a loaded start-up). A missing file falls
    // through to the not-found handler, which serves index.html for the app's routes.
    wildcard: true,
    index: false,
    preCompressed: true,
    cacheControl: false,
    allowedPath: (pathname) => !pathname.endsWith('.map'),
    setHeaders: (reply, filePath) => {
      const rel = `/${path.relative(webDist, filePath).split(path.sep).join('/')}`;
      reply.header('cache-control', rel.startsWith(HASHED_DIR) ? IMMUTABLE : 'no-cache');
    },
  });
  // `/` is the directory itself for the wildcard route (403 without a pre-compressed match, e.g. curl
  // sending no Accept-Encoding): the app's index, as every other app route gets it.
  app.get('/', (_req, reply) => reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html'));
  // The check-in station is a page of its own (the web build's second entry): none of the staff app.
  if (fs.existsSync(path.join(webDist, 'station.html')))
    app.get('/station', (_req, reply) =>
      reply.type('text/html').header('cache-control', 'no-cache').sendFile('station.html'),
    );
  return true;
}

/** A GET the web app's router answers with index.html (an app route such as /contacts), not a missing file. */
export function isAppRoute(url: string): boolean {
  return !url.startsWith('/api/') && !url.startsWith('/trpc/') && !url.startsWith(HASHED_DIR) && !url.endsWith('.map');
}
