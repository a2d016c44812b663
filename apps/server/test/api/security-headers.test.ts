import { describe, expect, it } from 'vitest';
import { cspDirectives, tileSource } from '../../src/security/headers.js';
import { startTestApp } from '../helpers/test-app.js';

// Security headers on every kind of answer: the app, /api, /trpc, the tracking and unsubscribe pages.
const app = await startTestApp();
const https = await startTestApp({ publicUrl: 'https://lampstand.example.org' });

const PATHS = [
  '/',
  '/contacts',
  '/api/user',
  '/api/openapi.json',
  '/trpc/auth.me',
  '/u/some-token',
  '/t/o/x.gif',
  '/healthz',
];

describe('security headers', () => {
  it.each(PATHS)('%s', async (path) => {
    const res = await fetch(app.url + path);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const res = await fetch(`${https.url}/api/user`);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
  });
});

describe('configurable sources', () => {
  it('MAP_TILE_URL adds its host to img-src', () => {
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe('https://*.tile.openstreetmap.org');
    const d = cspDirectives({
      publicUrl: 'http://x',
      mapTileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
      stripe: false,
    });
    expect(d['img-src']).toContain('https://tiles.example.org');
    expect(d['script-src']).toEqual(["'self'"]);
  });
  it('CSP_STRIPE allows Stripe.js, its API and its frames', () => {
    const d = cspDirectives({ publicUrl: 'http://x', stripe: true });
    expect(d['script-src']).toContain('https://js.stripe.com');
    expect(d['connect-src']).toContain('https://api.stripe.com');
    expect(d['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com']);
  });
});
