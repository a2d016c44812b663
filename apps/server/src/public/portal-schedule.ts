import type { FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import {
  portalCsrfToken,
  portalSchedule,
  answerPortalAssignment,
  addPortalBlockout,
  deletePortalBlockout,
  portalPath,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { scheduleSection, type BlockoutFormState } from '@lampstand/api/render/portal-schedule-html';
import { idParam, one, type Body, type PortalKit } from './portal-kit.js';

/** 'My schedule' in the members' portal: the person's dates to serve, answers and blockout dates. */
export function portalScheduleRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, secret, html, signedIn, page, noticeOf } = kit;
  const schedulePage = async (c: PortalChurch, s: PortalSession, notice?: string, state?: BlockoutFormState) =>
    page(
      c,
      s,
      'My schedule',
      '/schedule',
      scheduleSection(
        portalPath(c.handle),
        portalCsrfToken(secret, s),
        await portalSchedule(db, s, { locale: c.locale }),
        state,
        { locale: c.locale },
      ),
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
}
