import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  churchByHandle,
  createPortalSession,
  findPortalSession,
  portalCsrfToken,
  renamedHandle,
  retryAfterOf,
  validPortalCsrf,
  PORTAL_COOKIE,
  PORTAL_SESSION_DAYS,
  portalPath,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { messagePage, portalLayout, signInForm, type PortalChurchView } from '@lampstand/api/render/portal-html';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import { renderChurchNotFound } from '@lampstand/api/render/church-home-html';
import type { AppDeps } from '../app-deps.js';

/** What the members' portal's routes share: form parsing, the church and session of a request, the layout. */

export type Body = Record<string, string | string[]>;

/** What 'My schedule' says after an answer or a change. */
const SCHEDULE_NOTICES: Record<string, string> = {
  accepted: 'Thank you. You have accepted.',
  declined: 'You have declined. The church will find someone else.',
  'blockout-added': 'The dates you are away are saved.',
  'blockout-removed': 'The dates you are away are removed.',
};
export type Req = FastifyRequest<{ Params: Record<string, string> }>;

/** A form body; a repeated name (the list checkboxes) becomes an array. */
export function parseForm(text: string): Body {
  const out: Body = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}
export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
export const many = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
export const idParam = (s: string | undefined) => (s && /^\d{1,9}$/.test(s) ? Number(s) : -1);

function cookieValue(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === PORTAL_COOKIE) return v.join('=');
  }
  return undefined;
}

/** The portal's kit, made once for the app: every route file takes its helpers from it. */
export type PortalKit = ReturnType<typeof portalKit>;

export function portalKit(opts: { deps: AppDeps; publicUrl: string }) {
  const { db } = opts.deps;
  const secure = opts.publicUrl.startsWith('https:');
  const secret = opts.deps.delivery.trackingSecret;
  const mail = {
    db,
    jobs: opts.deps.jobs,
    publicUrl: opts.publicUrl,
    canText: opts.deps.sms.kind === 'outbox' || Boolean(opts.deps.delivery.smsFromNumber),
  };

  const view = (c: PortalChurch): PortalChurchView => ({ churchName: c.churchName, base: portalPath(c.handle) });
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html').header('cache-control', 'no-store').send(body);
  const cookie = (c: PortalChurch, value: string, maxAge: number) =>
    `${PORTAL_COOKIE}=${value}; Path=${portalPath(c.handle)}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  async function churchOf(req: Req, reply: FastifyReply): Promise<PortalChurch | null> {
    const c = await churchByHandle(db, req.params.handle ?? '');
    if (c) return c;
    // A handle given up within the year: the same portal page at the new handle (a GET only).
    const renamed = req.method === 'GET' ? await renamedHandle(db, req.params.handle ?? '') : null;
    if (renamed) {
      const rest = req.url.slice(portalPath(req.params.handle ?? '').length);
      reply.redirect(`${portalPath(renamed)}${rest}`, 301);
    } else html(reply, 404, renderChurchNotFound());
    return null;
  }

  /** The session for this church; a cookie of another church (or an ended session) signs out. */
  async function sessionOf(req: Req, reply: FastifyReply, c: PortalChurch): Promise<PortalSession | null> {
    const value = cookieValue(req);
    if (!value) return null;
    const s = await findPortalSession(db, value);
    if (s && s.userId === c.userId) return s;
    reply.header('set-cookie', cookie(c, '', 0));
    return null;
  }

  async function signIn(reply: FastifyReply, c: PortalChurch, contactIds: number[]) {
    const token = await createPortalSession(db, c.userId, contactIds);
    return reply
      .code(303)
      .header('set-cookie', cookie(c, token, PORTAL_SESSION_DAYS * 86_400))
      .header('cache-control', 'no-store')
      .redirect(portalPath(c.handle), 303);
  }

  /** A portal write: the page's own origin and the session's form token, like the staff app refuses cross-site writes. */
  function writeAllowed(req: Req, s: PortalSession): boolean {
    const origin = req.headers.origin;
    const host = req.headers.host;
    if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) return false;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    return validPortalCsrf(secret, s, one((req.body as Body | undefined)?.csrf));
  }

  /** A signed-in page or write: the church, its session (else the sign-in form), and for writes the CSRF check. */
  function signedIn(
    write: boolean,
    handler: (req: Req, reply: FastifyReply, c: PortalChurch, s: PortalSession) => Promise<unknown>,
  ) {
    return async (req: Req, reply: FastifyReply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const s = await sessionOf(req, reply, c);
      if (!s) return write ? html(reply, 401, signInForm(view(c))) : reply.redirect(portalPath(c.handle), 303);
      if (write && !writeAllowed(req, s))
        return html(
          reply,
          403,
          messagePage(view(c), 'Request refused', 'Cross-site request refused. Please use the form on this page.'),
        );
      try {
        return await handler(req, reply, c, s);
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return html(reply, 404, renderNotFound());
        // An answer the slot no longer takes ('Already covered by …').
        if (err instanceof AppError && err.code === 'CONFLICT')
          return html(reply, 409, messagePage(view(c), err.message, err.message));
        if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') {
          reply.header('retry-after', String(retryAfterOf(err) ?? 60));
          return html(reply, 429, messagePage(view(c), 'Please wait', err.message));
        }
        throw err;
      }
    };
  }

  const page = (c: PortalChurch, s: PortalSession, title: string, active: string, content: string, notice?: string) =>
    portalLayout(view(c), { title, active, csrf: portalCsrfToken(secret, s), notice }, content);
  const noticeOf = (req: Req) => {
    const done = (req.query as Record<string, string>).done;
    return done === 'saved'
      ? 'Your subscriptions are saved.'
      : done === 'proposed'
        ? 'Thank you. The church will check your changes.'
        : done === 'gift-saved'
          ? 'Your recurring gift is saved.'
          : done === 'gift-cancelled'
            ? 'Your recurring gift is cancelled.'
            : (SCHEDULE_NOTICES[done ?? ''] ?? undefined);
  };

  return {
    deps: opts.deps,
    db,
    secret,
    mail,
    view,
    html,
    cookie,
    churchOf,
    sessionOf,
    signIn,
    signedIn,
    writeAllowed,
    page,
    noticeOf,
    csrf: (s: PortalSession) => portalCsrfToken(secret, s),
    base: (c: PortalChurch) => portalPath(c.handle),
  };
}
