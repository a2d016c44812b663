import type { FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import {
  AppError,
  confirmProposalCode,
  confirmProposalEmail,
  openProposals,
  portalCsrfToken,
  portalPeople,
  portalPerson,
  proposeDetails,
  portalPath,
  type PortalSession,
} from '@lampstand/api/server';
import { PROPOSAL_FIELDS } from '@lampstand/api/schemas/portal';
import { buttonPage, messagePage } from '@lampstand/api/render/portal-html';
import { detailsSection, type DetailsView } from '@lampstand/api/render/portal-sections-html';
import { idParam, one, type Body, type PortalKit } from './portal-kit.js';

/** 'My details' in the members' portal: proposed changes, and the confirmation of a new email or phone. */
export function portalDetailsRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, secret, mail, view, html, churchOf, signedIn, page, noticeOf } = kit;
  async function detailsViews(
    s: PortalSession,
    override?: { id: number; values: Record<string, string>; errors: Record<string, string> },
  ) {
    const people = await portalPeople(db, s);
    return Promise.all(
      people.map(async (person): Promise<DetailsView> => {
        const waiting = (await openProposals(db, s, person.id)).map((w) => ({
          id: w.id,
          status: w.status,
          // In the form's order (the stored changes keep no order).
          fields: PROPOSAL_FIELDS.filter((f) => f in w.changes),
          awaitingEmail: !!w.awaitingEmail,
          awaitingPhone: !!w.awaitingPhone,
        }));
        return override?.id === person.id
          ? { person, waiting, values: override.values, errors: override.errors }
          : { person, waiting };
      }),
    );
  }
  app.get(
    '/c/:handle/me/details',
    signedIn(false, async (req, reply, c, s) => {
      const content = detailsSection(portalPath(c.handle), portalCsrfToken(secret, s), await detailsViews(s));
      return html(reply, 200, page(c, s, 'My details', '/details', content, noticeOf(req)));
    }),
  );
  app.post(
    '/c/:handle/me/details/:id',
    signedIn(true, async (req, reply, c, s) => {
      const id = idParam(req.params.id);
      await portalPerson(db, s, id);
      const body = (req.body ?? {}) as Body;
      const values = Object.fromEntries(PROPOSAL_FIELDS.map((k) => [k, one(body[k])]));
      try {
        await proposeDetails(mail, c, s, id, values);
        return reply.redirect(`${portalPath(c.handle)}/details?done=proposed`, 303);
      } catch (err) {
        const errors: Record<string, string> = {};
        if (err instanceof ZodError) for (const i of err.issues) errors[String(i.path[0] ?? '_')] ??= i.message;
        else if (err instanceof AppError && err.code === 'BAD_REQUEST') errors._ = err.message;
        else throw err;
        const content = detailsSection(
          portalPath(c.handle),
          portalCsrfToken(secret, s),
          await detailsViews(s, { id, values, errors }),
        );
        return html(reply, 400, page(c, s, 'My details', '/details', content));
      }
    }),
  );
  app.post(
    '/c/:handle/me/details/:id/confirm-phone/:proposal',
    signedIn(true, async (req, reply, c, s) => {
      await portalPerson(db, s, idParam(req.params.id));
      const ok = await confirmProposalCode(
        db,
        s,
        idParam(req.params.proposal),
        one(((req.body ?? {}) as Body).code).trim(),
      );
      if (!ok)
        return html(reply, 400, messagePage(view(c), 'Code not valid', 'This code is not valid or has expired.'));
      return reply.redirect(`${portalPath(c.handle)}/details?done=proposed`, 303);
    }),
  );

  // The new email's confirmation link (no session needed: the link is the proof).
  app.get<{ Params: { handle: string; token: string } }>('/c/:handle/me/confirm/:token', async (req, reply) => {
    const c = await churchOf(req, reply);
    if (!c) return reply;
    return html(
      reply,
      200,
      buttonPage(
        view(c),
        'Confirm your email address',
        'Confirm that this is your new email address?',
        'Confirm my email address',
      ),
    );
  });
  app.post<{ Params: { handle: string; token: string } }>(
    '/c/:handle/me/confirm/:token',
    { config: { sameOrigin: true } },
    async (req, reply) => {
      const c = await churchOf(req, reply);
      if (!c) return reply;
      const ok = await confirmProposalEmail(db, c, req.params.token);
      if (!ok)
        return html(reply, 404, messagePage(view(c), 'Link not found', 'This link is not valid or has expired.'));
      return html(
        reply,
        200,
        messagePage(view(c), 'Email address confirmed', 'Thank you. The church will check your changes.'),
      );
    },
  );
}
