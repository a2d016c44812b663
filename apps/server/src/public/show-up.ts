import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError, publicProjectSummary, receiptFacts, receiptText, receiveStripeWebhook } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import type { Config } from '../config.js';
import { escapeHtml } from '@lampstand/api/render/html';
import { renderReceiptPage } from '@lampstand/api/render/receipt-page';

function absolute(publicUrl: string, url: string): string {
  return url.startsWith('/') ? `${publicUrl}${url}` : url;
}

/**
 * Show Up's non-tRPC HTTP: Open Graph tags on /show-up/{id} (so a shared link shows the project),
 * the Stripe webhook and receipts. (The public REST reads' cache headers are their route rows'
 * `publicCacheSeconds`.)
 */
async function showUpPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps; config: Config }): Promise<void> {
  const { db } = opts.deps;
  const { publicUrl, webDist } = opts.config;

  // Stripe webhooks: the signature is over the raw body, so this scope keeps JSON as text.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    // publicNoCsrf: Stripe signs the body; no session is used here.
    scoped.post('/api/stripe/webhook', { config: { publicNoCsrf: true } }, async (req, reply) => {
      const signature = req.headers['stripe-signature'];
      try {
        const result = await receiveStripeWebhook(
          {
            db,
            jobs: opts.deps.jobs,
            publicUrl,
            payments: opts.deps.showUp.payments,
          },
          typeof req.body === 'string' ? req.body : '',
          Array.isArray(signature) ? signature[0] : signature,
        );
        if (result.outcome === 'amount_mismatch') {
          req.log.warn({ donationId: result.donationId }, 'Stripe event refused: amount or currency does not match');
        }
        return reply.send({ received: true, outcome: result.outcome });
      } catch (err) {
        if (err instanceof AppError) return reply.code(400).send({ message: err.message, code: 'BAD_REQUEST' });
        throw err;
      }
    });
  });

  // The receipt a donor's email and the thank-you page link to (the token is 192 random bits).
  app.get<{ Params: { token: string } }>('/show-up/receipts/:token', async (req, reply) => {
    const facts = /^[A-Za-z0-9_-]{20,64}$/.test(req.params.token)
      ? await receiptFacts(db, { token: req.params.token })
      : null;
    reply.type('text/html').header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
    if (!facts) {
      return reply
        .code(404)
        .send(
          renderReceiptPage('Receipt not found', '<h1>Receipt not found</h1><p>This receipt link is not valid.</p>'),
        );
    }
    const { lines } = receiptText(facts);
    const [heading, address, , ...rest] = lines;
    return renderReceiptPage(
      `Receipt ${facts.id}`,
      `<h1>${escapeHtml(heading!)}</h1>${address ? `<p class="addr">${escapeHtml(address)}</p>` : ''}` +
        (facts.status === 'refunded' ? '<p><strong>This donation was refunded.</strong></p>' : '') +
        rest.map((l) => (l ? `<p>${escapeHtml(l)}</p>` : '')).join('') +
        `<p><a href="/show-up/${facts.projectId}">Back to the project</a></p>`,
      { printable: true },
    );
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
      // Replacement functions, never strings: `$&`, `$'` or `` $` `` in a title are text, not patterns.
      page = page
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(project.title)} | Show Up</title>`)
        .replace(
          /<meta name="description" content="[^"]*" \/>/,
          () => `<meta name="description" content="${escapeHtml(project.shortDescription)}" />`,
        )
        .replace('</head>', () => `    ${tags}\n  </head>`);
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(page);
  });
}

export const showUpPublic = showUpPublicRoutes;
