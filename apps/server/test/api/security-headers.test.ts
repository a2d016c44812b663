import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { renderLandingPage, renderNotFound } from '@lampstand/api/render/landing-page-html';
import { landingPageContentSchema } from '@lampstand/api/schemas/landing-pages';
import { normalizeContent } from '@lampstand/api/shared/landing-pages';
import { cspDirectives, INLINE_SCRIPT_HASHES, tileSource } from '../../src/security/headers.js';
import { startTestApp } from '../helpers/test-app.js';

// Security headers on every kind of answer: the app, /api, /trpc, the tracking and unsubscribe pages.
const app = await startTestApp();
const https = await startTestApp({ publicUrl: 'https://lampstand.example.org' });

const PAGES = ['/', '/contacts', '/u/some-token', '/t/o/x.gif', '/healthz'];
const API = ['/api/user', '/api/openapi.json', '/api/no-such-route', '/trpc/auth.me'];

describe('security headers', () => {
  it.each(PAGES)('%s', async (path) => {
    const res = await fetch(app.url + path);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    // 'self' and the landing pages' one inline script by its hash, nothing else.
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*(;|$)/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });

  // JSON is never a document: a policy that allows nothing, and none of the document-only headers.
  it.each(API)('%s', async (path) => {
    const res = await fetch(app.url + path);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(res.headers.get('x-dns-prefetch-control')).toBeNull();
  });

  it('HSTS and upgrade-insecure-requests when PUBLIC_URL is https', async () => {
    const res = await fetch(`${https.url}/contacts`);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    const api = await fetch(`${https.url}/api/user`);
    expect(api.headers.get('strict-transport-security')).toMatch(/max-age=31536000; includeSubDomains/);
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
    expect(d['script-src']).toEqual(["'self'", ...INLINE_SCRIPT_HASHES]);
  });
  it("allows the public pages' inline script by the hash of the script they really contain", () => {
    const page = renderLandingPage({
      publicUrl: 'https://church.example',
      churchName: 'Grace',
      name: 'n',
      slug: 's',
      content: normalizeContent(landingPageContentSchema.parse({ headline: 'Easter' })),
    });
    const html = page + renderNotFound();
    expect(html).not.toMatch(/ on[a-z]+=/);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    for (const js of scripts) {
      const hash = `'sha256-${createHash('sha256').update(js).digest('base64')}'`;
      expect(INLINE_SCRIPT_HASHES).toContain(hash);
    }
  });
  it('CSP_STRIPE allows Stripe.js, its API and its frames', () => {
    const d = cspDirectives({ publicUrl: 'http://x', stripe: true });
    expect(d['script-src']).toContain('https://js.stripe.com');
    expect(d['connect-src']).toContain('https://api.stripe.com');
    expect(d['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com']);
  });
});
