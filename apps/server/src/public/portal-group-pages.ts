import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import {
  AppError,
  portalDecideRequest,
  portalLeaveGroup,
  portalLedGroup,
  portalMyGroups,
  portalRecordAttendance,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { groupDateSchema } from '@lampstand/api/schemas/groups';
import { recordAttendanceByDateSchema } from '@lampstand/api/schemas/groups-people';
import { attendanceSection, ledGroupSection, myGroupsSection } from '@lampstand/api/render/portal-groups-html';
import { idParam, many, one, type Body, type PortalKit, type Req } from './portal-kit.js';

/** What 'My groups' says after a change. */
const NOTICES: Record<string, string> = {
  left: 'You have left the group.',
  approved: 'Approved: they are in the group and have been told.',
  declined: 'Declined.',
  attendance: 'Attendance saved.',
};

/**
 * 'My groups' in the members' portal, server-rendered: a member's groups (and leaving one); a
 * leader's roster, join requests and attendance. The attendance form posts like any portal form;
 * its script sends it to the JSON route (portal-groups.ts) instead and keeps it on the phone until
 * the server has it.
 */
export function portalGroupPageRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, html, signedIn, page, csrf, base } = kit;
  const notice = (req: Req) => NOTICES[(req.query as Record<string, string>).done ?? ''];
  const locale = (c: PortalChurch) => ({ locale: c.locale });

  app.get(
    '/c/:handle/me/groups',
    signedIn(false, async (req, reply, c, s) =>
      html(
        reply,
        200,
        page(
          c,
          s,
          'My groups',
          '/groups',
          myGroupsSection(base(c), csrf(s), await portalMyGroups(db, s), locale(c)),
          notice(req),
        ),
      ),
    ),
  );
  app.get(
    '/c/:handle/me/groups/:id',
    signedIn(false, async (req, reply, c, s) => {
      const v = await portalLedGroup(db, s, idParam(req.params.id));
      return html(
        reply,
        200,
        page(c, s, v.group.name, '/groups', ledGroupSection(base(c), csrf(s), v, locale(c)), notice(req)),
      );
    }),
  );

  const attendancePage = async (
    c: PortalChurch,
    s: PortalSession,
    groupId: number,
    asked: string | undefined,
    error?: string,
  ) => {
    const v = await portalLedGroup(db, s, groupId);
    const parsed = groupDateSchema('Date').safeParse(asked);
    const date = parsed.success && parsed.data <= v.today ? parsed.data : v.today;
    const meeting = v.meetings.find((m) => m.date === date) ?? null;
    return page(
      c,
      s,
      'Take attendance',
      '/groups',
      attendanceSection(
        base(c),
        csrf(s),
        {
          group: v.group,
          date,
          today: date === v.today,
          roster: v.roster,
          meeting,
          clientKey: `f${randomBytes(12).toString('hex')}`,
          error,
        },
        locale(c),
      ),
    );
  };
  app.get(
    '/c/:handle/me/groups/:id/attendance',
    signedIn(false, async (req, reply, c, s) =>
      html(reply, 200, await attendancePage(c, s, idParam(req.params.id), (req.query as Record<string, string>).date)),
    ),
  );
  app.post(
    '/c/:handle/me/groups/:id/attendance',
    signedIn(true, async (req, reply, c, s) => {
      const b = (req.body ?? {}) as Body;
      const groupId = idParam(req.params.id);
      try {
        const input = recordAttendanceByDateSchema.parse({
          id: groupId,
          date: one(b.date) || undefined,
          present: many(b.present).map(Number),
          visitors: many(b.visitor)
            .map((v) => v.trim())
            .filter(Boolean),
          clientKey: one(b.clientKey) || undefined,
        });
        await portalRecordAttendance(db, s, { ...input, groupId });
      } catch (err) {
        const message =
          err instanceof ZodError
            ? err.issues[0]?.message
            : err instanceof AppError && err.code === 'BAD_REQUEST'
              ? err.message
              : null;
        if (!message) throw err;
        return html(reply, 400, await attendancePage(c, s, groupId, one(b.date), message));
      }
      return reply.redirect(`${base(c)}/groups/${groupId}?done=attendance`, 303);
    }),
  );
  app.post(
    '/c/:handle/me/groups/:id/requests/:requestId',
    signedIn(true, async (req, reply, c, s) => {
      const decision = one(((req.body ?? {}) as Body).decision) === 'approve' ? 'approve' : 'decline';
      const groupId = idParam(req.params.id);
      await portalDecideRequest(db, s, { groupId, requestId: idParam(req.params.requestId), decision });
      return reply.redirect(`${base(c)}/groups/${groupId}?done=${decision}d`, 303);
    }),
  );
  app.post(
    '/c/:handle/me/groups/:id/leave',
    signedIn(true, async (req, reply, c, s) => {
      await portalLeaveGroup(db, s, idParam(req.params.id));
      return reply.redirect(`${base(c)}/groups?done=left`, 303);
    }),
  );
}
