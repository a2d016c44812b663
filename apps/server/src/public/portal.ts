import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import {
  AppError,
  churchByHandle,
  confirmProposalCode,
  confirmProposalEmail,
  createPortalSession,
  describePortalLink,
  endPortalSession,
  endPortalSessionsEverywhere,
  findPortalSession,
  manageLinkTarget,
  openProposals,
  portalCsrfToken,
  portalHousehold,
  portalLists,
  portalPeople,
  portalPerson,
  proposeDetails,
  redeemPortalCode,
  redeemPortalLink,
  renamedHandle,
  requestPortalSignIn,
  retryAfterOf,
  setPortalSubscriptions,
  unsubscribeEverything,
  validPortalCsrf,
  portalSchedule,
  answerPortalAssignment,
  addPortalBlockout,
  deletePortalBlockout,
  PORTAL_COOKIE,
  PORTAL_SESSION_DAYS,
  portalPath,
  changePortalSchedule,
  churchToday,
  getChurchSettings,
  portalGift,
  portalGifts,
  portalSchedules,
  portalStatementPdf,
  portalStatements,
  publicFunds,
  type PortalChurch,
  type PortalScheduleChange,
  type PortalSession,
} from '@lampstand/api/server';
import { cancelScheduleSection, giftReceiptSection, myGivingSection } from '@lampstand/api/render/portal-giving-html';
import { FREQUENCIES, type RecurringFrequency } from '@lampstand/api/schemas/giving';
import { portalCodeSchema, portalSignInSchema } from '@lampstand/api/schemas/portal';
import {
  buttonPage,
  messagePage,
  portalLayout,
  signInForm,
  signInSent,
  type PortalChurchView,
} from '@lampstand/api/render/portal-html';
import {
  detailsSection,
  homeSection,
  householdSection,
  subscriptionsSection,
  type DetailsView,
} from '@lampstand/api/render/portal-sections-html';
import { scheduleSection, type BlockoutFormState } from '@lampstand/api/render/portal-schedule-html';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import type { AppDeps } from '../app-deps.js';
import { portalSwapRoutes } from './portal-swaps.js';

type Body = Record<string, string | string[]>;

/** What 'My schedule' says after an answer or a change. */
const SCHEDULE_NOTICES: Record<string, string> = {
  accepted: 'Thank you. You have accepted.',
  declined: 'You have declined. The church will find someone else.',
  'blockout-added': 'Your blockout dates are saved.',
  'blockout-removed': 'Your blockout dates are removed.',
};
type Req = FastifyRequest<{ Params: Record<string, string> }>;

/** A form body; a repeated name (the list checkboxes) becomes an array. */
function parseForm(text: string): Body {
  const out: Body = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';
const many = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const idParam = (s: string | undefined) => (s && /^\d{1,9}$/.test(s) ? Number(s) : -1);

function cookieValue(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === PORTAL_COOKIE) return v.join('=');
  }
  return undefined;
}

/**
 * The members' portal (issue 28 §3–6) at `/c/{handle}/me`: sign-in by link or code, then the
 * person's subscriptions, details and household, all server-rendered without JavaScript. Its
 * cookie is its own (path `/c/{handle}/me`), so the staff API never sees it, and a session only
 * reaches its church and its contacts: any other id answers 404. Writes are plain form posts,
 * each carrying an HMAC of the session and checked for the page's own origin.
 */
