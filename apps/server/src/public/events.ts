import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  AppError,
  claimOffer,
  eventIcs,
  eventsChurch,
  formAttendees,
  formErrors,
  offerByToken,
  publicEventList,
  publicEventPage,
  registerForEvent,
  registrationFromForm,
  renamedHandle,
  retryAfterOf,
  throttleRegistrations,
  ticketByToken,
  ticketQrDataUrl,
  type CalendarDeps,
  type EventsChurch,
} from '@lampstand/api/server';
import { renderChurchNotFound } from '@lampstand/api/render/church-home-html';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import {
  emptyForm,
  renderEventList,
  renderEventMessage,
  renderEventPage,
  type MapTiles,
  type RegisterFormState,
} from '@lampstand/api/render/events-html';
import { renderOffer, renderOutcome, renderTicket } from '@lampstand/api/render/events-pay-html';
import type { AppDeps } from '../app-deps.js';
import { parseForm, type Body } from './portal-kit.js';

/** The calendar services' needs from the app's (the clock is the real one). */
export const pageCalendarDeps = (deps: AppDeps): CalendarDeps => ({
  db: deps.db,
  payments: deps.showUp.payments,
  jobs: deps.jobs,
  publicUrl: deps.delivery.publicUrl,
});

/** The map tiles the event pages show an event's place on (MAP_TILE_URL). */
export const mapTilesOf = (deps: AppDeps): MapTiles => ({
  tileUrl: deps.showUp.mapTileUrl,
  attribution: deps.showUp.mapAttribution,
});

/** A new form's idempotency key: the same form posted twice is one registration. */
export const formKey = () => crypto.randomBytes(12).toString('base64url');

/**
 * A church's public events, server-rendered: the list `/c/{handle}/events` (published public
 * events), an event's page `/c/{handle}/events/{slug}` (link-only events too, never listed) with
 * its registration form posting to `/register`, its 'Add to calendar' file, a waitlist offer's page
 * `/events/offers/{token}` (the emailed link) and a ticket's page `/tickets/{token}` (the QR code's
 * address). Members-only events answer 404 here: members register in the portal.
 */
