import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import sanitizeHtml from 'sanitize-html';
import { badRequest } from '../../errors.js';
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

// Addresses a logo URL may never reach: private, shared, link-local, multicast, reserved,
// documentation and unspecified ranges. Loopback is separate (allowed in tests by a setting).
const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net6, prefix, 'ipv6');
const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True when a logo fetch may not connect to this IP address. */
export function isForbiddenAddress(ip: string, allowLoopback = false): boolean {
  const family = net.isIP(ip);
  if (family === 0) return true;
  if (family === 6) {
    // IPv4-mapped (::ffff:10.0.0.1) and IPv4-compatible forms are judged as the IPv4 address.
    const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return isForbiddenAddress(mapped[1]!, allowLoopback);
    if (/^::ffff:/i.test(ip)) return true;
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return !allowLoopback;
  return blocked.check(ip, type);
}

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

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

async function resolveAllowed(host: string, allowLoopback: boolean): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(bare)
      ? [{ address: bare, family: net.isIP(bare) }]
      : await dns.lookup(bare, { all: true, verbatim: true });
  } catch {
    throw fail('The logo host could not be found');
  }
  if (addresses.length === 0) throw fail('The logo host could not be found');
  // Every address must be public: a name that also resolves inside the network is refused.
  if (addresses.some((a) => isForbiddenAddress(a.address, allowLoopback)))
    throw fail('The logo URL points to a private network address');
  return addresses[0]!;
}

function getOnce(
  url: URL,
  pinned: { address: string; family: number },
  o: Required<LogoFetchOptions>,
  deadline: number,
) {
  return new Promise<Fetched>((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(
      url,
      {
        headers: { accept: 'image/png,image/jpeg,image/gif,image/svg+xml', 'user-agent': 'Lampstand-QR-logo/1.0' },
        // Connect to the address we checked, never to a second lookup's answer (DNS rebinding).
        lookup: (_host, opts, cb) => {
          if ((opts as { all?: boolean }).all)
            (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
          else (cb as (e: null, a: string, f: number) => void)(null, pinned.address, pinned.family);
        },
      },
      (res) => {
        const length = Number(res.headers['content-length'] ?? 0);
        if (res.statusCode === 200 && length > o.maxBytes) {
          res.destroy();
          return reject(fail('The logo is larger than 2 MB'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            res.destroy();
            reject(fail('The logo is larger than 2 MB'));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', () => reject(fail('The logo could not be downloaded')));
      },
    );
    const timer = setTimeout(
      () => {
        req.destroy();
        reject(fail(`The logo took too long to download (over ${Math.round(o.timeoutMs / 1000)} seconds)`));
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', () => reject(fail('The logo could not be downloaded')));
  });
}

/**
 * Fetch a logo by URL with a guard: http(s) only; every address of the host public (no private,
 * loopback or link-local address after DNS resolution, and the connection goes to the checked
 * address); redirects re-checked (at most 3); 5 s in all; at most 2 MB; image types only.
 */
export async function fetchLogo(rawUrl: string, opts: LogoFetchOptions = {}): Promise<QrLogo> {
  const o: Required<LogoFetchOptions> = {
    allowLoopback: opts.allowLoopback ?? false,
    timeoutMs: opts.timeoutMs ?? LOGO_TIMEOUT_MS,
    maxBytes: opts.maxBytes ?? LOGO_MAX_BYTES,
  };
  const deadline = Date.now() + o.timeoutMs;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw fail('Please enter a valid logo URL');
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw fail('The logo URL must start with http:// or https://');
    if (url.username || url.password) throw fail('The logo URL must not contain a user name or password');
    const pinned = await resolveAllowed(url.hostname, o.allowLoopback);
    const res = await getOnce(url, pinned, o, deadline);
    if ([301, 302, 303, 307, 308].includes(res.status) && res.headers.location) {
      if (hop >= MAX_REDIRECTS) throw fail('The logo URL redirects too many times');
      url = new URL(res.headers.location, url);
      continue;
    }
    if (res.status !== 200) throw fail(`The logo could not be downloaded (HTTP ${res.status})`);
    return acceptLogoBytes(String(res.headers['content-type'] ?? ''), res.body);
  }
}

const cache = new Map<string, { at: number; logo: Promise<QrLogo> }>();

/** `fetchLogo` with a cache of 10 minutes (failures are not kept). */
export function cachedLogo(url: string, opts: LogoFetchOptions = {}): Promise<QrLogo> {
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.logo;
  const logo = fetchLogo(url, opts);
  cache.set(url, { at: Date.now(), logo });
  void logo.catch(() => cache.delete(url));
  while (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return logo;
}
