import type { FastifyInstance } from 'fastify';
import { portalHousehold } from '@lampstand/api/server';
import { householdSection } from '@lampstand/api/render/portal-sections-html';
import type { AppDeps } from '../app-deps.js';
import { parseForm, portalKit } from './portal-kit.js';
import { portalSwapRoutes } from './portal-swaps.js';
import { portalSignInRoutes } from './portal-sign-in.js';
import { portalSubscriptionRoutes } from './portal-subscriptions.js';
import { portalDetailsRoutes } from './portal-details.js';
import { portalScheduleRoutes } from './portal-schedule.js';
import { portalGivingRoutes } from './portal-giving.js';
import { portalGroupRoutes } from './portal-groups.js';
import { portalGroupPageRoutes } from './portal-group-pages.js';
import { portalEventRoutes } from './portal-events.js';

/**
 * The members' portal at `/c/{handle}/me`: sign-in by link or code, then the person's
 * subscriptions, details, schedule, household and giving, all server-rendered without JavaScript.
 * Its cookie is its own (path `/c/{handle}/me`), so the staff API never sees it, and a session only
 * reaches its church and its contacts: any other id answers 404. Writes are plain form posts,
 * each carrying an HMAC of the session and checked for the page's own origin. The request's
 * church and session, the layout and the sign-in guard are in portal-kit.ts; each area's routes
 * in a file of its own (portal-sign-in.ts, portal-subscriptions.ts, portal-details.ts,
 * portal-schedule.ts, portal-swaps.ts, portal-giving.ts, portal-groups.ts, portal-group-pages.ts and
 * portal-events.ts).
 */
export async function portalRoutes(app: FastifyInstance, opts: { deps: AppDeps; publicUrl: string }): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_r, body, done) => done(null, parseForm(String(body))),
  );
  const kit = portalKit(opts);
  const { db, signedIn, page, html, csrf, base } = kit;
  portalSignInRoutes(app, kit);
  portalSubscriptionRoutes(app, kit);
  portalDetailsRoutes(app, kit);
  portalScheduleRoutes(app, kit);
  // ---- Swap a date (its own file) ----
  portalSwapRoutes(app, opts.deps, { signedIn, page, html, csrf, base });

  // ---- My household ----
  app.get(
    '/c/:handle/me/household',
    signedIn(false, async (_req, reply, c, s) => {
      return html(reply, 200, page(c, s, 'My household', '/household', householdSection(await portalHousehold(db, s))));
    }),
  );

  portalGivingRoutes(app, kit);
  portalGroupRoutes(app, kit);
  portalGroupPageRoutes(app, kit);
  portalEventRoutes(app, kit);
}
