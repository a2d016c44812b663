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
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes',
        summary: 'QR codes, newest first, with their scan counts, current destination and next scheduled change',
        tag: 'QR codes',
      },
    })
    .output(z.array(qrCodeSchema))
    .query(({ ctx }) => listQrCodes(qrDeps(ctx), ctx.tenantId)),
  destinations: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes/destinations',
        summary:
          "The church's own pages a code can point at (landing pages, Show Up projects), by group, with their public URLs",
        tag: 'QR codes',
      },
    })
    .output(z.array(qrDestinationSourceSchema))
    .query(({ ctx }) => listQrDestinations(ctx.db, ctx.tenantId, { publicUrl: ctx.services.qr.publicUrl })),
  get: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/qr-codes/{id}', summary: 'One QR code', tag: 'QR codes' } })
    .input(qrCodeIdSchema)
    .output(qrCodeSchema)
    .query(({ ctx, input }) => getQrCode(qrDeps(ctx), ctx.tenantId, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/qr-codes',
        summary: 'Create a QR code (a userId in the body is ignored: the church comes from the session)',
        tag: 'QR codes',
        status: 201,
      },
    })
    .input(createQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input }) => createQrCode(qrDeps(ctx), ctx.tenantId, { input })),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/qr-codes/{id}',
        summary: 'Replace a QR code (its short code stays, so printed codes keep working)',
        tag: 'QR codes',
      },
    })
    .input(updateQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input: { id, ...input } }) => updateQrCode(qrDeps(ctx), ctx.tenantId, { id, input })),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/qr-codes/{id}',
        summary: 'Delete a QR code and its scans',
        tag: 'QR codes',
      },
    })
    .input(qrCodeIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteQrCode(ctx.db, ctx.tenantId, input)),
  scans: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes/{id}/scans',
        summary: 'Scans per day over the last 30 days (printed code and shared link), devices and referrers',
        tag: 'QR codes',
      },
    })
    .input(qrCodeIdSchema)
    .output(qrScanStatsSchema)
    .query(({ ctx, input }) => qrScanStats(qrDeps(ctx), ctx.tenantId, input)),
  preview: renderProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes/preview',
        summary:
          'A QR image from query parameters: data, foregroundColor, backgroundColor, cornerSquareColor, cornerDotColor (hex without #), size, errorCorrection, margin, logoUrl, format=png|svg',
        tag: 'QR codes',
        format: 'image',
        image: { cacheControl: 'private, max-age=86400' },
      },
    })
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
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes/{id}/image',
        summary: "The code's PNG (?size= for a thumbnail, ?format=svg)",
        tag: 'QR codes',
        format: 'image',
        image: { cacheControl: 'private, max-age=60' },
      },
    })
    .input(qrImageSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
  download: renderProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/qr-codes/{id}/download',
        summary: 'Download the code as PNG at its size, or ?format=svg for print shops',
        tag: 'QR codes',
        format: 'image',
        image: { cacheControl: 'private, no-cache', attachment: true },
      },
    })
    .input(qrDownloadSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
});
