import type { FastifyInstance } from 'fastify';
import { openExportDownload } from '@lampstand/api/server';
import {
  EXPORT_LINK_EXPIRED,
  EXPORT_LINK_INVALID,
  EXPORT_NOT_FOUND,
  EXPORT_NOT_READY,
} from '@lampstand/api/schemas/exports';
import type { AppDeps } from '../app-deps.js';
import { createContext } from '../context.js';

/**
 * `GET /api/exports/{id}/download`: a church's "Export everything" ZIP, with the emailed link's
 * `?token=` (no sign-in needed; it works for 24 hours, then 410), or signed in as the church.
 * Another church's export, or a wrong token, is a 404; never a 500 for a bad address.
 */
export async function exportDownloadRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, storage } = opts.deps;
  app.get<{ Params: { id: string }; Querystring: { token?: unknown } }>(
    '/api/exports/:id/download',
    async (req, reply) => {
      const notFound = (message = EXPORT_NOT_FOUND) => reply.code(404).send({ message, code: 'NOT_FOUND' });
      const id = /^\d{1,9}$/.test(req.params.id) ? Number(req.params.id) : 0;
      if (id < 1) return notFound();
      const token = req.query.token;
      if (token !== undefined && (typeof token !== 'string' || !/^[\w-]{20,100}$/.test(token)))
        return notFound(EXPORT_LINK_INVALID);
      let tenantId: number | undefined;
      if (token === undefined) {
        const { effectiveUser } = await createContext(opts.deps, req);
        if (!effectiveUser) return reply.code(401).send({ message: EXPORT_LINK_INVALID, code: 'UNAUTHORIZED' });
        tenantId = effectiveUser.id;
      }
      const found = await openExportDownload({ db, storage }, { id, token, tenantId });
      switch (found.kind) {
        case 'not-found':
          return notFound();
        case 'invalid':
          return notFound(EXPORT_LINK_INVALID);
        case 'expired':
          return reply.code(410).send({ message: EXPORT_LINK_EXPIRED, code: 'GONE' });
        case 'not-ready':
          return reply.code(409).send({ message: EXPORT_NOT_READY, code: 'CONFLICT' });
        case 'file':
          return reply
            .type('application/zip')
            .header('content-disposition', `attachment; filename="${found.fileName}"`)
            .header('cache-control', 'private, no-store')
            .header('x-content-type-options', 'nosniff')
            .send(found.body);
      }
    },
  );
}
