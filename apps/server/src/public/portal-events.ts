import type { FastifyInstance } from 'fastify';
import {
  attendeeRows,
  cancelRegistration,
  churchLocaleOf,
  formAttendees,
  formErrors,
  memberEvents,
  portalHousehold,
  portalPeople,
  portalRegistration,
  portalRegistrations,
  publicEventPage,
  registerForEvent,
  registrationFromForm,
  throttleRegistrations,
  updateRegistration,
  portalPath,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { EVENTS_CSS, eventBody, type HouseholdOption, type RegisterFormState } from '@lampstand/api/render/events-html';
import { renderOutcome } from '@lampstand/api/render/events-pay-html';
import { answersSection, myEventsSection } from '@lampstand/api/render/portal-events-html';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import { formKey, mapTilesOf, pageCalendarDeps } from './events.js';
import { idParam, many, one, type Body, type PortalKit } from './portal-kit.js';

const NOTICES: Record<string, string> = {
  cancelled: 'Your registration is cancelled.',
  saved: 'Your answers are saved.',
};

/**
 * 'My events' in the members' portal: the person's registrations (cancel by the event's refund
 * policy, change the answers), and registering for public and members-only events, ticking who of
 * the household is coming (and adding others). Another person's registration is 404.
 */
export function portalEventRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, html, signedIn, page, csrf, base, deps } = kit;
  const calendar = pageCalendarDeps(deps);
  const zoneOf = async (c: PortalChurch) => ({ ...c, ...(await churchLocaleOf(db, c.userId)) });

  app.get(
    '/c/:handle/me/events',
    signedIn(false, async (req, reply, c, s) => {
      const z = await zoneOf(c);
      const [regs, events] = await Promise.all([portalRegistrations(db, s), memberEvents(db, c.userId, new Date())]);
      const done = (req.query as Record<string, string>).done ?? '';
      return html(
        reply,
        200,
        page(c, s, 'My events', '/events', myEventsSection(base(c), csrf(s), regs, events, z), NOTICES[done]),
      );
    }),
  );

  app.post(
    '/c/:handle/me/events/registrations/:id/cancel',
    signedIn(true, async (req, reply, c, s) => {
      const r = await portalRegistration(db, s, idParam(req.params.id));
      await cancelRegistration(calendar, c.userId, { id: r.id });
      return reply.redirect(`${base(c)}/events?done=cancelled`, 303);
    }),
  );

  app.get(
    '/c/:handle/me/events/registrations/:id',
    signedIn(false, async (req, reply, c, s) => {
      const r = await portalRegistration(db, s, idParam(req.params.id));
      return html(reply, 200, page(c, s, r.title, '/events', answersSection(base(c), csrf(s), r)));
    }),
  );

  app.post(
    '/c/:handle/me/events/registrations/:id',
    signedIn(true, async (req, reply, c, s) => {
      const r = await portalRegistration(db, s, idParam(req.params.id));
      const body = (req.body ?? {}) as Body;
      const answers: { questionId: number; attendeeId?: number; value: string | string[] | boolean | number }[] = [];
      const value = (kind: string, raw: string | string[] | undefined) => {
        if (kind === 'multiple_choice') return many(raw);
        const v = one(raw).trim();
        if (kind === 'yes_no') return v === 'yes' ? true : v === 'no' ? false : '';
        return kind === 'number' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
      };
      const empty = (v: unknown) => v === '' || (Array.isArray(v) && v.length === 0);
      let missing: string | null = null;
      for (const q of r.questions) {
        const targets = q.scope === 'registration' ? [undefined] : r.attendees.map((a) => a.id);
        for (const attendeeId of targets) {
          const name = attendeeId === undefined ? `answers.${q.id}` : `attendee.${attendeeId}.answers.${q.id}`;
          const v = value(q.kind, body[name]);
          if (q.required && empty(v)) missing ??= `"${q.label}" needs an answer`;
          answers.push({ questionId: q.id, ...(attendeeId === undefined ? {} : { attendeeId }), value: v });
        }
      }
      const attendees = r.attendees.map((a) => ({
        id: a.id,
        name: one(body[`attendee.${a.id}.name`]).trim() || a.name,
      }));
      if (missing)
        return html(reply, 400, page(c, s, r.title, '/events', answersSection(base(c), csrf(s), r, missing)));
      try {
        await updateRegistration(calendar, c.userId, { id: r.id, answers, attendees });
      } catch (err) {
        const errors = formErrors(err);
        if (!errors) throw err;
        const message = Object.values(errors)[0] ?? 'Check the answers';
        return html(reply, 400, page(c, s, r.title, '/events', answersSection(base(c), csrf(s), r, message)));
      }
      return reply.redirect(`${base(c)}/events?done=saved`, 303);
    }),
  );

  // ---- Registering as a signed-in member (members-only events too) ----
  async function memberForm(c: PortalChurch, s: PortalSession, slug: string) {
    const z = await zoneOf(c);
    const e = await publicEventPage(db, c.userId, slug, { now: new Date(), member: true });
    if (!e) return null;
    const [people, household] = await Promise.all([portalPeople(db, s), portalHousehold(db, s)]);
    const options: HouseholdOption[] = [
      ...people.map((p) => ({ name: [p.firstName, p.lastName].filter(Boolean).join(' '), email: p.email })),
      ...household.flatMap((h) => [...h.family, ...h.children].map((f) => ({ name: f.name, email: null }))),
    ].filter((o, i, all) => o.name && all.findIndex((x) => x.name === o.name) === i);
    const me = people[0];
    return { z, e, options, me };
  }
  const render = (
    c: PortalChurch,
    s: PortalSession,
    f: NonNullable<Awaited<ReturnType<typeof memberForm>>>,
    state: RegisterFormState,
    key: string,
  ) =>
    page(
      c,
      s,
      f.e.title,
      '/events',
      `<style>${EVENTS_CSS}.ev h1{font-size:1.6rem}</style>${eventBody(f.z, f.e, state, {
        action: `${base(c)}/events/${f.e.slug}/register`,
        csrf: csrf(s),
        household: f.options,
        icsUrl: `/c/${c.handle}/events/${f.e.slug}/calendar.ics`,
        map: mapTilesOf(deps),
        idempotencyKey: key,
      })}`,
    );

  app.get(
    '/c/:handle/me/events/:slug',
    signedIn(false, async (req, reply, c, s) => {
      const f = await memberForm(c, s, req.params.slug ?? '');
      if (!f) return html(reply, 404, renderNotFound());
      // The member is coming (ticked); the rest of the household is offered, unticked.
      const values: Record<string, string> = f.me
        ? {
            'registrant.name': f.options[0]?.name ?? '',
            'registrant.email': f.me.email ?? '',
            'attendees.0.coming': 'yes',
          }
        : {};
      return html(reply, 200, render(c, s, f, { values, errors: {}, attendees: f.options.length }, formKey()));
    }),
  );

  app.post(
    '/c/:handle/me/events/:slug/register',
    signedIn(true, async (req, reply, c, s) => {
      const f = await memberForm(c, s, req.params.slug ?? '');
      if (!f) return html(reply, 404, renderNotFound());
      const body = (req.body ?? {}) as Body;
      const key = /^[A-Za-z0-9_-]{8,100}$/.test(one(body.key)) ? one(body.key) : formKey();
      const household = f.options.length;
      const attendees = formAttendees(body, household);
      if (typeof body.change === 'string')
        return html(reply, 200, render(c, s, f, { values: body, errors: {}, attendees }, key));
      try {
        await throttleRegistrations(db, req.ip, deps.limits.donationsPerAddressPerHour);
        const input = registrationFromForm(f.e.id, f.e.questions, body, key, household);
        const result = await registerForEvent(calendar, input, { tenantId: c.userId, member: true });
        return html(
          reply,
          200,
          renderOutcome({ ...f.z, handle: c.handle }, f.e.title, result, `${portalPath(c.handle)}/events`),
        );
      } catch (err) {
        const errors = formErrors(err, attendeeRows(body, household));
        if (!errors) throw err;
        return html(reply, 400, render(c, s, f, { values: body, errors, attendees }, key));
      }
    }),
  );
}
