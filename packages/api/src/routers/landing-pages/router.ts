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
    .output(z.array(landingPageListItemSchema))
    .query(({ ctx }) => svc.listLandingPages(ctx.db, ctx.tenantId)),
  get: protectedProcedure
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .query(({ ctx, input }) => svc.getLandingPage(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .input(landingPageFieldsSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.createLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  update: protectedProcedure
    .input(updateLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.updateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  publish: protectedProcedure
    .input(publishLandingPageSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.publishLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  duplicate: protectedProcedure
    .input(landingPageIdSchema)
    .output(landingPageSchema)
    .mutation(({ ctx, input }) =>
      svc.duplicateLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  delete: protectedProcedure
    .input(landingPageIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) =>
      svc.deleteLandingPage({ db: ctx.db, onChange: ctx.services.landingPageChanged }, ctx.tenantId, input),
    ),
  stats: protectedProcedure
    .input(landingPageStatsInputSchema)
    .output(landingPageStatsSchema)
    .query(({ ctx, input }) => svc.landingPageStats(ctx.db, ctx.tenantId, input)),
  applySignupValue: protectedProcedure
    .input(applySignupValueSchema)
    .output(z.object({ contactId: z.number().int() }))
    .mutation(({ ctx, input }) => applySignupValue(ctx.db, ctx.tenantId, input)),
  bySlug: publicProcedure
    .input(landingPageSlugSchema)
    .output(publicLandingPageSchema)
    .query(async ({ ctx, input }) => svc.toPublicLandingPage(await svc.getPublishedLandingPage(ctx.db, input))),
});
