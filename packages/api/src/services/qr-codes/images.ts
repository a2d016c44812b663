import { churchTurns } from '../limits/church-turns.js';
import { createHash } from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { FileStorage } from '../../providers/storage.js';
import { badRequest, tooManyRequests } from '../../errors.js';
import type { QrErrorCorrectionLevel, QrImageOutput } from '../../schemas/qr-codes.js';
import { cachedLogo } from './logo.js';
import { buildQrSvg, minimumQrSize, type QrLogo } from './render.js';
import { qrRenderPool } from './render-pool.js';
import type { QrSettings } from './qr-settings.js';
import { encodedUrlOf, findQrCodeRow } from './qr-settings.js';

export interface QrDrawRequest {
  data: string;
  size: number;
  margin: number;
  errorCorrection: QrErrorCorrectionLevel;
  foregroundColor: string;
  backgroundColor: string;
  cornerSquareColor: string | null;
  cornerDotColor: string | null;
  logoUrl: string | null;
  logoUploadId: number | null;
}

interface ImageDeps {
  db: Db;
  settings: QrSettings;
  storage: FileStorage;
}

/**
 * An app's caches of drawn codes and upload logos, kept with its file storage rather than in the
 * module: church and upload ids are the database's, so two apps in one process (tests) must not
 * share them.
 */
interface ImageCaches {
  uploadLogos: Map<string, Promise<QrLogo>>;
  images: Map<string, QrImageOutput>;
  /** Images being drawn: a second request for the same one waits for the first. */
  drawing: Map<string, Promise<QrImageOutput>>;
}
const cachesByStorage = new WeakMap<FileStorage, ImageCaches>();
function cachesOf(deps: ImageDeps): ImageCaches {
  let caches = cachesByStorage.get(deps.storage);
  if (!caches) {
    caches = { uploadLogos: new Map(), images: new Map(), drawing: new Map() };
    cachesByStorage.set(deps.storage, caches);
  }
  return caches;
}

/**
 * A logo from the church's uploads (stored as WebP, which the renderer does not read): its bytes
 * from storage, as PNG. Cached by church and upload (an upload never changes).
 */
function uploadLogo(deps: ImageDeps, tenantId: number, id: number): Promise<QrLogo> {
  const { uploadLogos } = cachesOf(deps);
  const key = `${tenantId}:${id}`;
  const hit = uploadLogos.get(key);
  if (hit) return hit;
  const logo = (async () => {
    const row = await deps.db
      .selectFrom('uploads')
      .select(['storageKey'])
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    const stored = row ? await deps.storage.get(row.storageKey) : null;
    if (!stored) throw badRequest('That logo upload was not found', 'logoUploadId');
    // Loaded on first use, as in uploads.ts.
    const { default: sharp } = await import('sharp');
    return { contentType: 'image/png', data: await sharp(stored.body).png().toBuffer() };
  })();
  uploadLogos.set(key, logo);
  void logo.catch(() => uploadLogos.delete(key));
  while (uploadLogos.size > 200) uploadLogos.delete(uploadLogos.keys().next().value!);
  return logo;
}

async function resolveLogo(deps: ImageDeps, tenantId: number, req: QrDrawRequest): Promise<QrLogo | null> {
  if (req.logoUploadId) return uploadLogo(deps, tenantId, req.logoUploadId);
  if (req.logoUrl) return cachedLogo(req.logoUrl, deps.settings.logo);
  return null;
}

/** Draw once to check the size and the logo; throws the 400 the form shows. */
export async function checkRenderable(deps: ImageDeps, tenantId: number, req: QrDrawRequest): Promise<void> {
  const logo = await resolveLogo(deps, tenantId, req);
  buildQrSvg({ ...req, logo });
}

const CACHE_MAX = 300;

/**
 * PNG renders one church may have in the render pool at once (per process), and how many more
 * may wait their turn (a page of thumbnails asks for many at once); past both → 429.
 */
export const MAX_RENDERS_PER_CHURCH = 4;
export const MAX_WAITING_RENDERS_PER_CHURCH = 16;
export const TOO_MANY_RENDERS_MESSAGE = 'Too many QR codes are being rendered; try again in a moment';
const renderTurns = churchTurns({
  atOnce: MAX_RENDERS_PER_CHURCH,
  waiting: MAX_WAITING_RENDERS_PER_CHURCH,
  refuse: () => tooManyRequests(TOO_MANY_RENDERS_MESSAGE, 1),
});

/** A church's renders now: in the pool, and waiting for a slot. */
export function qrRenderSlots(tenantId: number): { running: number; waiting: number } {
  return renderTurns.now(tenantId);
}

/** The PNG of an SVG, drawn in the render pool's workers, in one of the church's slots. */
async function renderPng(tenantId: number, svg: string, size: number): Promise<Buffer> {
  const done = await renderTurns.take(tenantId);
  try {
    return (await qrRenderPool().renderPng(svg, size)).png;
  } finally {
    done();
  }
}

/**
 * A PNG or SVG of the code, from a cache keyed by every drawing parameter (an uploaded logo keys
 * by church too). The ETag is a hash of the SVG the picture is drawn from.
 */
export async function drawQrImage(
  deps: ImageDeps,
  tenantId: number,
  { request, format, fileName }: { request: QrDrawRequest; format: 'png' | 'svg'; fileName: string },
): Promise<QrImageOutput> {
  const { images: cache, drawing } = cachesOf(deps);
  const key = JSON.stringify([request.logoUploadId ? tenantId : 0, request, format, fileName]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const pending = drawing.get(key);
  if (pending) return pending;
  const draw = (async () => {
    const logo = await resolveLogo(deps, tenantId, request);
    const svg = buildQrSvg({ ...request, logo });
    const body = format === 'png' ? await renderPng(tenantId, svg, request.size) : Buffer.from(svg, 'utf8');
    const out: QrImageOutput = {
      contentType: format === 'png' ? 'image/png' : 'image/svg+xml',
      base64: body.toString('base64'),
      etag: `"${createHash('sha256').update(format).update(svg).digest('base64url').slice(0, 27)}"`,
      fileName: `${fileName}.${format}`,
    };
    cache.set(key, out);
    while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
    return out;
  })();
  drawing.set(key, draw);
  try {
    return await draw;
  } finally {
    drawing.delete(key);
  }
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'qr-code';

/**
 * A saved code's image. `size` overrides the code's own (thumbnails); a size too small for the
 * code's modules grows to the smallest that scans, so a thumbnail never breaks.
 */
export async function qrCodeImage(
  deps: ImageDeps,
  tenantId: number,
  { id, size, format }: { id: number; size?: number; format: 'png' | 'svg' },
): Promise<QrImageOutput> {
  const row = await findQrCodeRow(deps.db, tenantId, { id });
  const data = encodedUrlOf(row, deps.settings);
  const hasLogo = !!(row.logoUrl || row.logoUploadId);
  const wanted = size ?? row.size;
  const request: QrDrawRequest = {
    data,
    size: Math.max(wanted, minimumQrSize({ data, margin: row.margin, errorCorrection: row.errorCorrection, hasLogo })),
    margin: row.margin,
    errorCorrection: row.errorCorrection,
    foregroundColor: row.foregroundColor,
    backgroundColor: row.backgroundColor,
    cornerSquareColor: row.cornerSquareColor,
    cornerDotColor: row.cornerDotColor,
    logoUrl: row.logoUrl,
    logoUploadId: row.logoUploadId,
  };
  return drawQrImage(deps, tenantId, { request, format, fileName: `qr-${slug(row.name)}` });
}