export async function eventsPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db } = opts.deps;
  const calendar = pageCalendarDeps(opts.deps);
  const tiles = mapTilesOf(opts.deps);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 65_536 },
    (_r, body, done) => done(null, parseForm(String(body))),
  );
  const html = (reply: FastifyReply, status: number, body: string, cache = 'no-store') =>
    reply.code(status).type('text/html; charset=utf-8').header('cache-control', cache).send(body);

  /** The church of the handle, or the answer (404, or a redirect from a handle it gave up). */
  async function church(handle: string, reply: FastifyReply, rest: string, get = true) {
    const c = await eventsChurch(db, handle);
    if (c) return { c };
    const renamed = get ? await renamedHandle(db, handle) : null;
    if (renamed) return { answered: reply.redirect(`/c/${renamed}${rest}`, 301) };
    return { answered: html(reply, 404, renderChurchNotFound(), 'no-cache') };
  }
  const eventUrl = (c: EventsChurch, slug: string) => `/c/${c.handle}/events/${slug}`;

  app.get<{ Params: { handle: string } }>('/c/:handle/events', async (req, reply) => {
    const { c, answered } = await church(req.params.handle, reply, '/events');
    if (!c) return answered;
    return html(reply, 200, renderEventList(c, await publicEventList(db, c.userId, new Date())), 'public, max-age=30');
  });

  async function eventOf(handle: string, slug: string, reply: FastifyReply, get = true) {
    const { c, answered } = await church(handle, reply, `/events/${slug}`, get);
    if (!c) return { answered };
    const e = await publicEventPage(db, c.userId, slug, { now: new Date() });
    if (!e) return { answered: html(reply, 404, renderNotFound(), 'no-cache') };
    return { c, e };
  }

  app.get<{ Params: { handle: string; slug: string }; Querystring: { paid?: string } }>(
    '/c/:handle/events/:slug',
    async (req, reply) => {
      const { c, e, answered } = await eventOf(req.params.handle, req.params.slug, reply);
      if (!c || !e) return answered;
      if (req.query.paid === '1') {
        return html(
          reply,
          200,
          renderEventMessage(
            c,
            e.title,
            'Thank you: your payment is received. A confirmation with your tickets is on its way by email.',
          ),
        );
      }
      const state: RegisterFormState = { ...emptyForm(), values: {} };
      return html(
        reply,
        200,
        renderEventPage(c, e, state, {
          action: `${eventUrl(c, e.slug)}/register`,
          icsUrl: `${eventUrl(c, e.slug)}/calendar.ics`,
          map: tiles,
          idempotencyKey: formKey(),
        }),
      );
    },
  );

  app.get<{ Params: { handle: string; slug: string } }>('/c/:handle/events/:slug/calendar.ics', async (req, reply) => {
    const { c, e, answered } = await eventOf(req.params.handle, req.params.slug, reply);
    if (!c || !e) return answered;
    const file = await eventIcs(db, c.userId, { id: e.id }, opts.deps.delivery.publicUrl);
    return reply
      .type(file.contentType)
      .header('cache-control', 'public, max-age=300')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .send(file.text);
  });

  app.post<{ Params: { handle: string; slug: string } }>('/c/:handle/events/:slug/register', async (req, reply) => {
    const { c, e, answered } = await eventOf(req.params.handle, req.params.slug, reply, false);
    if (!c || !e) return answered;
    const body = (req.body ?? {}) as Body;
    const key = typeof body.key === 'string' && /^[A-Za-z0-9_-]{8,100}$/.test(body.key) ? body.key : formKey();
    const page = (status: number, state: RegisterFormState) =>
      html(
        reply,
        status,
        renderEventPage(c, e, state, {
          action: `${eventUrl(c, e.slug)}/register`,
          icsUrl: `${eventUrl(c, e.slug)}/calendar.ics`,
          map: tiles,
          idempotencyKey: key,
        }),
      );
    const attendees = formAttendees(body);
    if (typeof body.change === 'string') return page(200, { values: body, errors: {}, attendees });
    try {
      await throttleRegistrations(db, req.ip, opts.deps.limits.donationsPerAddressPerHour);
      const input = registrationFromForm(e.id, e.questions, body, key);
      const result = await registerForEvent(calendar, input, { tenantId: c.userId });
      return html(reply, 200, renderOutcome(c, e.title, result, eventUrl(c, e.slug)));
    } catch (err) {
      const errors = formErrors(err);
      if (!errors) throw err;
      if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS')
        reply.header('retry-after', String(retryAfterOf(err) ?? 3600));
      const status =
        err instanceof AppError
          ? (({ CONFLICT: 409, TOO_MANY_REQUESTS: 429 } as Record<string, number>)[err.code] ?? 400)
          : 400;
      return page(status, { values: body, errors, attendees });
    }
  });

  // ---- A waitlist offer (the emailed link) ----
  app.get<{ Params: { token: string } }>('/events/offers/:token', async (req, reply) => {
    reply.header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
    const o = await offerByToken(db, req.params.token);
    if (!o) return html(reply, 404, renderNotFound());
    return html(reply, 200, renderOffer(o, req.params.token, new Date()));
  });
  app.post<{ Params: { token: string } }>('/events/offers/:token', async (req, reply) => {
    reply.header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
    const o = await offerByToken(db, req.params.token);
    if (!o) return html(reply, 404, renderNotFound());
    const c = { handle: o.handle ?? '', churchName: o.churchName, locale: o.locale, timeZone: o.timeZone };
    try {
      const result = await claimOffer(calendar, { token: req.params.token });
      return html(reply, 200, renderOutcome(c, o.title, result, o.handle ? `/c/${o.handle}/events/${o.slug}` : '/'));
    } catch (err) {
      if (err instanceof AppError && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND'))
        return html(reply, err.code === 'CONFLICT' ? 409 : 404, renderEventMessage(c, o.title, err.message));
      throw err;
    }
  });

  // ---- A ticket (what its QR code says) ----
  app.get<{ Params: { token: string } }>('/tickets/:token', async (req, reply) => {
    reply.header('x-robots-tag', 'noindex').header('referrer-policy', 'no-referrer');
    const t = await ticketByToken(db, req.params.token);
    if (!t) return html(reply, 404, renderNotFound());
    return html(
      reply,
      200,
      renderTicket(t, await ticketQrDataUrl(opts.deps.delivery.publicUrl, req.params.token)),
      'private, no-store',
    );
  });
}
