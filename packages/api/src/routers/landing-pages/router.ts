import { z } from 'zod';
import {
  landingPageFieldsSchema,
  landingPageIdSchema,
  landingPageListItemSchema,
  landingPageSchema,
  landingPageSlugSchema,
  landingPageStatsInputSchema,
  landingPageStatsSchema,
  publicLandingPageSchema,
  publishLandingPageSchema,
  updateLandingPageSchema,
  applySignupValueSchema,
} from '../../schemas/landing-pages.js';
import * as svc from '../../services/landing-pages/pages.js';
import { landingPageStats } from '../../services/landing-pages/page-stats.js';
import { getPublishedLandingPage, toPublicLandingPage } from '../../services/landing-pages/public-page.js';
import { applySignupValue } from '../../services/landing-pages/signup-values.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Landing pages');

export const landingPagesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/landing-pages', 'Landing pages, newest first, with visits in the last 30 days and sign-ups'))
    .output(z.array(landingPageListItemSchema))
    .query(({ ctx }) => svc.listLandingPages(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .meta(rest.get('/api/landing-pages/{id}', 'One landing page'))
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .query(({ ctx, input }) => svc.getLandingPage(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/landing-pages',
        'Create a landing page (name, slug unique across the platform, content, published)',
        { status: 201 },
      ),
    )
    .input(landingPageFieldsSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.createLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  update: protectedProcedure
    .meta(rest.put('/api/landing-pages/{id}', 'Replace a landing page (publishedAt is set when published turns on)'))
    .input(updateLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.updateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  publish: protectedProcedure
    .meta(rest.post('/api/landing-pages/{id}/publish', 'Publish or unpublish ({ published })'))
    .input(publishLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.publishLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  duplicate: protectedProcedure
    .meta(rest.post('/api/landing-pages/{id}/duplicate', 'A draft copy at a free "<slug>-copy" slug', { status: 201 }))
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.duplicateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  delete: protectedProcedure
    .meta(
      rest.delete(
        '/api/landing-pages/{id}',
        'Delete a landing page with its visits and sign-up records (contacts stay)',
      ),
    )
    .input(landingPageIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) =>
      svc.deleteLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  stats: protectedProcedure
    .meta(rest.get('/api/landing-pages/{id}/stats', 'Visits per day, sources, sign-ups and conversion (?days=30)'))
    .input(landingPageStatsInputSchema)
    .output(landingPageStatsSchema)
    .query(({ ctx, input }) => landingPageStats(ctx.db, ctx.tenantId, input)),
  applySignupValue: protectedProcedure
    .meta(
      rest.post(
        '/api/landing-page-signups/{id}/use',
        "Take a value a sign-up brought ({ field: 'phone' | 'city' | 'postalCode' }) onto its contact (a sign-up never overwrites one itself)",
      ),
    )
    .input(applySignupValueSchema)
    .output(z.object({ contactId: z.number().int() }))
    .mutation(({ ctx, input }) => applySignupValue(ctx.db, ctx.tenantId, input)),
  bySlug: publicProcedure
    .meta(rest.get('/api/landing-pages/slug/{slug}', 'A published page by its slug (public; a draft is 404)'))
    .input(landingPageSlugSchema)
    .output(publicLandingPageSchema)
    .query(async ({ ctx, input }) => toPublicLandingPage(await getPublishedLandingPage(ctx.db, input))),
});
