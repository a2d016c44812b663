import { z } from 'zod';
import { idSchema, requiredTextSchema } from '../common.js';
import { QR_MARGIN, QR_SIZE } from './limits.js';
import { qrCapacityProblem, qrDrawnLevel } from '../../shared/qr-codes.js';
import {
  errorCorrectionSchema,
  hexColourSchema,
  logoUrlSchema,
  marginSchema,
  optionalHexColourSchema,
  refineColours,
  sizeSchema,
} from './code-fields.js';

// A code's image: the dialog's preview and the download.

/** GET /api/qr-codes/preview: colours as hex without # (as the spec), or with. */
export const qrPreviewSchema = z
  .object({
    data: requiredTextSchema('Data', 2048, 'Data is required'),
    foregroundColor: hexColourSchema('Foreground color').default('#000000'),
    backgroundColor: hexColourSchema('Background color').default('#FFFFFF'),
    cornerSquareColor: optionalHexColourSchema('Corner square color').optional(),
    cornerDotColor: optionalHexColourSchema('Corner dot color').optional(),
    size: sizeSchema.default(QR_SIZE.default),
    errorCorrection: errorCorrectionSchema.default('M'),
    margin: marginSchema.default(QR_MARGIN.default),
    logoUrl: logoUrlSchema.optional(),
    logoUploadId: idSchema('Logo').nullable().optional(),
    lightOnDarkConfirmed: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
      .transform((v) => v === true || v === 'true' || v === '1')
      .default(false),
    format: z.enum(['png', 'svg'], { error: 'Format must be png or svg' }).default('png'),
  })
  .superRefine((v, ctx) => {
    refineColours(v, ctx);
    const level = qrDrawnLevel(v.errorCorrection, !!(v.logoUrl || v.logoUploadId));
    const problem = qrCapacityProblem('Data', v.data, level);
    if (problem) ctx.addIssue({ code: 'custom', path: ['data'], message: problem });
  });

export const qrImageSchema = z.object({
  id: idSchema('QR code ID'),
  size: sizeSchema.optional(),
  format: z.enum(['png', 'svg'], { error: 'Format must be png or svg' }).default('png'),
});
export const qrDownloadSchema = qrImageSchema;

/** An image answered by the REST shim as bytes (format 'image'); base64 over tRPC. */
export const qrImageOutputSchema = z.object({
  contentType: z.enum(['image/png', 'image/svg+xml']),
  base64: z.string(),
  etag: z.string(),
  fileName: z.string(),
});
export type QrImageOutput = z.infer<typeof qrImageOutputSchema>;
