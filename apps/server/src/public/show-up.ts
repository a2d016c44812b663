import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicProjectSummary } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { SESSION_COOKIE } from '../server.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Public Show Up reads: the spec's 5 minutes for visitors; a signed-in viewer revalidates every time. */
const CACHEABLE = /^\/api\/show-up\/projects(\/\d+(\/(updates|donations))?)?(\?|$)/;

function absolute(publicUrl: string, url: string): string {
  return url.startsWith('/') ? `${publicUrl}${url}` : url;
}

/**
 * Show Up's non-tRPC HTTP: Open Graph tags on /show-up/{id} (so a shared link shows the project),
 * cache headers on the public REST reads.
 */
async function showUpPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps; config: Config }): Promise<void> {
  const { db } = opts.deps;
  const { publicUrl, webDist } = opts.config;

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (req.method !== 'GET' || reply.statusCode !== 200 || !CACHEABLE.test(req.url)) return payload;
    const signedIn = !!req.cookies?.[SESSION_COOKIE];
    reply.header('cache-control', signedIn ? 'private, no-cache' : 'public, max-age=300');
    reply.header('vary', 'Cookie');
    if (typeof payload === 'string') {
      const etag = `W/"${crypto.createHash('sha1').update(payload).digest('base64url')}"`;
      reply.header('etag', etag);
      if (req.headers['if-none-match'] === etag) {
        reply.code(304);
        return '';
      }
    }
    return payload;
  });

  let indexHtml: string | null | undefined;
  const readIndex = () => {
    if (indexHtml === undefined) {
      const file = path.join(webDist, 'index.html');
      indexHtml = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    }
    return indexHtml;
  };

  app.get<{ Params: { id: string } }>('/show-up/:id', async (req, reply) => {
    const html = readIndex();
    const id = /^\d{1,10}$/.test(req.params.id) ? Number(req.params.id) : null;
    const project = id && id <= 2_147_483_647 ? await publicProjectSummary(db, { id }) : null;
    if (!html && !project) return reply.code(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    let page = html ?? '<!doctype html><html lang="en"><head><title>Lampstand</title></head><body></body></html>';
    if (project) {
      const url = `${publicUrl}/show-up/${project.id}`;
      const tags = [
        ['og:type', 'website'],
        ['og:site_name', 'Lampstand'],
        ['og:title', project.title],
        ['og:description', project.shortDescription],
        ['og:url', url],
        ...(project.coverImage ? [['og:image', absolute(publicUrl, project.coverImage)]] : []),
      ]
        .map(([k, v]) => `<meta property="${k}" content="${escapeHtml(v!)}" />`)
        .concat([
          `<meta name="twitter:card" content="${project.coverImage ? 'summary_large_image' : 'summary'}" />`,
          `<link rel="canonical" href="${escapeHtml(url)}" />`,
        ])
        .join('\n    ');
      page = page
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(project.title)} | Show Up</title>`)
        .replace(
          /<meta name="description" content="[^"]*" \/>/,
          `<meta name="description" content="${escapeHtml(project.shortDescription)}" />`,
        )
        .replace('</head>', `    ${tags}\n  </head>`);
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(page);
  });
}

// Its onSend hook covers the REST rows registered by the REST plugin, so it is not encapsulated.
(showUpPublicRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
export const showUpPublic = showUpPublicRoutes;
