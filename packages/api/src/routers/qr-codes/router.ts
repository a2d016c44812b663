import { z } from 'zod';
import {
  createQrCodeSchema,
  qrCodeIdSchema,
  qrCodeSchema,
  qrDownloadSchema,
  qrImageOutputSchema,
  qrImageSchema,
  qrPreviewSchema,
  qrDestinationSourceSchema,
  qrScanStatsSchema,
  updateQrCodeSchema,
} from '../../schemas/qr-codes.js';
import { drawQrImage, qrCodeImage } from '../../services/qr-codes/images.js';
import {
  createQrCode,
  deleteQrCode,
  getQrCode,
  listQrCodes,
  qrScanStats,
  updateQrCode,
} from '../../services/qr-codes/qr-codes.js';
import { listQrDestinations } from '../../services/qr-codes/destinations.js';
import type { Context } from '../../context.js';
import { protectedProcedure, renderProcedure, router } from '../../trpc.js';

const qrDeps = (ctx: Pick<Context, 'db' | 'services'>) => ({
  db: ctx.db,
  settings: ctx.services.qr,
  storage: ctx.services.storage,
  now: () => new Date(),
});

export const qrCodesRouter = router({
  list: protectedProcedure.output(z.array(qrCodeSchema)).query(({ ctx }) => listQrCodes(qrDeps(ctx), ctx.tenantId)),
  destinations: protectedProcedure
    .output(z.array(qrDestinationSourceSchema))
    .query(({ ctx }) => listQrDestinations(ctx.db, ctx.tenantId, { publicUrl: ctx.services.qr.publicUrl })),
  get: protectedProcedure
    .input(qrCodeIdSchema)
    .output(qrCodeSchema)
    .query(({ ctx, input }) => getQrCode(qrDeps(ctx), ctx.tenantId, input)),
  create: protectedProcedure
    .input(createQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input }) => createQrCode(qrDeps(ctx), ctx.tenantId, { input })),
  update: protectedProcedure
    .input(updateQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input: { id, ...input } }) => updateQrCode(qrDeps(ctx), ctx.tenantId, { id, input })),
  delete: protectedProcedure
    .input(qrCodeIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteQrCode(ctx.db, ctx.tenantId, input)),
  scans: protectedProcedure
    .input(qrCodeIdSchema)
    .output(qrScanStatsSchema)
    .query(({ ctx, input }) => qrScanStats(qrDeps(ctx), ctx.tenantId, input)),
  preview: renderProcedure
    .input(qrPreviewSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input: { format, ...p } }) =>
      drawQrImage(qrDeps(ctx), ctx.tenantId, {
        request: {
          data: p.data,
          size: p.size,
          margin: p.margin,
          errorCorrection: p.errorCorrection,
          foregroundColor: p.foregroundColor,
          backgroundColor: p.backgroundColor,
          cornerSquareColor: p.cornerSquareColor ?? null,
          cornerDotColor: p.cornerDotColor ?? null,
          logoUrl: p.logoUrl ?? null,
          logoUploadId: p.logoUploadId ?? null,
        },
        format,
        fileName: 'qr-preview',
      }),
    ),
  image: renderProcedure
    .input(qrImageSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
  download: renderProcedure
    .input(qrDownloadSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
});
