import type { FastifyInstance } from 'fastify';
import { DEFAULT_MAP_TILE_URL } from '@lampstand/api/server';
import './route-config.js';
import { registerBodyLimits } from './body-limits.js';
import { registerPrivateCaching } from './cache-control.js';
import { registerProxyWarning } from './proxy-warning.js';
import { registerCsrf } from './csrf.js';
import { registerSecurityHeaders } from './headers.js';
import type { Config } from '../config.js';

/**
 * The global defences, as hooks on the root instance so that every route inherits them, including
 * routes that feature plugins register later. Register before any route. See docs/security.md.
 */
export async function registerSecurity(app: FastifyInstance, config: Config, cookieName: string): Promise<void> {
  registerSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    mapTileUrl: config.mapTileUrl ?? DEFAULT_MAP_TILE_URL,
    // Stripe.js is needed wherever card giving is configured.
    stripe: config.cspStripe || Boolean(config.stripePublishableKey),
  });
  registerCsrf(app, { cookieName, allowedOrigins: allowedOrigins(config) });
  registerBodyLimits(app, { bodyTimeoutMs: config.bodyTimeoutMs });
  registerPrivateCaching(app, { cookieName });
  registerProxyWarning(app, { trustProxy: config.trustProxy });
}

/** PUBLIC_URL's origin, ALLOWED_ORIGINS, and in development the Vite dev server. */
export function allowedOrigins(config: Config): string[] {
  const origins = new Set<string>([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
  if (config.nodeEnv === 'development') origins.add('http://localhost:5173');
  return [...origins];
}
