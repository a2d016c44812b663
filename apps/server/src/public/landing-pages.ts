import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import {
  AppError,
  churchLocaleOf,
  confirmSignup,
  describeSignupToken,
  getPublishedLandingPage,
  isCrawler,
  signUp,
  visitSource,
  zodIssues,
  type VisitSource,
  showUpCardsFor,
  finderGroups,
  registerCardsFor,
} from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import { escapeHtml } from '@lampstand/api/render/html';
import { renderEventIcs } from '@lampstand/api/render/ical';
import { renderLandingPage, renderMessage, renderNotFound } from '@lampstand/api/render/landing-page-html';
import { whenWords } from '@lampstand/api/render/groups-finder-html';
import { churchHomeRoutes } from './church-home.js';

const PAGE_CACHE_CONTROL = 'public, max-age=30';

/** For a page with a Groups block: the church's groups taking new members, and its finder's address. */
async function groupsForBlocks(db: AppDeps['db'], page: { userId: number; content: { blocks: { type: string }[] } }) {
  if (!page.content.blocks.some((b) => b.type === 'groups')) return undefined;
  const { groups } = await finderGroups(db, page.userId, {});
  const profile = await db
    .selectFrom('churchProfiles')
    .select('handle')
    .where('userId', '=', page.userId)
    .executeTakeFirst();
  return {
    finderPath: profile?.handle ? `/c/${encodeURIComponent(profile.handle)}/groups` : null,
    groups: groups
      .filter((g) => g.joinMode !== 'closed')
      .map((g) => ({ id: g.id, name: g.name, type: g.type, when: whenWords(g), area: g.area })),
  };
}

/**
 * The public landing pages, rendered on the server: `/p/{slug}` (counting a visit with its
 * source), sign-up forms (plain POST, or JSON from the page's small script), the double opt-in
 * confirmation link and event calendar files.
 */
