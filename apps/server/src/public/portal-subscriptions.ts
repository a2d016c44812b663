import type { FastifyInstance } from 'fastify';
import {
  portalCsrfToken,
  portalLists,
  portalPeople,
  setPortalSubscriptions,
  unsubscribeEverything,
  portalPath,
} from '@lampstand/api/server';
import { subscriptionsSection } from '@lampstand/api/render/portal-sections-html';
import { idParam, many, one, type Body, type PortalKit } from './portal-kit.js';

/** 'Subscriptions' in the members' portal: each person's channels and lists. */
export function portalSubscriptionRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, secret, html, signedIn, page, noticeOf } = kit;
  app.get(
    '/c/:handle/me/subscriptions',
    signedIn(false, async (req, reply, c, s) => {
      const people = await portalPeople(db, s);
      const rows = await Promise.all(
        people.map(async (person) => ({ person, lists: await portalLists(db, s, person.id) })),
      );
      const content = subscriptionsSection(portalPath(c.handle), portalCsrfToken(secret, s), rows, c.countryCode);
      return html(reply, 200, page(c, s, 'Subscriptions', '/subscriptions', content, noticeOf(req)));
    }),
  );
  app.post(
    '/c/:handle/me/subscriptions/:id',
    signedIn(true, async (req, reply, c, s) => {
      const body = (req.body ?? {}) as Body;
      await setPortalSubscriptions(db, s, idParam(req.params.id), {
        email: one(body.email) === 'on',
        sms: one(body.sms) === 'on',
        listIds: many(body.list).map(Number).filter(Number.isInteger),
      });
      return reply.redirect(`${portalPath(c.handle)}/subscriptions?done=saved`, 303);
    }),
  );
  app.post(
    '/c/:handle/me/subscriptions/:id/unsubscribe-all',
    signedIn(true, async (req, reply, c, s) => {
      await unsubscribeEverything(db, s, idParam(req.params.id));
      return reply.redirect(`${portalPath(c.handle)}/subscriptions?done=saved`, 303);
    }),
  );
}
