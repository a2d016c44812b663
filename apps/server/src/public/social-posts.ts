import type { FastifyInstance } from 'fastify';
import { socialPostsFeed } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';

/**
 * The church's social posts as an iCalendar feed. No session: calendar apps fetch it with the
 * unguessable token in the address (regenerated in Settings → Social to cut off old copies).
 */
export async function socialPostsPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, delivery } = opts.deps;
  app.get<{ Querystring: { token?: string } }>('/api/social-posts.ics', async (req, reply) => {
    const ics = await socialPostsFeed(db, { token: String(req.query.token ?? ''), publicUrl: delivery.publicUrl });
    if (ics === null) return reply.code(404).send({ message: 'Calendar feed not found', code: 'NOT_FOUND' });
    return reply
      .type('text/calendar; charset=utf-8')
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', 'inline; filename="social-posts.ics"')
      .send(ics);
  });
}
