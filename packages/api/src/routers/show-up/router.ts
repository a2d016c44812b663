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
    .input(findProjectsSchema)
    .output(projectPageSchema)
    .query(({ ctx, input }) => findProjects(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  get: publicProcedure
    .input(projectIdSchema)
    .output(projectSchema)
    .query(({ ctx, input }) => getProject(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  updates: publicProcedure
    .input(projectIdSchema)
    .output(z.array(projectUpdateSchema))
    .query(({ ctx, input }) => listUpdates(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  supporters: publicProcedure
    .input(projectIdSchema)
    .output(z.array(supporterSchema))
    .query(({ ctx, input }) => listSupporters(ctx.db, ctx.effectiveUser?.id ?? null, input)),
  create: protectedProcedure
    .input(createProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => createProject(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateProjectSchema)
    .output(projectSchema)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.tenantId, input)),
  createUpdate: protectedProcedure
    .input(createUpdateSchema)
    .output(projectUpdateSchema)
    .mutation(({ ctx, input }) => createUpdate(ctx.db, ctx.tenantId, input)),

  // Giving
  config: publicProcedure
    .input(showUpConfigInputSchema)
    .output(showUpConfigSchema)
    .query(({ ctx, input }) => showUpConfig(ctx.db, ctx.services.showUp, input)),
  prepareDonation: publicProcedure
    .input(prepareDonationSchema)
    .output(preparedDonationSchema)
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return prepareDonation(ctx.db, ctx.services.showUp.payments, input);
    }),
  completeDemoPayment: publicProcedure
    .input(demoCompleteSchema)
    .output(z.object({ status: z.literal('succeeded') }))
    .mutation(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'start');
      return completeDemoPayment(eventDeps(ctx), input);
    }),
  donationByPayment: publicProcedure
    .input(donationByPaymentInputSchema)
    .output(donationReceiptInfoSchema)
    .query(async ({ ctx, input }) => {
      await throttleDonations(ctx, 'lookup');
      return donationByPayment(ctx.db, input);
    }),
  ownerDonations: protectedProcedure
    .input(projectIdSchema)
    .output(ownerDonationsSchema)
    .query(({ ctx, input }) => ownerDonations(ctx.db, ctx.tenantId, input)),
  exportDonations: protectedProcedure
    .input(projectIdSchema)
    .output(z.object({ fileName: z.string(), csv: z.string() }))
    .query(({ ctx, input }) => exportDonations(ctx.db, ctx.tenantId, input)),
  givingStatus: protectedProcedure
    .output(givingStatusSchema)
    .query(({ ctx }) => givingStatus(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
  givingConnect: protectedProcedure
    .output(z.object({ url: z.string() }))
    .mutation(({ ctx }) =>
      connectGiving(
        ctx.db,
        { payments: ctx.services.showUp.payments, publicUrl: ctx.services.delivery.publicUrl },
        ctx.tenantId,
      ),
    ),
  givingRefresh: protectedProcedure
    .output(givingStatusSchema)
    .mutation(({ ctx }) => refreshGiving(ctx.db, ctx.services.showUp.payments, ctx.tenantId)),
});