export async function landingPageRoutes(
  app: FastifyInstance,
  opts: { deps: AppDeps; publicUrl: string },
): Promise<void> {
  const { db, pages } = opts.deps;
  const ownHost = new URL(opts.publicUrl).hostname;

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  async function load(slug: string) {
    const cached = pages.cache.get(slug);
    if (cached) return cached;
    try {
      const page = await getPublishedLandingPage(db, { slug });
      // Live raised / target of the church's projects its Show Up blocks name (fresh within the cache's TTL).
      const projects = await showUpCardsFor(db, page.userId, {
        ids: page.content.blocks.flatMap((b) => (b.type === 'showup' && b.projectId ? [b.projectId] : [])),
      });
      // A button to the church's giving page needs its public handle (none: the button is not a link).
      const gives = page.content.blocks.some((b) => b.type === 'cta' && b.link?.kind === 'give');
      const profile = gives
        ? await db.selectFrom('churchProfiles').select('handle').where('userId', '=', page.userId).executeTakeFirst()
        : undefined;
      const events = await registerCardsFor(
        db,
        page.userId,
        page.content.blocks.flatMap((b) => (b.type === 'register' && b.eventId ? [b.eventId] : [])),
        new Date(),
      );
      const html = renderLandingPage({
        projects,
        groups: await groupsForBlocks(db, page),
        events,
        givePath: profile?.handle ? `/c/${encodeURIComponent(profile.handle)}/give` : null,
        publicUrl: opts.publicUrl,
        churchName: page.churchName,
        name: page.name,
        slug: page.slug,
        content: page.content,
        locale: (await churchLocaleOf(db, page.userId)).locale,
      });
      return pages.cache.set(slug, { id: page.id, userId: page.userId }, html);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return pages.cache.set(slug, null, renderNotFound());
      throw err;
    }
  }

  async function countVisit(req: FastifyRequest, page: { id: number; userId: number }) {
    const ua = req.headers['user-agent'];
    if (isCrawler(ua, req.headers)) return;
    const { day, hash } = await pages.hasher.hash(req.ip, ua);
    const source = visitSource(req.query as Record<string, unknown>, req.headers.referer, ownHost);
    pages.visits.add({
      userId: page.userId,
      pageId: page.id,
      day,
      visitorHash: hash,
      sourceKind: source.kind,
      sourceValue: source.value,
    });
  }

  app.get<{ Params: { slug: string } }>('/p/:slug', async (req, reply) => {
    const entry = await load(req.params.slug);
    if (!entry.page)
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(entry.html);
    await countVisit(req, entry.page).catch((err) => req.log.warn({ err }, 'visit not counted'));
    reply
      .header('cache-control', PAGE_CACHE_CONTROL)
      .header('etag', entry.etag)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin');
    if (req.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(entry.html);
  });

  /** Where the sign-up came from: the page's own query and referrer (sent by its script), else the Referer. */
  function signupSource(req: FastifyRequest, body: Record<string, unknown>): VisitSource {
    if (typeof body.ref_q === 'string' || typeof body.ref_r === 'string') {
      const q = Object.fromEntries(
        new URLSearchParams(typeof body.ref_q === 'string' ? body.ref_q.slice(0, 2000) : ''),
      );
      return visitSource(q, typeof body.ref_r === 'string' ? body.ref_r.slice(0, 2000) : undefined, ownHost);
    }
    const referer = req.headers.referer;
    if (referer) {
      try {
        const u = new URL(referer);
        if (u.hostname === ownHost) return visitSource(Object.fromEntries(u.searchParams), undefined, ownHost);
      } catch {
        // fall through
      }
    }
    return visitSource({}, referer, ownHost);
  }

  /**
   * A sign-up form's answer: JSON to the page's script, else a small page (the form works without
   * JavaScript); the form's own problems as 400 naming the field, a missing form as 404.
   */
  async function answerSignup(
    req: FastifyRequest,
    reply: FastifyReply,
    back: string,
    run: (body: Record<string, unknown>, source: VisitSource, visitorHash: string) => Promise<{ churchName: string }>,
  ) {
    const wantsJson = req.headers['content-type']?.startsWith('application/json') ?? false;
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const answer = (status: number, title: string, message: string, issues?: { path: string; message: string }[]) =>
      wantsJson
        ? reply.code(status).send({ message, ...(issues ? { issues } : {}) })
        : reply
            .code(status)
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(renderMessage(title, `<p>${escapeHtml(message)}</p>`, { backHref: back }));
    try {
      const { hash } = await pages.hasher.hash(req.ip, req.headers['user-agent']);
      const result = await run(body, signupSource(req, body), hash);
      return answer(
        200,
        'Thank you for signing up',
        `Thank you! Please check your email and confirm your address to hear from ${result.churchName}.`,
      );
    } catch (err) {
      if (err instanceof ZodError) {
        const issues = zodIssues(err);
        return answer(400, 'Please check the form', issues[0]?.message ?? 'Please check the form', issues);
      }
      if (err instanceof AppError && err.code === 'BAD_REQUEST')
        return answer(
          400,
          'Please check the form',
          err.message,
          err.field ? [{ path: err.field, message: err.message }] : undefined,
        );
      if (err instanceof AppError && err.code === 'NOT_FOUND') return answer(404, 'Page Not Found', err.message);
      if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') return answer(429, 'Please wait', err.message);
      throw err;
    }
  }
  const signupDeps = { db, email: opts.deps.email, publicUrl: opts.publicUrl, emailFrom: opts.deps.delivery.emailFrom };

  app.post<{ Params: { slug: string; blockId: string } }>('/p/:slug/signup/:blockId', (req, reply) =>
    answerSignup(req, reply, `/p/${encodeURIComponent(req.params.slug)}`, (form, source, visitorHash) =>
      signUp(signupDeps, { slug: req.params.slug, blockId: req.params.blockId, form, source, visitorHash }),
    ),
  );

  // The double opt-in link of a landing page's form (/p/…) or the church's home (/c/…).
  for (const base of ['/p/:slug', '/c/:handle']) {
    app.get<{ Params: { token: string } }>(`${base}/confirm/:token`, async (req, reply) => {
      const target = await describeSignupToken(db, req.params.token);
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer');
      if (!target)
        return reply.code(404).send(renderMessage('Link not found', '<p>This confirmation link is not valid.</p>'));
      if (target.confirmedAt)
        return renderMessage(
          'Sign-up confirmed',
          `<p>${escapeHtml(target.email)} is confirmed. You will hear from ${escapeHtml(target.churchName)}.</p>`,
          { backHref: target.backHref },
        );
      // A button, not an automatic confirmation: mail scanners open links, people press buttons.
      return renderMessage(
        'Confirm your sign-up',
        `<p>Confirm ${escapeHtml(target.email)} to hear from ${escapeHtml(target.churchName)} about “${escapeHtml(target.pageName)}”?</p>` +
          `<form method="post"><button class="btn" type="submit">Confirm my sign-up</button></form>`,
      );
    });

    app.post<{ Params: { token: string } }>(`${base}/confirm/:token`, async (req, reply) => {
      const done = await confirmSignup(db, req.params.token);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!done)
        return reply.code(404).send(renderMessage('Link not found', '<p>This confirmation link is not valid.</p>'));
      return renderMessage(
        'Sign-up confirmed',
        `<p>Thank you! ${escapeHtml(done.email)} is confirmed. You will hear from ${escapeHtml(done.churchName)}.</p>`,
        { backHref: done.backHref },
      );
    });
  }

  await churchHomeRoutes(app, { db, publicUrl: opts.publicUrl, answerSignup, signupDeps, showUp: opts.deps.showUp });

  app.get<{ Params: { slug: string; file: string } }>('/p/:slug/event/:file', async (req, reply) => {
    const notFound = () => reply.code(404).type('text/html; charset=utf-8').send(renderNotFound());
    const blockId = req.params.file.replace(/\.ics$/, '');
    let page;
    try {
      page = await getPublishedLandingPage(db, { slug: req.params.slug });
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return notFound();
      throw err;
    }
    const block = page.content.blocks.find((b) => b.id === blockId && b.type === 'event');
    if (!block || block.type !== 'event' || !block.date) return notFound();
    const ics = renderEventIcs({
      uid: `${page.id}-${block.id}@${ownHost || 'lampstand'}`,
      title: block.title || page.name,
      date: block.date,
      startTime: block.startTime,
      endTime: block.endTime,
      location: [block.place, block.address].filter(Boolean).join(', '),
      url: `${opts.publicUrl}/p/${encodeURIComponent(page.slug)}`,
    });
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="${page.slug}-${block.id}.ics"`)
      .header('cache-control', 'no-cache')
      .send(ics);
  });

  /** Unused methods on /p/… answer the 404 page rather than the web app. */
  app.get('/p/', async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).type('text/html; charset=utf-8').send(renderNotFound()),
  );
}
