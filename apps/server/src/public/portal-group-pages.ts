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
  portalSendGroupMessage,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { groupDateSchema } from '@lampstand/api/schemas/groups';
import { groupMessageSchema, recordAttendanceByDateSchema } from '@lampstand/api/schemas/groups-people';
import { attendanceSection, ledGroupSection, myGroupsSection } from '@lampstand/api/render/portal-groups-html';
import type { MessageFormState } from '@lampstand/api/render/portal-group-message-html';
import { idParam, many, one, type Body, type PortalKit, type Req } from './portal-kit.js';

/** What 'My groups' says after a change. */
const NOTICES: Record<string, string> = {
  left: 'You have left the group.',
  approved: 'Approved: they are in the group and have been told.',
  declined: 'Declined.',
  attendance: 'Attendance saved.',
  message: 'Your message is on its way to the group.',
};

/**
 * 'My groups' in the members' portal, server-rendered: a member's groups (and leaving one); a
 * leader's roster, join requests and attendance. The attendance form posts like any portal form;
 * its script sends it to the JSON route (portal-groups.ts) instead and keeps it on the phone until
 * the server has it.
 */
export function portalGroupPageRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, html, signedIn, page, csrf, base, mail } = kit;
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
  const ledPage = async (req: Req, c: PortalChurch, s: PortalSession, message?: MessageFormState) => {
    const v = await portalLedGroup(db, s, idParam(req.params.id));
    return page(c, s, v.group.name, '/groups', ledGroupSection(base(c), csrf(s), v, locale(c), message), notice(req));
  };
  app.get(
    '/c/:handle/me/groups/:id',
    signedIn(false, async (req, reply, c, s) => html(reply, 200, await ledPage(req, c, s))),
  );
  app.post(
    '/c/:handle/me/groups/:id/message',
    signedIn(true, async (req, reply, c, s) => {
      const b = (req.body ?? {}) as Body;
      const groupId = idParam(req.params.id);
      const values = { channel: one(b.channel), subject: one(b.subject), body: one(b.body) };
      try {
        const input = groupMessageSchema.parse({ id: groupId, ...values, subject: values.subject || undefined });
        await portalSendGroupMessage(mail, s, input);
      } catch (err) {
        const errors: Record<string, string> = {};
        if (err instanceof ZodError) for (const i of err.issues) errors[String(i.path[0] ?? '_')] ??= i.message;
        else if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') errors._ = err.message;
        else throw err;
        return html(reply, err instanceof ZodError ? 400 : 429, await ledPage(req, c, s, { values, errors }));
      }
      return reply.redirect(`${base(c)}/groups/${groupId}?done=message#message`, 303);
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
