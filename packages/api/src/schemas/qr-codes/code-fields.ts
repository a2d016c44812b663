import { z } from 'zod';
import { boundedArraySchema, idSchema, optionalTextSchema, requiredTextSchema, urlSchema } from '../common.js';
import { isCleanText } from '../../shared/text.js';
import { QR_ERROR_CORRECTION, QR_MARGIN, QR_MAX_SCHEDULE, QR_SIZE } from './limits.js';
import { qrCapacityProblem, qrDrawnLevel } from '../../shared/qr-codes.js';
import { checkQrColours, normalizeHex } from '../../shared/qr-codes.js';
import { qrDestinationWithUtm } from '../../shared/qr-codes.js';

// The QR code form: create and update.

export const hexColourSchema = (label: string) =>
  z
    .string({ error: `${label} must be a hex color such as #1A2B3C` })
    .max(16, `${label} must be a hex color such as #1A2B3C`)
    .transform((v, ctx) => {
      const hex = normalizeHex(v);
      if (!hex) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a hex color such as #1A2B3C` });
        return z.NEVER;
      }
      return hex;
    });

export const optionalHexColourSchema = (label: string) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), hexColourSchema(label).nullable());

export const sizeSchema = z.coerce
  .number({ error: 'Size must be a number' })
  .int('Size must be a whole number')
  .min(QR_SIZE.min, `Size must be between ${QR_SIZE.min} and ${QR_SIZE.max}`)
  .max(QR_SIZE.max, `Size must be between ${QR_SIZE.min} and ${QR_SIZE.max}`);

export const marginSchema = z.coerce
  .number({ error: 'Margin must be a number' })
  .int('Margin must be a whole number')
  .min(QR_MARGIN.min, `Margin must be between ${QR_MARGIN.min} and ${QR_MARGIN.max}`)
  .max(QR_MARGIN.max, `Margin must be between ${QR_MARGIN.min} and ${QR_MARGIN.max}`);

export const errorCorrectionSchema = z.enum(QR_ERROR_CORRECTION, { error: 'Error correction must be L, M, Q or H' });

/** A logo URL or empty (null out). */
export const logoUrlSchema = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  urlSchema('Please enter a valid logo URL').nullable(),
);

const isoTime = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.iso.datetime({ offset: true, error: `${label} must be a date and time` }).nullable(),
  );

const qrScheduleEntrySchema = z
  .object({
    url: urlSchema('Please enter a valid URL'),
    startsAt: isoTime('Start'),
    endsAt: isoTime('End'),
  })
  // No start: in force from now (the form's placeholder says 'Now'); no end: until it is removed.
  .superRefine((v, ctx) => {
    if (v.startsAt && v.endsAt && new Date(v.endsAt) <= new Date(v.startsAt))
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  });

/** The design JSON kept as given (a few flat settings). */
const designSchema = z
  .record(
    z.string().max(40).refine(isCleanText),
    z.union([z.string().max(200).refine(isCleanText), z.number(), z.boolean(), z.null()]),
  )
  .refine((o) => Object.keys(o).length <= 20, 'Design: at most 20 settings')
  .default({});

const qrCodeFieldsObject = z.object({
  name: requiredTextSchema('Name', 200),
  url: urlSchema('Please enter a valid URL'),
  isShortUrl: z.boolean({ error: 'Short link must be true or false' }).default(false),
  foregroundColor: hexColourSchema('Foreground color').default('#000000'),
  backgroundColor: hexColourSchema('Background color').default('#FFFFFF'),
  cornerSquareColor: optionalHexColourSchema('Corner square color').optional(),
  cornerDotColor: optionalHexColourSchema('Corner dot color').optional(),
  size: sizeSchema.default(QR_SIZE.default),
  errorCorrection: errorCorrectionSchema.default('M'),
  margin: marginSchema.default(QR_MARGIN.default),
  logoUrl: logoUrlSchema.optional(),
  logoUploadId: idSchema('Logo').nullable().optional(),
  lightOnDarkConfirmed: z.boolean().default(false),
  design: designSchema,
  utmSource: optionalTextSchema('UTM source', 100).optional(),
  utmMedium: optionalTextSchema('UTM medium', 100).optional(),
  utmCampaign: optionalTextSchema('UTM campaign', 100).optional(),
  schedule: boundedArraySchema(qrScheduleEntrySchema, 'Scheduled destinations', QR_MAX_SCHEDULE).default([]),
});

export function refineColours(
  v: {
    foregroundColor: string;
    backgroundColor: string;
    cornerSquareColor?: string | null;
    cornerDotColor?: string | null;
    lightOnDarkConfirmed?: boolean;
  },
  ctx: z.RefinementCtx,
) {
  const problem = checkQrColours(v);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

const SCHEDULE_NEEDS_SHORT_LINK = 'Scheduled destinations need a short link: turn on "Use short link"';

function refineCode(v: z.output<typeof qrCodeFieldsObject>, ctx: z.RefinementCtx) {
  refineColours(v, ctx);
  // A code with a short link holds the short link (always short); otherwise the URL itself.
  if (!v.isShortUrl) {
    const level = qrDrawnLevel(v.errorCorrection, !!(v.logoUrl || v.logoUploadId));
    const problem = qrCapacityProblem('URL', qrDestinationWithUtm(v.url, v), level);
    if (problem) ctx.addIssue({ code: 'custom', path: ['url'], message: problem });
  }
  if (v.schedule.length > 0 && !v.isShortUrl)
    ctx.addIssue({ code: 'custom', path: ['schedule'], message: SCHEDULE_NEEDS_SHORT_LINK });
}

/** Create: the form plus an ignored userId (the server takes the church from the session). */
export const createQrCodeSchema = qrCodeFieldsObject.superRefine(refineCode);
/** PUT replaces every field. */
export const updateQrCodeSchema = qrCodeFieldsObject.extend({ id: idSchema('QR code ID') }).superRefine(refineCode);
export const qrCodeIdSchema = z.object({ id: idSchema('QR code ID') });
export type QrCodeFields = z.output<typeof createQrCodeSchema>;
