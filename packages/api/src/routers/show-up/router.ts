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
import { createProject, getProject, updateProject } from '../../services/show-up/projects.js';
import { findProjects } from '../../services/show-up/project-list.js';
import { createUpdate, listSupporters, listUpdates } from '../../services/show-up/updates.js';
import { prepareDonation, showUpConfig } from '../../services/show-up/donations.js';
import { completeDemoPayment } from '../../services/show-up/stripe-webhook.js';
import { donationByPayment } from '../../services/show-up/receipts.js';
import { exportDonations, ownerDonations } from '../../services/show-up/owner-donations.js';
import { connectGiving, givingStatus, refreshGiving } from '../../services/show-up/giving.js';
import { throttleDonations as throttleByAddress } from '../../services/show-up/donation-limits.js';
import type { Context } from '../../context.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Show Up');

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
    .meta(
      rest.get(
        '/api/show-up/projects',
        'A page of active projects: search, category (or urgent), lat/lng for nearest first, page, pageSize',
        { publicCacheSeconds: SHOW_UP_CACHE_SECONDS },
      ),
    )
    .input(findProjectsSchema)
    .output(projectPageSchema)
    .query(({ ctx, input }) => findProjects(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  get: publicProcedure
    .meta(rest.get('/api/show-up/projects/{id}', 'One project', { publicCacheSeconds: SHOW_UP_CACHE_SECONDS }))
    .input(projectIdSchema)
    .output(projectSchema)
    .query(({ ctx, input }) => getProject(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  updates: publicProcedure
    .meta(
      rest.get('/api/show-up/projects/{id}/updates', "A project's updates, newest first", {
        publicCacheSeconds: SHOW_UP_CACHE_SECONDS,
      }),
    )
    .input(projectIdSchema)
    .output(z.array(projectUpdateSchema))
    .query(({ ctx, input }) => listUpdates(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  supporters: publicProcedure
    .meta(
      rest.get(
        '/api/show-up/projects/{id}/donations',
        'Completed gifts (supporters): anonymous ones without a name, never an email',
        { publicCacheSeconds: SHOW_UP_CACHE_SECONDS },
      ),
    )
    .input(projectIdSchema)
    .output(z.array(supporterSchema))
    .query(({ ctx, input }) => listSupporters(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  create: protectedProcedure
    .meta(rest.post('/api/show-up/projects', 'List a project (the signed-in church owns it)', { status: 201 }))
    .input(createProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/show-up/projects/{id}', 'Change a project (owner only; unsent fields keep their values)'))
    .input(updateProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.tenantId, input)),
  createUpdate: protectedProcedure
    .meta(
      rest.post('/api/show-up/projects/{projectId}/updates', 'Post an update (owner only): title, content, images', {
        status: 201,
      }),
    )
    .input(createUpdateSchema)
    .output(projectUpdateSchema)
    .mutation(({ ctx, input }) => createUpdate(ctx.db, ctx.tenantId, input)),

  // Giving
  config: publicProcedure
    .meta(
      rest.get(
        '/api/show-up/config',
        'Map tiles, and whether Donate Now can take a gift (giving mode, publishable key; ?projectId for its church)',
      ),
    )
    .input(showUpConfigInputSchema)
    .output(showUpConfigSchema)
    .query(({ ctx, input }) => showUpConfig(ctx.db, ctx.services.showUp, input)),
  prepareDonation: publicProcedure
    .meta(
      rest.post(
        '/api/show-up/donations/prepare',
        'Start a gift: projectId, amount (USD), donorName, donorEmail, message, isAnonymous, source (lsrc), idempotencyKey; returns clientSecret',
        { errors: [429] },
      ),
    )
    .input(prepareDonationSchema)
    .output(preparedDonationSchema)
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return prepareDonation(ctx.db, ctx.services.showUp.payments, input);
    }),
  completeDemoPayment: publicProcedure
    .meta(
      rest.post(
        '/api/show-up/donations/demo-complete',
        'Demo mode only (no Stripe keys, not production): complete a prepared payment (paymentIntent, clientSecret)',
        { errors: [429] },
      ),
    )
    .input(demoCompleteSchema)
    .output(z.object({ status: z.literal('succeeded') }))
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return completeDemoPayment(eventDeps(ctx), input);
    }),
  donationByPayment: publicProcedure
    .meta(
      rest.get(
        '/api/show-up/donations/by-payment/{paymentIntent}',
        'What the thank-you page shows: amount, createdAt, donorName, isAnonymous, projectId, receiptUrl',
        { errors: [429] },
      ),
    )
    .input(donationByPaymentInputSchema)
    .output(donationReceiptInfoSchema)
    .query(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'lookup');
      return donationByPayment(ctx.db, input);
    }),
  ownerDonations: protectedProcedure
    .meta(
      rest.get(
        '/api/show-up/projects/{id}/donations/report',
        "The owner's Donations tab: every gift with status and source, summed by source",
      ),
    )
    .input(projectIdSchema)
    .output(ownerDonationsSchema)
    .query(({ ctx, input }) => ownerDonations(ctx.db, ctx.tenantId, input)),
  exportDonations: protectedProcedure
    .meta(rest.get('/api/show-up/projects/{id}/donations/export', "The owner's donations as CSV", { format: 'csv' }))
    .input(projectIdSchema)
    .output(z.object({ fileName: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => exportDonations(ctx.db, ctx.tenantId, input)),
  givingStatus: protectedProcedure
    .meta(rest.get('/api/giving', "The church's Stripe account: not_connected, pending or ready"))
    .output(givingStatusSchema)
    .query(({ ctx }) => givingStatus(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
  givingConnect: protectedProcedure
    .meta(rest.post('/api/giving/connect', "Connect the church's own Stripe account: an Express onboarding link"))
    .output(z.object({ url: z.string() }))
    .mutation(({ ctx }) =>
      connectGiving(
        ctx.db,
        { payments: ctx.services.showUp.payments, publicUrl: ctx.services.delivery.publicUrl },
        ctx.tenantId,
      ),
    ),
  givingRefresh: protectedProcedure
    .meta(rest.post('/api/giving/refresh', "Ask Stripe for the church's account state now"))
    .output(givingStatusSchema)
    .mutation(({ ctx }) => refreshGiving(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
});
