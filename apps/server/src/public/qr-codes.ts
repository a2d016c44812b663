import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deviceClass, isCrawlerScan, referrerHost, resolveShortLink, ScanRecorder } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';

const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Link not found</title><style>body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f8f9fa;color:#1f2937;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:32px;max-width:440px;margin:16px}h1{font-size:22px;margin:0 0 12px}</style></head>
<body><main><h1>Link not found</h1><p>This short link does not exist or has been removed.</p></main></body></html>`;

/**
 * Short links of QR codes: `/s/{code}` answers a 302 to the code's destination now (its schedule,
 * UTM parameters and first-party attribution applied) and counts the scan after answering, in a
 * batch. `?src=qr` marks a scan of the printed code; without it, a click on the shared link.
 * Crawlers, link previews, prefetches and HEAD requests are not counted.
 *
 * The redirect answers from an `onRequest` hook registered at the root before the cookie and
 * session plugins, so a scan never pays for a session (the session's hook alone halves the
 * throughput); replying from a hook skips the hooks after it. The route is declared for routing.
 */
export const qrShortLinkRoutes = Object.assign(
  async function qrShortLinkRoutes(app: FastifyInstance, opts: { deps: AppDeps; scanFlushMs: number }): Promise<void> {
    const { db, qr } = opts.deps;
    const recorder = new ScanRecorder(db, {
      flushMs: opts.scanFlushMs,
      batchSize: 500,
      onError: (err) => app.log.error({ err }, 'QR scans not recorded'),
    });
    app.addHook('onClose', async () => recorder.close());

    async function redirect(req: FastifyRequest, reply: FastifyReply) {
      const now = new Date();
      const { code } = req.params as { code: string };
      const source = (req.query as { src?: string }).src === 'qr' ? 'qr' : 'link';
      const link = await resolveShortLink(db, { code, source, now, publicUrl: qr.publicUrl });
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer-when-downgrade');
      if (!link) return reply.code(404).type('text/html').send(NOT_FOUND_PAGE);
      const ua = req.headers['user-agent'];
      if (req.method === 'GET' && !isCrawlerScan(ua, req.headers)) {
        recorder.record({
          qrCodeId: link.qrCodeId,
          userId: link.userId,
          at: now,
          source,
          device: deviceClass(ua),
          referrerHost: referrerHost(req.headers.referer),
        });
      }
      return reply.redirect(link.location, 302);
    }

    app.addHook('onRequest', async (req, reply) => {
      if (req.routeOptions.url === '/s/:code') return redirect(req, reply);
    });
    app.get('/s/:code', redirect);
  },
  // Root level (no encapsulation), so the hook above also runs for the route, before the session's.
  { [Symbol.for('skip-override')]: true },
);
