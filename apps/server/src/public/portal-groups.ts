import type { FastifyReply } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ZodError, z } from 'zod';
import {
  AppError,
  portalDecideRequest,
  portalJoinRequests,
  portalLeaveGroup,
  portalMyGroups,
  portalRecordAttendance,
  portalRoster,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { recordAttendanceByDateSchema } from '@lampstand/api/schemas/groups-people';
import { idParam, type PortalKit, type Req } from './portal-kit.js';

/**
 * Groups in the members' portal, as JSON for the portal's group screens (and a leader's phone that
 * saves attendance offline and sends it later): `/c/{handle}/me/api/groups…`. The portal's cookie
 * signs in; a write carries the session's form token (`csrf` in the JSON body) and the page's own
 * origin, like the portal's forms. Not signed in: 401; a group the session does not lead (or, to
 * leave, belong to): 404.
 */
export function portalGroupRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, churchOf, sessionOf, csrf } = kit;
  const json = (reply: FastifyReply, status: number, body: unknown) =>
    reply.code(status).header('cache-control', 'no-store').send(body);

  function route(write: boolean, handler: (req: Req, c: PortalChurch, s: PortalSession) => Promise<unknown>) {
    return async (req: Req, reply: FastifyReply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const s = await sessionOf(req, reply, c);
      if (!s) return json(reply, 401, { message: 'Please sign in to the portal', code: 'UNAUTHORIZED' });
      if (write && !kit.writeAllowed(req, s))
        return json(reply, 403, { message: 'Cross-site request refused', code: 'FORBIDDEN' });
      try {
        return json(reply, 200, await handler(req, c, s));
      } catch (err) {
        if (err instanceof ZodError)
          return json(reply, 400, {
            message: err.issues[0]?.message ?? 'Invalid input',
            code: 'BAD_REQUEST',
            issues: err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          });
        if (err instanceof AppError) {
          const status = { NOT_FOUND: 404, BAD_REQUEST: 400, CONFLICT: 409 }[err.code as string] ?? null;
          if (status)
            return json(reply, status, {
              message: err.message,
              code: err.code,
              ...(err.field ? { issues: [{ path: err.field, message: err.message }] } : {}),
            });
        }
        throw err;
      }
    };
  }
  const base = '/c/:handle/me/api/groups';
  const body = (req: Req) => (req.body ?? {}) as Record<string, unknown>;

  app.get(
    base,
    route(false, async (_req, _c, s) => ({ csrf: csrf(s), groups: await portalMyGroups(db, s) })),
  );
  app.get(
    `${base}/:id/roster`,
    route(false, (req, _c, s) => portalRoster(db, s, idParam(req.params.id))),
  );
  app.get(
    `${base}/:id/requests`,
    route(false, (req, _c, s) => portalJoinRequests(db, s, idParam(req.params.id))),
  );
  app.post(
    `${base}/:id/requests/:requestId`,
    route(true, (req, _c, s) => {
      const decision = z
        .enum(['approve', 'decline'], { error: 'Decision must be approve or decline' })
        .parse(body(req).decision);
      return portalDecideRequest(db, s, {
        groupId: idParam(req.params.id),
        requestId: idParam(req.params.requestId),
        decision,
      });
    }),
  );
  app.post(
    `${base}/:id/attendance`,
    route(true, (req, _c, s) => {
      const input = recordAttendanceByDateSchema.parse({ ...body(req), id: idParam(req.params.id) });
      return portalRecordAttendance(db, s, { ...input, groupId: input.id });
    }),
  );
  app.post(
    `${base}/:id/leave`,
    route(true, async (req, _c, s) => {
      await portalLeaveGroup(db, s, idParam(req.params.id));
      return { ok: true };
    }),
  );
}
