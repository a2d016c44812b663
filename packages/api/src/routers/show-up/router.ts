import { z } from 'zod';
import {
  createProjectSchema,
  createUpdateSchema,
  demoCompleteSchema,
  donationByPaymentInputSchema,
  donationReceiptInfoSchema,
  givingStatusSchema,
  ownerDonationsSchema,
  prepareDonationSchema,
  preparedDonationSchema,
  showUpConfigInputSchema,
  showUpConfigSchema,
  findProjectsSchema,
  projectIdSchema,
  projectPageSchema,
  projectSchema,
  projectUpdateSchema,
  supporterSchema,
  updateProjectSchema,
} from '../../schemas/show-up.js';
import { createProject, findProjects, getProject, updateProject } from '../../services/show-up/projects.js';
import { createUpdate, listSupporters, listUpdates } from '../../services/show-up/updates.js';
import {
  completeDemoPayment,
  donationByPayment,
  exportDonations,
  ownerDonations,
  prepareDonation,
  showUpConfig,
} from '../../services/show-up/donations.js';
import { connectGiving, givingStatus, refreshGiving } from '../../services/show-up/giving.js';
import { throttleDonations as throttleByAddress } from '../../services/show-up/donation-limits.js';
import type { Context } from '../../context.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';

/** The spec's 5 minutes for visitors of the public Show Up reads (a signed-in viewer revalidates). */
const SHOW_UP_CACHE_SECONDS = 300;

const throttleDonations = (ctx: Context, kind: 'start' | 'lookup') =>
  throttleByAddress(ctx.db, { ip: ctx.ip, perHour: ctx.services.limits.donationsPerAddressPerHour, kind });

const eventDeps = (ctx: Context) => ({
  db: ctx.db,
  jobs: ctx.services.jobs,
  publicUrl: ctx.services.delivery.publicUrl,
  payments: ctx.services.showUp.payments,
});

export const showUpRouter = router({
  list: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects',
        summary: 'A page of active projects: search, category (or urgent), lat/lng for nearest first, page, pageSize',
        tag: 'Show Up',
        publicCacheSeconds: SHOW_UP_CACHE_SECONDS,
      },
    })
    .input(findProjectsSchema)
    .output(projectPageSchema)
    .query(({ ctx, input }) => findProjects(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  get: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects/{id}',
        summary: 'One project',
        tag: 'Show Up',
        publicCacheSeconds: SHOW_UP_CACHE_SECONDS,
      },
    })
    .input(projectIdSchema)
    .output(projectSchema)
    .query(({ ctx, input }) => getProject(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  updates: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects/{id}/updates',
        summary: "A project's updates, newest first",
        tag: 'Show Up',
        publicCacheSeconds: SHOW_UP_CACHE_SECONDS,
      },
    })
    .input(projectIdSchema)
    .output(z.array(projectUpdateSchema))
    .query(({ ctx, input }) => listUpdates(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  supporters: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects/{id}/donations',
        summary: 'Completed gifts (supporters): anonymous ones without a name, never an email',
        tag: 'Show Up',
        publicCacheSeconds: SHOW_UP_CACHE_SECONDS,
      },
    })
    .input(projectIdSchema)
    .output(z.array(supporterSchema))
    .query(({ ctx, input }) => listSupporters(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/show-up/projects',
        summary: 'List a project (the signed-in church owns it)',
        tag: 'Show Up',
        status: 201,
      },
    })
    .input(createProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/show-up/projects/{id}',
        summary: 'Change a project (owner only; unsent fields keep their values)',
        tag: 'Show Up',
      },
    })
    .input(updateProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.tenantId, input)),
  createUpdate: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/show-up/projects/{projectId}/updates',
        summary: 'Post an update (owner only): title, content, images',
        tag: 'Show Up',
        status: 201,
      },
    })
    .input(createUpdateSchema)
    .output(projectUpdateSchema)
    .mutation(({ ctx, input }) => createUpdate(ctx.db, ctx.tenantId, input)),

  // Giving
  config: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/config',
        summary:
          'Map tiles, and whether Donate Now can take a gift (giving mode, publishable key; ?projectId for its church)',
        tag: 'Show Up',
      },
    })
    .input(showUpConfigInputSchema)
    .output(showUpConfigSchema)
    .query(({ ctx, input }) => showUpConfig(ctx.db, ctx.services.showUp, input)),
  prepareDonation: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/show-up/donations/prepare',
        summary:
          'Start a gift: projectId, amount (USD), donorName, donorEmail, message, isAnonymous, source (lsrc), idempotencyKey; returns clientSecret',
        tag: 'Show Up',
        errors: [429],
      },
    })
    .input(prepareDonationSchema)
    .output(preparedDonationSchema)
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return prepareDonation(ctx.db, ctx.services.showUp.payments, input);
    }),
  completeDemoPayment: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/show-up/donations/demo-complete',
        summary:
          'Demo mode only (no Stripe keys, not production): complete a prepared payment (paymentIntent, clientSecret)',
        tag: 'Show Up',
        errors: [429],
      },
    })
    .input(demoCompleteSchema)
    .output(z.object({ status: z.literal('succeeded') }))
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return completeDemoPayment(eventDeps(ctx), input);
    }),
  donationByPayment: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/donations/by-payment/{paymentIntent}',
        summary: 'What the thank-you page shows: amount, createdAt, donorName, isAnonymous, projectId, receiptUrl',
        tag: 'Show Up',
        errors: [429],
      },
    })
    .input(donationByPaymentInputSchema)
    .output(donationReceiptInfoSchema)
    .query(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'lookup');
      return donationByPayment(ctx.db, input);
    }),
  ownerDonations: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects/{id}/donations/report',
        summary: "The owner's Donations tab: every gift with status and source, summed by source",
        tag: 'Show Up',
      },
    })
    .input(projectIdSchema)
    .output(ownerDonationsSchema)
    .query(({ ctx, input }) => ownerDonations(ctx.db, ctx.tenantId, input)),
  exportDonations: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/show-up/projects/{id}/donations/export',
        summary: "The owner's donations as CSV",
        tag: 'Show Up',
        format: 'csv',
      },
    })
    .input(projectIdSchema)
    .output(z.object({ fileName: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => exportDonations(ctx.db, ctx.tenantId, input)),
  givingStatus: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/giving',
        summary: "The church's Stripe account: not_connected, pending or ready",
        tag: 'Show Up',
      },
    })
    .output(givingStatusSchema)
    .query(({ ctx }) => givingStatus(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
  givingConnect: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/giving/connect',
        summary: "Connect the church's own Stripe account: an Express onboarding link",
        tag: 'Show Up',
      },
    })
    .output(z.object({ url: z.string() }))
    .mutation(({ ctx }) =>
      connectGiving(
        ctx.db,
        { payments: ctx.services.showUp.payments, publicUrl: ctx.services.delivery.publicUrl },
        ctx.tenantId,
      ),
    ),
  givingRefresh: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/giving/refresh',
        summary: "Ask Stripe for the church's account state now",
        tag: 'Show Up',
      },
    })
    .output(givingStatusSchema)
    .mutation(({ ctx }) => refreshGiving(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
});
