import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@lampstand/db';
import {
  AppError,
  churchHomeByHandle,
  hasPublicEvents,
  joinChurchLists,
  type SignupDeps,
  type VisitSource,
} from '@lampstand/api/server';
import { handleSchema } from '@lampstand/api/schemas/church-profile';
import { renderChurchHome, renderChurchNotFound } from '@lampstand/api/render/church-home-html';
import type { ShowUpServices } from '@lampstand/api/server';
import { givingBlocked } from './giving.js';

const HOME_CACHE_CONTROL = 'public, max-age=30';

type AnswerSignup = (
  req: FastifyRequest,
  reply: FastifyReply,
  back: string,
  run: (body: Record<string, unknown>, source: VisitSource, visitorHash: string) => Promise<{ churchName: string }>,
) => Promise<unknown>;

/**
 * A church's public home: `/c/{handle}`, rendered on the server like its landing
 * pages (with a Give button when its giving page takes gifts); an unknown handle says no church is
 * there; a handle the church gave up redirects (301) to its current one for a year; `POST
 * /c/{handle}/join` signs someone up to the lists they ticked (double opt-in, like a page's form).
 */
export async function churchHomeRoutes(
  app: FastifyInstance,
  opts: { db: Db; publicUrl: string; answerSignup: AnswerSignup; signupDeps: SignupDeps; showUp: ShowUpServices },
): Promise<void> {
  const { db } = opts;
  const notFound = (reply: FastifyReply) =>
    reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(renderChurchNotFound());

  /** The church by a handle as typed (any case), or the answer for one that is unknown or moved. */
  async function find(handle: string, reply: FastifyReply, rest = '') {
    const parsed = handleSchema.safeParse(handle);
    if (!parsed.success) return { answered: notFound(reply) };
    try {
      const found = await churchHomeByHandle(db, parsed.data);
      if ('redirect' in found) return { answered: reply.redirect(`/c/${found.redirect}${rest}`, 301) };
      if (parsed.data !== handle) return { answered: reply.redirect(`/c/${parsed.data}${rest}`, 301) };
      return { home: found.home };
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return { answered: notFound(reply) };
      throw err;
    }
  }

  app.get<{ Params: { handle: string } }>('/c/:handle', async (req, reply) => {
    const { home, answered } = await find(req.params.handle, reply);
    if (!home) return answered;
    const [blocked, hasEvents] = await Promise.all([
      givingBlocked(db, opts.showUp, home.userId),
      hasPublicEvents(db, home.userId, new Date()),
    ]);
    const canGive = blocked === null;
    return reply
      .header('cache-control', HOME_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .type('text/html; charset=utf-8')
      .send(renderChurchHome({ ...home, publicUrl: opts.publicUrl, canGive, hasEvents }));
  });

  app.post<{ Params: { handle: string } }>('/c/:handle/join', async (req, reply) => {
    const { home, answered } = await find(req.params.handle, reply, '/join');
    if (!home) return answered;
    return opts.answerSignup(req, reply, `/c/${home.handle}`, (body, source, visitorHash) => {
      const listIds = Object.keys(body).flatMap((k) => {
        const m = /^list_(\d{1,10})$/.exec(k);
        return m && body[k] ? [Number(m[1])] : [];
      });
      return joinChurchLists(opts.signupDeps, { home, listIds, form: body, source, visitorHash });
    });
  });
}
