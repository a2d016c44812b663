import type { FastifyInstance } from 'fastify';
import {
  describeUnsubscribe,
  describeVerificationLink,
  recordClick,
  recordOpen,
  unsubscribeByToken,
  verifyEmailToken,
  actingAs,
  PUBLIC_ACTOR,
  type VerificationOutcome,
} from '@lampstand/api/server';
import type { AppDeps } from './app-deps.js';
import { escapeHtml } from '@lampstand/api/render/html';

// A transparent 1×1 GIF.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f8f9fa;color:#1f2937;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:32px;max-width:440px;margin:16px}
h1{font-size:22px;margin:0 0 12px}p{line-height:1.6}button{background:#3b5bdb;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:16px;cursor:pointer}
button:focus-visible{outline:3px solid #364fc7;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;
}

/** The page a verification link shows, by what the link did or would do; with its status code. */
function verificationPage(o: VerificationOutcome, used: boolean): { status: number; html: string } {
  const openApp = '<p><a href="/account">Open your account</a></p>';
  if (o.status === 'verified' && used)
    return {
      status: 200,
      html: page(
        'Email verified',
        `<h1>Your email is verified</h1><p>Thank you: ${escapeHtml(o.email)} is now verified for ${escapeHtml(o.churchName)}. ` +
          `Your campaigns are no longer limited to a number of people a day.</p>${openApp}`,
      ),
    };
  if (o.status === 'verified')
    // A button, not an automatic verification: mail scanners open links, people press buttons.
    return {
      status: 200,
      html: page(
        'Verify your email',
        `<h1>Verify your email</h1><p>Confirm that ${escapeHtml(o.email)} is the email address of ${escapeHtml(o.churchName)}?</p>` +
          '<form method="post"><button type="submit">Verify my email</button></form>',
      ),
    };
  if (o.status === 'used')
    return {
      status: 410,
      html: page(
        'Link already used',
        `<h1>This link has already been used</h1><p>Each verification link works once. If your email is not verified yet, send a new link from the Account page.</p>${openApp}`,
      ),
    };
  if (o.status === 'expired')
    return {
      status: 410,
      html: page(
        'Link expired',
        `<h1>This link has expired</h1><p>Verification links work for 24 hours. Send a new link from the Account page.</p>${openApp}`,
      ),
    };
  return {
    status: 404,
    html: page(
      'Link not found',
      '<h1>Link not found</h1><p>This verification link is not valid, or it was sent to an email address the account no longer uses.</p>',
    ),
  };
}

/**
 * Public endpoints reached from campaign messages (no login): the open pixel, tracked links and
 * unsubscribing. Tokens are 256-bit random values; tracked links also carry an HMAC of the
 * destination, so this is no open redirect.
 */
export async function publicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, delivery } = opts.deps;
  // The visitor of a link acts for the events these routes record (an open, a click, an unsubscribe).
  const publicDb = actingAs(db, PUBLIC_ACTOR);

  // RFC 8058 one-click unsubscribe posts application/x-www-form-urlencoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get<{ Params: { file: string } }>('/t/o/:file', async (req, reply) => {
    const token = req.params.file.replace(/\.gif$/, '');
    await recordOpen(publicDb, token).catch((err) => req.log.warn({ err }, 'open not recorded'));
    return reply.type('image/gif').header('cache-control', 'no-store, max-age=0').send(PIXEL);
  });

  app.get<{ Params: { token: string }; Querystring: { u?: string; s?: string } }>('/t/c/:token', async (req, reply) => {
    const url = await recordClick(
      publicDb,
      delivery.trackingSecret,
      req.params.token,
      req.query.u ?? '',
      req.query.s ?? '',
    );
    if (!url)
      return reply
        .code(404)
        .type('text/html')
        .send(page('Link not found', '<h1>Link not found</h1><p>This link is not valid.</p>'));
    return reply.redirect(url, 302);
  });

  // Account email verification: GET shows what the link does, POST uses it.
  app.get<{ Params: { token: string } }>('/verify-email/:token', async (req, reply) => {
    const { status, html } = verificationPage(await describeVerificationLink(db, req.params.token), false);
    return reply.code(status).type('text/html').header('cache-control', 'no-store').send(html);
  });
  app.post<{ Params: { token: string } }>('/verify-email/:token', async (req, reply) => {
    const { status, html } = verificationPage(await verifyEmailToken(db, req.params.token), true);
    return reply.code(status).type('text/html').header('cache-control', 'no-store').send(html);
  });

  app.get<{ Params: { token: string } }>('/u/:token', async (req, reply) => {
    const target = await describeUnsubscribe(db, req.params.token);
    reply.type('text/html').header('cache-control', 'no-store');
    if (!target)
      return reply
        .code(404)
        .send(page('Link not found', '<h1>Link not found</h1><p>This unsubscribe link is not valid.</p>'));
    if (target.alreadyUnsubscribed) {
      return page(
        'Unsubscribed',
        `<h1>You are unsubscribed</h1><p>${escapeHtml(target.email)} will no longer receive emails from ${escapeHtml(target.churchName)}.</p>`,
      );
    }
    // A button, not an automatic unsubscribe: mail scanners open links, people press buttons.
    return page(
      'Unsubscribe',
      `<h1>Unsubscribe</h1><p>Stop emails from ${escapeHtml(target.churchName)} to ${escapeHtml(target.email)}?</p>` +
        `<form method="post"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>('/u/:token', async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const oneClick = body['List-Unsubscribe'] === 'One-Click';
    const target = await unsubscribeByToken(publicDb, req.params.token, oneClick ? 'one-click' : 'link');
    if (!target)
      return reply
        .code(404)
        .type('text/html')
        .send(page('Link not found', '<h1>Link not found</h1><p>This unsubscribe link is not valid.</p>'));
    if (oneClick) return reply.code(200).send({ ok: true });
    return reply
      .type('text/html')
      .send(
        page(
          'Unsubscribed',
          `<h1>You are unsubscribed</h1><p>${escapeHtml(target.email)} will no longer receive emails from ${escapeHtml(target.churchName)}.</p>`,
        ),
      );
  });
}
