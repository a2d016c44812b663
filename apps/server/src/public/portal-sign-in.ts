import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  AppError,
  createPortalSession,
  describePortalLink,
  endPortalSession,
  endPortalSessionsEverywhere,
  manageLinkTarget,
  portalPeople,
  redeemPortalCode,
  redeemPortalLink,
  requestPortalSignIn,
  retryAfterOf,
  PORTAL_SESSION_DAYS,
  portalPath,
  type PortalChurch,
} from '@lampstand/api/server';
import { portalCodeSchema, portalSignInSchema } from '@lampstand/api/schemas/portal';
import { buttonPage, messagePage, signInForm, signInSent } from '@lampstand/api/render/portal-html';
import { homeSection } from '@lampstand/api/render/portal-sections-html';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import { one, type Body, type PortalKit } from './portal-kit.js';

/** Signing in to the members' portal (by link or code), the manage link of a campaign email, signing out. */
export function portalSignInRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, mail, view, html, cookie, churchOf, sessionOf, signIn, signedIn, page } = kit;
  app.get<{ Params: { handle: string } }>('/c/:handle/me', async (req, reply) => {
    const c = await churchOf(req, reply);
    if (!c) return reply;
    const s = await sessionOf(req, reply, c);
    if (!s) return html(reply, 200, signInForm(view(c)));
    const people = await portalPeople(db, s);
    return html(reply, 200, page(c, s, 'Welcome', '', homeSection(portalPath(c.handle), people)));
  });

  app.post<{ Params: { handle: string } }>('/c/:handle/me/sign-in', async (req, reply) => {
    const c = await churchOf(req, reply);
    if (!c) return reply;
    const body = (req.body ?? {}) as Body;
    const parsed = portalSignInSchema.safeParse({ address: one(body.address) });
    if (!parsed.success)
      return html(
        reply,
        400,
        signInForm(view(c), { address: one(body.address), error: parsed.error.issues[0]!.message }),
      );
    try {
      const { kind } = await requestPortalSignIn(mail, c, { address: parsed.data.address, clientKey: req.ip });
      return html(
        reply,
        200,
        signInSent(view(c), { phone: kind === 'phone' && mail.canText ? parsed.data.address : undefined }),
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') {
        reply.header('retry-after', String(retryAfterOf(err) ?? 60));
        return html(reply, 429, signInForm(view(c), { address: parsed.data.address, error: err.message }));
      }
      throw err;
    }
  });

  app.post<{ Params: { handle: string } }>(
    '/c/:handle/me/code',
    { config: { sameOrigin: true } },
    async (req, reply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const body = (req.body ?? {}) as Body;
      const parsed = portalCodeSchema.safeParse({ address: one(body.address), code: one(body.code) });
      if (!parsed.success)
        return html(
          reply,
          400,
          signInSent(view(c), { phone: one(body.address), error: parsed.error.issues[0]!.message }),
        );
      try {
        const r = await redeemPortalCode(db, c, parsed.data);
        if (r.state === 'ready') return signIn(reply, c, r.contactIds);
        return html(
          reply,
          400,
          signInSent(view(c), { phone: parsed.data.address, error: 'This code is not valid or has expired' }),
        );
      } catch (err) {
        if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS')
          return html(reply, 429, signInSent(view(c), { phone: parsed.data.address, error: err.message }));
        throw err;
      }
    },
  );

  const linkAnswer = (reply: FastifyReply, c: PortalChurch, state: 'used' | 'expired' | 'missing') =>
    state === 'used'
      ? html(
          reply,
          410,
          messagePage(
            view(c),
            'Link already used',
            'Each sign-in link works once. Enter your email again for a new link.',
          ),
        )
      : state === 'expired'
        ? html(
            reply,
            410,
            messagePage(
              view(c),
              'Link expired',
              'Sign-in links work for 15 minutes. Enter your email again for a new link.',
            ),
          )
        : html(reply, 404, messagePage(view(c), 'Link not found', 'This sign-in link is not valid.'));

  app.get<{ Params: { handle: string; token: string } }>('/c/:handle/me/link/:token', async (req, reply) => {
    const c = await churchOf(req, reply);
    if (!c) return reply;
    const state = await describePortalLink(db, c, req.params.token);
    if (state !== 'ready') return linkAnswer(reply, c, state);
    // A button, not an automatic sign-in: mail scanners open links, people press buttons.
    return html(reply, 200, buttonPage(view(c), 'Sign in', `Sign in to ${c.churchName}'s members' page?`, 'Sign in'));
  });

  app.post<{ Params: { handle: string; token: string } }>(
    '/c/:handle/me/link/:token',
    { config: { sameOrigin: true } },
    async (req, reply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const r = await redeemPortalLink(db, c, req.params.token);
      if (r.state !== 'ready') return linkAnswer(reply, c, r.state);
      return signIn(reply, c, r.contactIds);
    },
  );

  // 'Manage your subscriptions' in a campaign email: this contact only, no email round-trip.
  app.get<{ Params: { token: string } }>('/u/:token/manage', async (req, reply) => {
    const t = await manageLinkTarget(db, req.params.token);
    // A church without a public profile has no portal: the unsubscribe page answers instead.
    if (!t) return reply.redirect(`/u/${encodeURIComponent(req.params.token)}`, 302);
    return html(
      reply,
      200,
      buttonPage(
        view(t.church),
        'Manage your subscriptions',
        `Choose which messages you get from ${t.church.churchName}.`,
        'Manage your subscriptions',
      ),
    );
  });
  app.post<{ Params: { token: string } }>('/u/:token/manage', { config: { sameOrigin: true } }, async (req, reply) => {
    const t = await manageLinkTarget(db, req.params.token);
    if (!t) return html(reply, 404, renderNotFound());
    const token = await createPortalSession(db, t.church.userId, [t.contactId]);
    return reply
      .header('set-cookie', cookie(t.church, token, PORTAL_SESSION_DAYS * 86_400))
      .redirect(`${portalPath(t.church.handle)}/subscriptions`, 303);
  });

  app.post(
    '/c/:handle/me/sign-out',
    signedIn(true, async (_req, reply, c, s) => {
      await endPortalSession(db, s);
      return reply.header('set-cookie', cookie(c, '', 0)).redirect(portalPath(c.handle), 303);
    }),
  );
  app.post(
    '/c/:handle/me/sign-out-everywhere',
    signedIn(true, async (_req, reply, c, s) => {
      await endPortalSessionsEverywhere(db, s);
      return reply.header('set-cookie', cookie(c, '', 0)).redirect(portalPath(c.handle), 303);
    }),
  );
}
