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
import { applySignupValue } from '../../services/landing-pages/signup-values.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';

export const landingPagesRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/landing-pages',
        summary: 'Landing pages, newest first, with visits in the last 30 days and sign-ups',
        tag: 'Landing pages',
      },
    })
    .output(z.array(landingPageListItemSchema))
    .query(({ ctx }) => svc.listLandingPages(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/landing-pages/{id}', summary: 'One landing page', tag: 'Landing pages' },
    })
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .query(({ ctx, input }) => svc.getLandingPage(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/landing-pages',
        summary: 'Create a landing page (name, slug unique across the platform, content, published)',
        tag: 'Landing pages',
        status: 201,
      },
    })
    .input(landingPageFieldsSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.createLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/landing-pages/{id}',
        summary: 'Replace a landing page (publishedAt is set when published turns on)',
        tag: 'Landing pages',
      },
    })
    .input(updateLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.updateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  publish: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/landing-pages/{id}/publish',
        summary: 'Publish or unpublish ({ published })',
        tag: 'Landing pages',
      },
    })
    .input(publishLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.publishLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  duplicate: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/landing-pages/{id}/duplicate',
        summary: 'A draft copy at a free "<slug>-copy" slug',
        tag: 'Landing pages',
        status: 201,
      },
    })
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.duplicateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/landing-pages/{id}',
        summary: 'Delete a landing page with its visits and sign-up records (contacts stay)',
        tag: 'Landing pages',
      },
    })
    .input(landingPageIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) =>
      svc.deleteLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  stats: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/landing-pages/{id}/stats',
        summary: 'Visits per day, sources, sign-ups and conversion (?days=30)',
        tag: 'Landing pages',
      },
    })
    .input(landingPageStatsInputSchema)
    .output(landingPageStatsSchema)
    .query(({ ctx, input }) => svc.landingPageStats(ctx.db, ctx.tenantId, input)),
  applySignupValue: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/landing-page-signups/{id}/use',
        summary:
          "Take a value a sign-up brought ({ field: 'phone' | 'city' | 'postalCode' }) onto its contact (a sign-up never overwrites one itself)",
        tag: 'Landing pages',
      },
    })
    .input(applySignupValueSchema)
    .output(z.object({ contactId: z.number().int() }))
    .mutation(({ ctx, input }) => applySignupValue(ctx.db, ctx.tenantId, input)),
  bySlug: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/landing-pages/slug/{slug}',
        summary: 'A published page by its slug (public; a draft is 404)',
        tag: 'Landing pages',
      },
    })
    .input(landingPageSlugSchema)
    .output(publicLandingPageSchema)
    .query(async ({ ctx, input }) => svc.toPublicLandingPage(await svc.getPublishedLandingPage(ctx.db, input))),
});
