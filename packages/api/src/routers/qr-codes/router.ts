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
import { restTag } from '../../rest-meta.js';

const rest = restTag('QR codes');

const qrDeps = (ctx: Pick<Context, 'db' | 'services'>) => ({
  db: ctx.db,
  settings: ctx.services.qr,
  storage: ctx.services.storage,
  now: () => new Date(),
});

export const qrCodesRouter = router({
  list: protectedProcedure
    .meta(
      rest.get(
        '/api/qr-codes',
        'QR codes, newest first, with their scan counts, current destination and next scheduled change',
      ),
    )
    .output(z.array(qrCodeSchema))
    .query(({ ctx }) => listQrCodes(qrDeps(ctx), ctx.tenantId)),
  destinations: protectedProcedure
    .meta(
      rest.get(
        '/api/qr-codes/destinations',
        "The church's own pages a code can point at (landing pages, Show Up projects), by group, with their public URLs",
      ),
    )
    .output(z.array(qrDestinationSourceSchema))
    .query(({ ctx }) => listQrDestinations(ctx.db, ctx.tenantId, { publicUrl: ctx.services.qr.publicUrl })),
  get: protectedProcedure
    .meta(rest.get('/api/qr-codes/{id}', 'One QR code'))
    .input(qrCodeIdSchema)
    .output(qrCodeSchema)
    .query(({ ctx, input }) => getQrCode(qrDeps(ctx), ctx.tenantId, input)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/qr-codes',
        'Create a QR code (a userId in the body is ignored: the church comes from the session)',
        { status: 201 },
      ),
    )
    .input(createQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input }) => createQrCode(qrDeps(ctx), ctx.tenantId, { input })),
  update: protectedProcedure
    .meta(rest.put('/api/qr-codes/{id}', 'Replace a QR code (its short code stays, so printed codes keep working)'))
    .input(updateQrCodeSchema)
    .output(qrCodeSchema)
    .mutation(({ ctx, input: { id, ...input } }) => updateQrCode(qrDeps(ctx), ctx.tenantId, { id, input })),
  delete: protectedProcedure
    .meta(rest.delete('/api/qr-codes/{id}', 'Delete a QR code and its scans'))
    .input(qrCodeIdSchema)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => deleteQrCode(ctx.db, ctx.tenantId, input)),
  scans: protectedProcedure
    .meta(
      rest.get(
        '/api/qr-codes/{id}/scans',
        'Scans per day over the last 30 days (printed code and shared link), devices and referrers',
      ),
    )
    .input(qrCodeIdSchema)
    .output(qrScanStatsSchema)
    .query(({ ctx, input }) => qrScanStats(qrDeps(ctx), ctx.tenantId, input)),
  preview: renderProcedure
    .meta(
      rest.get(
        '/api/qr-codes/preview',
        'A QR image from query parameters: data, foregroundColor, backgroundColor, cornerSquareColor, cornerDotColor (hex without #), size, errorCorrection, margin, logoUrl, format=png|svg',
        { format: 'image', image: { cacheControl: 'private, max-age=86400' } },
      ),
    )
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
    .meta(
      rest.get('/api/qr-codes/{id}/image', "The code's PNG (?size= for a thumbnail, ?format=svg)", {
        format: 'image',
        image: { cacheControl: 'private, max-age=60' },
      }),
    )
    .input(qrImageSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
  download: renderProcedure
    .meta(
      rest.get('/api/qr-codes/{id}/download', 'Download the code as PNG at its size, or ?format=svg for print shops', {
        format: 'image',
        image: { cacheControl: 'private, no-cache', attachment: true },
      }),
    )
    .input(qrDownloadSchema)
    .output(qrImageOutputSchema)
    .query(({ ctx, input }) => qrCodeImage(qrDeps(ctx), ctx.tenantId, input)),
});
