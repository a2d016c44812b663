import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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
    // The built app has no inline script; a future one must be added by its hash ('sha256-...').
    'script-src': ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
    'script-src-attr': ["'none'"],
    // Mantine sets inline styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : []), ...(stripe ? ['https://*.stripe.com'] : [])],
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

/** Security headers on every answer (the app, /api, /trpc, tracking and unsubscribe pages). */
export async function registerSecurityHeaders(app: FastifyInstance, opts: CspOptions): Promise<void> {
  const https = opts.publicUrl.startsWith('https:');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    // Cross-origin isolation would break map tiles and Stripe's frames.
    crossOriginEmbedderPolicy: false,
    // Images (the open pixel, uploads) are embedded by mail clients on other sites.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
}
