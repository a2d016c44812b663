import type { FastifyInstance } from 'fastify';
import { churchEventsFeed } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';

/**
 * A church's public iCalendar feed of its published public events, by handle. No session: calendar
 * apps subscribe to the address.
 */
export async function calendarPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, delivery } = opts.deps;
  app.get<{ Params: { handle: string } }>('/c/:handle/events.ics', async (req, reply) => {
    let ics: string;
    try {
      ics = await churchEventsFeed(db, req.params.handle, delivery.publicUrl);
    } catch {
      return reply.code(404).send({ message: 'Church not found', code: 'NOT_FOUND' });
    }
    return reply
      .type('text/calendar; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('content-disposition', 'inline; filename="events.ics"')
      .send(ics);
  });
}
