import sanitizeHtml from 'sanitize-html';
import { badRequest } from '../../errors.js';
import {
  OutboundError,
  UNREACHABLE_MESSAGE,
  outboundFetch,
  type OutboundResponse,
} from '../../providers/outbound-http.js';
import { hasForbiddenLiteralHost } from '../../providers/network-address.js';
import type { QrLogo } from './render.js';

export interface LogoFetchOptions {
  /** Allow 127.0.0.0/8 and ::1 (tests only: QR_LOGO_ALLOW_LOOPBACK). */
  allowLoopback?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

const LOGO_TIMEOUT_MS = 5_000;
const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const CACHE_TTL_MS = 10 * 60_000;
const CACHE_MAX = 100;

const FIELD = 'logoUrl';
const fail = (message: string) => badRequest(message, FIELD);
const PRIVATE_LOGO_MESSAGE = 'The logo URL points to a private network address';

const RASTER: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) =>
    b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.length > 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
};
const LOGO_TYPES_MESSAGE = 'The logo must be a PNG, JPEG, GIF or SVG image';

const SVG_TAGS = [
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'defs',
  'lineargradient',
  'linearGradient',
  'radialGradient',
  'radialgradient',
  'stop',
  'clipPath',
  'clippath',
  'mask',
  'symbol',
  'use',
  'title',
  'desc',
  'style',
];
const SVG_ATTRIBUTES = [
  'id',
  'class',
  'style',
  'd',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'points',
  'fill',
  'fill-opacity',
  'fill-rule',
  'clip-rule',
  'clip-path',
  'mask',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'transform',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'display',
  'visibility',
  'xmlns',
  'xmlns:xlink',
  'version',
  'href',
  'xlink:href',
];

/** CSS without imports, external url()s or expressions. */
function cleanCss(css: string): string {
  return css
    .replace(/@import[^;]*;?/gi, '')
    .replace(/url\(\s*(['"]?)(?!#)[^)]*\)/gi, 'none')
    .replace(/expression\s*\(/gi, '');
}

/**
 * An SVG logo reduced to drawing: shapes, gradients, clips and styles only. No scripts, event
 * handlers, foreignObject, embedded or external images, external references or CSS imports.
 * Throws a clear 400 when nothing drawable is left.
 */
export function sanitizeSvgLogo(svg: string): Buffer {
  const clean = sanitizeHtml(svg, {
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowVulnerableTags: true, // <style>: its text is cleaned below
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    transformTags: {
      '*': (tagName, attribs) => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(attribs)) {
          if ((k === 'href' || k === 'xlink:href') && !v.startsWith('#')) continue;
          out[k] = k === 'style' ? cleanCss(v) : v;
        }
        return { tagName, attribs: out };
      },
    },
  })
    .replace(
      /(<style[^>]*>)([\s\S]*?)(<\/style>)/g,
      (_m, open: string, css: string, close: string) => open + cleanCss(css) + close,
    )
    .trim();
  if (!/^<svg[\s>]/.test(clean)) throw fail('The logo SVG could not be read');
  const withNs = /\sxmlns=/.test(clean.slice(0, clean.indexOf('>')))
    ? clean
    : clean.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return Buffer.from(withNs, 'utf8');
}

/** Check the bytes of a logo against its declared type; SVGs come back sanitized. */
function acceptLogoBytes(contentType: string, data: Buffer): QrLogo {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'image/svg+xml') return { contentType: type, data: sanitizeSvgLogo(data.toString('utf8')) };
  const check = RASTER[type === 'image/jpg' ? 'image/jpeg' : type];
  if (!check) throw fail(LOGO_TYPES_MESSAGE);
  if (!check(data)) throw fail('The logo file is not the image it claims to be');
  return { contentType: type === 'image/jpg' ? 'image/jpeg' : type, data };
}

/**
 * Fetch a logo by URL through the guarded outbound client (`outboundFetch`: http(s) only, every
 * address of the host public and the connection to the checked address, redirects re-checked (at
 * most 3), 5 s in all, at most 2 MB), then check it is an image. A literal private host is named
 * as such; any other failure to fetch is the generic "The address could not be reached".
 */
export async function fetchLogo(rawUrl: string, opts: LogoFetchOptions = {}): Promise<QrLogo> {
  const reach = opts.allowLoopback ? 'loopback' : 'public';
  const maxBytes = opts.maxBytes ?? LOGO_MAX_BYTES;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw fail('Please enter a valid logo URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fail('The logo URL must start with http:// or https://');
  if (url.username || url.password) throw fail('The logo URL must not contain a user name or password');
  if (hasForbiddenLiteralHost(rawUrl, reach)) throw fail(PRIVATE_LOGO_MESSAGE);
  let res: OutboundResponse;
  try {
    res = await outboundFetch(rawUrl, {
      reach,
      timeoutMs: opts.timeoutMs ?? LOGO_TIMEOUT_MS,
      maxBytes,
      maxRedirects: MAX_REDIRECTS,
      headers: { accept: 'image/png,image/jpeg,image/gif,image/svg+xml', 'user-agent': 'Lampstand-QR-logo/1.0' },
    });
  } catch (err) {
    if (err instanceof OutboundError && err.failure === 'too-large') throw fail('The logo is larger than 2 MB');
    throw fail(UNREACHABLE_MESSAGE);
  }
  if (res.status !== 200) throw fail(UNREACHABLE_MESSAGE);
  return acceptLogoBytes(String(res.headers['content-type'] ?? ''), res.body);
}

/** Each app's cache, kept with its fetch options: what one app may reach, another may not. */
type LogoCache = Map<string, { at: number; logo: Promise<QrLogo> }>;
const caches = new WeakMap<LogoFetchOptions, LogoCache>();

/** `fetchLogo` with a cache of 10 minutes (failures are not kept). */
export function cachedLogo(url: string, opts: LogoFetchOptions): Promise<QrLogo> {
  let cache = caches.get(opts);
  if (!cache) {
    cache = new Map() as LogoCache;
    caches.set(opts, cache);
  }
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.logo;
  const logo = fetchLogo(url, opts);
  cache.set(url, { at: Date.now(), logo });
  void logo.catch(() => cache.delete(url));
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return logo;
}
