import type { FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { AppError, askToJoin, churchOfHandle, finderGroup, finderGroups, retryAfterOf } from '@lampstand/api/server';
import { handleSchema } from '@lampstand/api/schemas/church-profile';
import { renderChurchNotFound } from '@lampstand/api/render/church-home-html';
import {
  renderAsked,
  renderFinder,
  renderGroupPage,
  type FinderChurch,
} from '@lampstand/api/render/groups-finder-html';
import type { AppDeps } from '../app-deps.js';
import { one, parseForm, type Body } from './portal-kit.js';

/**
 * The public group finder: `/c/{handle}/groups` (filters `day`, `type`, `tag`, `area` in the query),
 * a group's page `/c/{handle}/groups/{id}` with 'Ask to join', and its form post
 * `/c/{handle}/groups/{id}/join`. Server-rendered like the church's home, without script. The list
 * is cached 30 s like the home; the group page is not (its form shows errors).
 */
export async function groupsPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, showUp, jobs } = opts.deps;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_r, body, done) => done(null, parseForm(String(body))),
  );
  const html = (reply: FastifyReply, status: number, body: string, cache = 'no-store') =>
    reply.code(status).type('text/html; charset=utf-8').header('cache-control', cache).send(body);
  const notFound = (reply: FastifyReply) => html(reply, 404, renderChurchNotFound(), 'no-cache');

  async function church(handle: string, reply: FastifyReply, rest: string) {
    const parsed = handleSchema.safeParse(handle);
    if (!parsed.success) return { answered: notFound(reply) };
    try {
      const c = await churchOfHandle(db, parsed.data);
      if (c.handle !== handle) return { answered: reply.redirect(`/c/${c.handle}${rest}`, 301) };
      const view: FinderChurch = {
        handle: c.handle,
        churchName: c.churchName,
        mapTileUrl: showUp.mapTileUrl,
        mapAttribution: showUp.mapAttribution,
      };
      return { c, view };
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return { answered: notFound(reply) };
      throw err;
    }
  }
  const idOf = (s: string) => (/^\d{1,9}$/.test(s) ? Number(s) : -1);

  app.get<{ Params: { handle: string }; Querystring: Record<string, string | undefined> }>(
    '/c/:handle/groups',
    async (req, reply) => {
      const { c, view, answered } = await church(req.params.handle, reply, '/groups');
      if (!c) return answered;
      const q = req.query;
      const day = /^[0-6]$/.test(q.day ?? '') ? Number(q.day) : undefined;
      const text = (v: string | undefined) => (typeof v === 'string' && v.length <= 120 ? v : undefined);
      const filters = { weekday: day, type: text(q.type), tag: text(q.tag), area: text(q.area) };
      const finder = await finderGroups(db, c.userId, filters);
      return html(reply, 200, renderFinder(view, finder, filters), 'public, max-age=30');
    },
  );

  app.get<{ Params: { handle: string; id: string } }>('/c/:handle/groups/:id', async (req, reply) => {
    const { c, view, answered } = await church(req.params.handle, reply, `/groups/${req.params.id}`);
    if (!c) return answered;
    const group = await finderGroup(db, c.userId, idOf(req.params.id));
    if (!group) return notFound(reply);
    return html(reply, 200, renderGroupPage(view, group));
  });

  app.post<{ Params: { handle: string; id: string } }>('/c/:handle/groups/:id/join', async (req, reply) => {
    const { c, view, answered } = await church(req.params.handle, reply, `/groups/${req.params.id}`);
    if (!c) return answered;
    const group = await finderGroup(db, c.userId, idOf(req.params.id));
    if (!group) return notFound(reply);
    const body = (req.body ?? {}) as Body;
    const values = Object.fromEntries(['name', 'email', 'phone', 'note'].map((k) => [k, one(body[k])]));
    try {
      const r = await askToJoin(
        { db, jobs },
        { tenantId: c.userId, churchName: c.churchName, groupId: group.id, form: values },
      );
      return html(reply, 200, renderAsked(view, r.groupName, r.outcome));
    } catch (err) {
      if (err instanceof ZodError) {
        const errors: Record<string, string> = {};
        for (const i of err.issues) errors[String(i.path[0] ?? '_')] ??= i.message;
        return html(reply, 400, renderGroupPage(view, group, { values, errors }));
      }
      if (err instanceof AppError && err.code === 'NOT_FOUND') return notFound(reply);
      if (err instanceof AppError && (err.code === 'BAD_REQUEST' || err.code === 'TOO_MANY_REQUESTS')) {
        if (err.code === 'TOO_MANY_REQUESTS') reply.header('retry-after', String(retryAfterOf(err) ?? 3600));
        return html(
          reply,
          err.code === 'BAD_REQUEST' ? 400 : 429,
          renderGroupPage(view, group, { values, errors: { _: err.message } }),
        );
      }
      throw err;
    }
  });
}
