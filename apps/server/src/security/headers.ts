import helmet, { type HelmetOptions } from 'helmet';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { LANDING_PAGE_SCRIPT, NOT_FOUND_SCRIPT } from '@lampstand/api/render/landing-page-html';
import { RECEIPT_SCRIPT } from '@lampstand/api/render/receipt-page';
import { GIVE_PAGE_SCRIPT, MANAGE_PAGE_SCRIPT } from '@lampstand/api/render/give-page-html';
import { GROUP_ATTENDANCE_SCRIPT } from '@lampstand/api/render/portal-groups-script';
import { EVENT_PAY_SCRIPT } from '@lampstand/api/render/events-pay-html';

/** The public pages' inline scripts (landing pages: header on scroll, sign-up forms; Page Not Found: Go
 * Back; the donation receipt: Print; the church giving page; the portal's group attendance; an event's payment), allowed by their hashes. */
export const INLINE_SCRIPT_HASHES = [
  LANDING_PAGE_SCRIPT,
  NOT_FOUND_SCRIPT,
  RECEIPT_SCRIPT,
  GIVE_PAGE_SCRIPT,
  MANAGE_PAGE_SCRIPT,
  GROUP_ATTENDANCE_SCRIPT,
  EVENT_PAY_SCRIPT,
].map((js) => `'sha256-${createHash('sha256').update(js).digest('base64')}'`);

export interface CspOptions {
  /** PUBLIC_URL: HSTS and upgrade-insecure-requests when it is https. */
  publicUrl: string;
  /** MAP_TILE_URL (Leaflet tiles, e.g. https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png): its host in img-src. */
  mapTileUrl?: string;
  /** CSP_STRIPE: allow Stripe.js (js.stripe.com, api.stripe.com, hooks.stripe.com). */
  stripe: boolean;
}

/** The img-src entry for a tile URL template: `{s}.tile.example.org` becomes `*.tile.example.org`. */
export function tileSource(template: string): string | null {
  const m = /^(https?):\/\/([^/]+)/i.exec(template.trim());
  if (!m) return null;
  const host = m[2]!.replace(/\{[a-z]+\}/gi, '*');
  return `${m[1]!.toLowerCase()}://${host}`;
}

/** The Content-Security-Policy directives (helmet's format). */
export function cspDirectives(opts: CspOptions): Record<string, string[] | null> {
  const https = opts.publicUrl.startsWith('https:');
  const tiles = opts.mapTileUrl ? tileSource(opts.mapTileUrl) : null;
  const stripe = opts.stripe;
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    // The built app has no inline script; the landing pages' one is allowed by its hash.
    'script-src': ["'self'", ...INLINE_SCRIPT_HASHES, ...(stripe ? ['https://js.stripe.com'] : [])],
    'script-src-attr': ["'none'"],
    // Mantine sets inline styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Landing pages and Show Up projects may show images from any https address.
    'img-src': [
      "'self'",
      'data:',
      'blob:',
      'https:',
      ...(tiles ? [tiles] : []),
      ...(stripe ? ['https://*.stripe.com'] : []),
    ],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
    // Email previews are srcdoc frames of the app itself.
    'frame-src': ["'self'", ...(stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [])],
    'object-src': ["'none'"],
    'form-action': ["'self'", ...(stripe ? ['https://hooks.stripe.com'] : [])],
    'frame-ancestors': ["'none'"],
    'upgrade-insecure-requests': https ? [] : null,
  };
}

/** helmet's options for the app (every answer gets the same headers). */
function helmetOptions(opts: CspOptions): HelmetOptions {
  const https = opts.publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    // Cross-origin isolation would break map tiles and Stripe's frames.
    crossOriginEmbedderPolicy: false,
    // Images (the open pixel, uploads) are embedded by mail clients on other sites.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

/**
 * The security headers helmet sets, worked out once: helmet's middleware run against a response
 * that only records them. They depend on the configuration alone (no per-request nonce).
 */
export function securityHeaders(opts: CspOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(opts))({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet failed');
  });
  return headers;
}

/**
 * The headers of a JSON answer (/api, /trpc): it is never a document, so its policy allows nothing
 * (OWASP's REST guidance): no sources, no framing, no sniffing, no reads from other sites' pages.
 * The document-only headers (opener policy, agent cluster, DNS prefetch…) stay off: 1 KB less on
 * every call. Worked out from the pages' headers.
 */
export function apiHeaders(pages: Record<string, string>): Record<string, string> {
  const kept = ['referrer-policy', 'x-content-type-options', 'x-frame-options', 'strict-transport-security'];
  return {
    ...Object.fromEntries(kept.filter((h) => h in pages).map((h) => [h, pages[h]!])),
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
  };
}

/** A path the API answers (JSON, CSV, images), never a page. */
const isApiPath = (url: string) => url.startsWith('/trpc/') || url.startsWith('/api/');

/**
 * Security headers on every answer (the app, /api, /trpc, tracking and unsubscribe pages): one
 * synchronous onRequest hook that copies headers computed at start (@fastify/helmet rebuilt helmet's
 * middleware, CSP parsing included, on every request). A route may still override one with reply.header.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: CspOptions): void {
  const pages = securityHeaders(opts);
  const api = apiHeaders(pages);
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isApiPath(req.url) ? api : pages);
    done();
  });
}