export async function portalRoutes(app: FastifyInstance, opts: { deps: AppDeps; publicUrl: string }): Promise<void> {
  const { db } = opts.deps;
  const secure = opts.publicUrl.startsWith('https:');
  const secret = opts.deps.delivery.trackingSecret;
  const mail = {
    db,
    jobs: opts.deps.jobs,
    publicUrl: opts.publicUrl,
    canText: opts.deps.sms.kind === 'outbox' || Boolean(opts.deps.delivery.smsFromNumber),
  };

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_r, body, done) => done(null, parseForm(String(body))),
  );

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
    } else html(reply, 404, renderNotFound());
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

  // ---- Signing in ----
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

  // ---- Subscriptions ----
  app.get(
    '/c/:handle/me/subscriptions',
    signedIn(false, async (req, reply, c, s) => {
      const people = await portalPeople(db, s);
      const rows = await Promise.all(
        people.map(async (person) => ({ person, lists: await portalLists(db, s, person.id) })),
      );
      const content = subscriptionsSection(portalPath(c.handle), portalCsrfToken(secret, s), rows);
      return html(reply, 200, page(c, s, 'Subscriptions', '/subscriptions', content, noticeOf(req)));
    }),
  );
  app.post(
    '/c/:handle/me/subscriptions/:id',
    signedIn(true, async (req, reply, c, s) => {
      const body = (req.body ?? {}) as Body;
      await setPortalSubscriptions(db, s, idParam(req.params.id), {
        email: one(body.email) === 'on',
        sms: one(body.sms) === 'on',
        listIds: many(body.list).map(Number).filter(Number.isInteger),
      });
      return reply.redirect(`${portalPath(c.handle)}/subscriptions?done=saved`, 303);
    }),
  );
  app.post(
    '/c/:handle/me/subscriptions/:id/unsubscribe-all',
    signedIn(true, async (req, reply, c, s) => {
      await unsubscribeEverything(db, s, idParam(req.params.id));
      return reply.redirect(`${portalPath(c.handle)}/subscriptions?done=saved`, 303);
    }),
  );

  // ---- My details ----
  async function detailsViews(
    s: PortalSession,
    override?: { id: number; values: Record<string, string>; errors: Record<string, string> },
  ) {
    const people = await portalPeople(db, s);
    return Promise.all(
      people.map(async (person): Promise<DetailsView> => {
        const waiting = (await openProposals(db, s, person.id)).map((w) => ({
          id: w.id,
          status: w.status,
          fields: Object.keys(w.changes),
          awaitingEmail: !!w.awaitingEmail,
          awaitingPhone: !!w.awaitingPhone,
        }));
        return override?.id === person.id
          ? { person, waiting, values: override.values, errors: override.errors }
          : { person, waiting };
      }),
    );
  }
  app.get(
    '/c/:handle/me/details',
    signedIn(false, async (req, reply, c, s) => {
      const content = detailsSection(portalPath(c.handle), portalCsrfToken(secret, s), await detailsViews(s));
      return html(reply, 200, page(c, s, 'My details', '/details', content, noticeOf(req)));
    }),
  );
  app.post(
    '/c/:handle/me/details/:id',
    signedIn(true, async (req, reply, c, s) => {
      const id = idParam(req.params.id);
      await portalPerson(db, s, id);
      const body = (req.body ?? {}) as Body;
      const values = Object.fromEntries(
        ['firstName', 'lastName', 'email', 'phone', 'address', 'dateOfBirth'].map((k) => [k, one(body[k])]),
      );
      try {
        await proposeDetails(mail, c, s, id, values);
        return reply.redirect(`${portalPath(c.handle)}/details?done=proposed`, 303);
      } catch (err) {
        const errors: Record<string, string> = {};
        if (err instanceof ZodError) for (const i of err.issues) errors[String(i.path[0] ?? '_')] ??= i.message;
        else if (err instanceof AppError && err.code === 'BAD_REQUEST') errors._ = err.message;
        else throw err;
        const content = detailsSection(
          portalPath(c.handle),
          portalCsrfToken(secret, s),
          await detailsViews(s, { id, values, errors }),
        );
        return html(reply, 400, page(c, s, 'My details', '/details', content));
      }
    }),
  );
  app.post(
    '/c/:handle/me/details/:id/confirm-phone/:proposal',
    signedIn(true, async (req, reply, c, s) => {
      await portalPerson(db, s, idParam(req.params.id));
      const ok = await confirmProposalCode(
        db,
        s,
        idParam(req.params.proposal),
        one(((req.body ?? {}) as Body).code).trim(),
      );
      if (!ok)
        return html(reply, 400, messagePage(view(c), 'Code not valid', 'This code is not valid or has expired.'));
      return reply.redirect(`${portalPath(c.handle)}/details?done=proposed`, 303);
    }),
  );

  // The new email's confirmation link (no session needed: the link is the proof).
  app.get<{ Params: { handle: string; token: string } }>('/c/:handle/me/confirm/:token', async (req, reply) => {
    const c = await churchOf(req, reply);
    if (!c) return reply;
    return html(
      reply,
      200,
      buttonPage(
        view(c),
        'Confirm your email address',
        'Confirm that this is your new email address?',
        'Confirm my email address',
      ),
    );
  });
  app.post<{ Params: { handle: string; token: string } }>(
    '/c/:handle/me/confirm/:token',
    { config: { sameOrigin: true } },
    async (req, reply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const ok = await confirmProposalEmail(db, c, req.params.token);
      if (!ok)
        return html(reply, 404, messagePage(view(c), 'Link not found', 'This link is not valid or has expired.'));
      return html(
        reply,
        200,
        messagePage(view(c), 'Email address confirmed', 'Thank you. The church will check your changes.'),
      );
    },
  );

  // ---- My schedule (issue 31 §1) ----
  const schedulePage = async (c: PortalChurch, s: PortalSession, notice?: string, state?: BlockoutFormState) =>
    page(
      c,
      s,
      'My schedule',
      '/schedule',
      scheduleSection(portalPath(c.handle), portalCsrfToken(secret, s), await portalSchedule(db, s), state),
      notice,
    );
  app.get(
    '/c/:handle/me/schedule',
    signedIn(false, async (req, reply, c, s) => html(reply, 200, await schedulePage(c, s, noticeOf(req)))),
  );
  for (const response of ['accept', 'decline'] as const)
    app.post(
      `/c/:handle/me/schedule/:id/${response}`,
      signedIn(true, async (req, reply, c, s) => {
        await answerPortalAssignment(db, s, { assignmentId: idParam(req.params.id), response });
        return reply.redirect(`${portalPath(c.handle)}/schedule?done=${response}ed`, 303);
      }),
    );
  app.post(
    '/c/:handle/me/schedule/blockouts',
    signedIn(true, async (req, reply, c, s) => {
      const body = (req.body ?? {}) as Body;
      const values = Object.fromEntries(
        ['startsOn', 'endsOn', 'reason', 'repeat', 'nth', 'weekday', 'interval'].map((k) => [k, one(body[k])]),
      );
      const memberId = idParam(one(body.memberId));
      try {
        await addPortalBlockout(db, s, {
          memberId,
          startsOn: values.startsOn!,
          endsOn: values.endsOn!,
          reason: values.reason!,
          repeat: values.repeat!,
          nth: values.nth!,
          weekday: values.weekday!,
          interval: values.interval!,
        });
        return reply.redirect(`${portalPath(c.handle)}/schedule?done=blockout-added`, 303);
      } catch (err) {
        if (!(err instanceof ZodError)) throw err;
        const errors: Record<string, string> = {};
        for (const i of err.issues) {
          const k = String(i.path[0] ?? '_');
          errors[['startsOn', 'endsOn', 'reason'].includes(k) ? k : '_'] ??= i.message;
        }
        return html(reply, 400, await schedulePage(c, s, undefined, { memberId, values, errors }));
      }
    }),
  );
  app.post(
    '/c/:handle/me/schedule/blockouts/:id/delete',
    signedIn(true, async (req, reply, c, s) => {
      await deletePortalBlockout(db, s, idParam(req.params.id));
      return reply.redirect(`${portalPath(c.handle)}/schedule?done=blockout-removed`, 303);
    }),
  );
  // ---- Swap a date (issue 31 §7; its own file) ----
  portalSwapRoutes(app, opts.deps, {
    signedIn,
    page,
    html,
    csrf: (s) => portalCsrfToken(secret, s),
    base: (c) => portalPath(c.handle),
  });

  // ---- My household ----
  app.get(
    '/c/:handle/me/household',
    signedIn(false, async (_req, reply, c, s) => {
      return html(reply, 200, page(c, s, 'My household', '/household', householdSection(await portalHousehold(db, s))));
    }),
  );

  // ---- My giving (issue 30 §5) ----
  const givingPage = async (
    req: Req,
    reply: FastifyReply,
    c: PortalChurch,
    s: PortalSession,
    error?: { scheduleId: number; message: string },
  ) => {
    const [gifts, schedules, statements, funds, today] = await Promise.all([
      portalGifts(db, s),
      portalSchedules(db, s),
      portalStatements(db, s),
      publicFunds(db, c.userId),
      churchToday(db, c.userId, new Date()),
    ]);
    const content = myGivingSection(portalPath(c.handle), portalCsrfToken(secret, s), {
      gifts,
      schedules,
      statements,
      funds,
      today,
      error,
    });
    return html(reply, error ? 400 : 200, page(c, s, 'My giving', '/giving', content, noticeOf(req)));
  };
  app.get(
    '/c/:handle/me/giving',
    signedIn(false, (req, reply, c, s) => givingPage(req, reply, c, s)),
  );
  app.get(
    '/c/:handle/me/giving/gifts/:id',
    signedIn(false, async (req, reply, c, s) => {
      const gift = await portalGift(db, s, idParam(req.params.id));
      const settings = await getChurchSettings(db, c.userId);
      const content = giftReceiptSection(
        portalPath(c.handle),
        { churchName: c.churchName, address: settings.postalAddress, taxId: settings.taxId },
        gift,
      );
      return html(reply, 200, page(c, s, 'Receipt', '/giving', content));
    }),
  );
  app.get(
    '/c/:handle/me/giving/statements/:id',
    signedIn(false, async (req, reply, _c, s) => {
      const file = await portalStatementPdf(db, s, idParam(req.params.id));
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.pdf);
    }),
  );
  app.get(
    '/c/:handle/me/giving/recurring/:id/cancel',
    signedIn(false, async (req, reply, c, s) => {
      const schedule = (await portalSchedules(db, s)).find((x) => x.id === idParam(req.params.id));
      if (!schedule) return html(reply, 404, renderNotFound());
      const content = cancelScheduleSection(portalPath(c.handle), portalCsrfToken(secret, s), schedule);
      return html(reply, 200, page(c, s, 'Cancel this recurring gift?', '/giving', content));
    }),
  );
  /** '12.50' → 1250 whole cents; null when it is not an amount. */
  const toCents = (v: string): number | null => {
    const m = /^\$?(\d{1,7})(?:\.(\d{0,2}))?$/.exec(v.trim().replace(/,/g, ''));
    return m ? Number(m[1]) * 100 + Number(`${m[2] ?? ''}00`.slice(0, 2)) : null;
  };
  const changeOf = (what: string, body: Body): PortalScheduleChange | string => {
    switch (what) {
      case 'pause':
        return { kind: 'pause', until: one(body.until) };
      case 'resume':
      case 'skip':
      case 'cancel':
        return { kind: what };
      case 'frequency': {
        const f = one(body.frequency);
        return (FREQUENCIES as readonly string[]).includes(f) && f !== 'one_time'
          ? { kind: 'frequency', frequency: f as RecurringFrequency }
          : 'Choose a frequency';
      }
      case 'lines': {
        const funds = many(body.fund);
        const amounts = many(body.amount);
        const lines: { fundId: number; amountCents: number }[] = [];
        for (let i = 0; i < Math.max(funds.length, amounts.length); i++) {
          const amount = (amounts[i] ?? '').trim();
          if (!amount) continue;
          const cents = toCents(amount);
          if (cents === null) return `Enter an amount like 25.00 (not ${amount})`;
          if (!/^\d{1,9}$/.test(funds[i] ?? '')) return 'Choose a fund for each amount';
          lines.push({ fundId: Number(funds[i]), amountCents: cents });
        }
        return { kind: 'lines', lines };
      }
      default:
        return 'Not found';
    }
  };
  app.post(
    '/c/:handle/me/giving/recurring/:id/:what',
    signedIn(true, async (req, reply, c, s) => {
      const id = idParam(req.params.id);
      const change = changeOf(req.params.what ?? '', (req.body ?? {}) as Body);
      if (change === 'Not found') return html(reply, 404, renderNotFound());
      try {
        if (typeof change === 'string') throw new AppError('BAD_REQUEST', change);
        await changePortalSchedule({ db, cardFee: opts.deps.showUp.cardFee }, s, id, change);
      } catch (err) {
        let message: string | null = null;
        if (err instanceof ZodError) message = err.issues[0]?.message ?? 'Not valid';
        else if (err instanceof AppError && err.code === 'BAD_REQUEST') message = err.message;
        if (message === null) throw err;
        return givingPage(req, reply, c, s, { scheduleId: id, message });
      }
      const done = change.kind === 'cancel' ? 'gift-cancelled' : 'gift-saved';
      return reply.redirect(`${portalPath(c.handle)}/giving?done=${done}`, 303);
    }),
  );
}
