import { z } from 'zod';
import {
  boundedArray,
  idSchema,
  isCleanText,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  urlSchema,
} from './common.js';

// Zod and pure functions only: the QR dialog validates and checks contrast with this same code.

export const QR_SIZE = { min: 100, max: 1000, step: 10, default: 300 } as const;
export const QR_MARGIN = { min: 0, max: 20, default: 4 } as const;
export const QR_ERROR_CORRECTION = ['L', 'M', 'Q', 'H'] as const;
export type QrErrorCorrectionLevel = (typeof QR_ERROR_CORRECTION)[number];
/** How much of the code can be damaged (or covered by a logo) and still read. */
export const QR_ERROR_CORRECTION_LABELS: Record<QrErrorCorrectionLevel, string> = {
  L: 'L (7%)',
  M: 'M (15%)',
  Q: 'Q (25%)',
  H: 'H (30%)',
};
/**
 * The most bytes a QR code holds at each error-correction level (version 40, byte mode; the
 * `qrcode` package agrees: schemas/qr-codes.test.ts). A URL is ASCII, a byte a character.
 */
export const QR_BYTE_CAPACITY: Record<QrErrorCorrectionLevel, number> = { L: 2953, M: 2331, Q: 1663, H: 1273 };

/** A logo covers part of the code, so it is always drawn at H. */
export const qrDrawnLevel = (level: QrErrorCorrectionLevel, hasLogo: boolean): QrErrorCorrectionLevel =>
  hasLogo ? 'H' : level;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/** The message when `label` will not fit a code at `level`; null when it fits. */
export function qrCapacityProblem(label: string, data: string, level: QrErrorCorrectionLevel): string | null {
  const max = QR_BYTE_CAPACITY[level];
  if (utf8Length(data) <= max) return null;
  return `${label} is too long for a QR code at error correction ${level} (at most ${max.toLocaleString('en-US')} characters)`;
}

/**
 * The URL a code without a short link holds: the destination with the church's UTM parameters
 * (services/qr-codes decorateDestination adds them the same way; for the app's own pages it also
 * adds a short `lsrc` mark, which the service checks).
 */
export function qrDestinationWithUtm(
  url: string,
  utm: { utmSource?: string | null; utmMedium?: string | null; utmCampaign?: string | null },
): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (utm.utmSource) u.searchParams.set('utm_source', utm.utmSource);
  if (utm.utmMedium) u.searchParams.set('utm_medium', utm.utmMedium);
  if (utm.utmCampaign) u.searchParams.set('utm_campaign', utm.utmCampaign);
  return u.toString();
}

/** Scanners need at least this contrast between the dark and the light modules. */
export const QR_MIN_CONTRAST = 3;
export const QR_MAX_SCHEDULE = 20;

const HEX = /^#?([0-9a-fA-F]{6})$/;

/** '#1a2b3c', '1A2B3C' -> '#1A2B3C'; anything else -> null. */
export function normalizeHex(value: string): string | null {
  const m = HEX.exec(value.trim());
  return m ? `#${m[1]!.toUpperCase()}` : null;
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of '#RRGGBB' (0 black .. 1 white). */
function relativeLuminance(hex: string): number {
  const h = normalizeHex(hex) ?? '#000000';
  const n = parseInt(h.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** WCAG contrast ratio of two colours, 1 .. 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface QrColourCheck {
  field: 'foregroundColor' | 'cornerSquareColor' | 'cornerDotColor';
  message: string;
  /** True when only a confirmation is missing (light modules on a dark background). */
  needsConfirmation: boolean;
}

const LABELS = {
  foregroundColor: 'foreground',
  cornerSquareColor: 'corner square',
  cornerDotColor: 'corner dot',
} as const;

const LIGHT_ON_DARK_MESSAGE =
  'Light modules on a dark background do not scan on every phone. Tick "Use light on dark anyway" to keep these colors.';

/**
 * The contrast rule: every dark part (modules, corner squares, corner dots) needs a contrast of at
 * least 3:1 with the background, and light modules on a dark background need a confirmation.
 * Returns the first problem, or null.
 */
export function checkQrColours(c: {
  foregroundColor: string;
  backgroundColor: string;
  cornerSquareColor?: string | null;
  cornerDotColor?: string | null;
  lightOnDarkConfirmed?: boolean;
}): QrColourCheck | null {
  const parts = [
    ['foregroundColor', c.foregroundColor],
    ['cornerSquareColor', c.cornerSquareColor ?? c.foregroundColor],
    ['cornerDotColor', c.cornerDotColor ?? c.cornerSquareColor ?? c.foregroundColor],
  ] as const;
  for (const [field, colour] of parts) {
    const ratio = contrastRatio(colour, c.backgroundColor);
    if (ratio < QR_MIN_CONTRAST) {
      return {
        field,
        needsConfirmation: false,
        message: `The ${LABELS[field]} and background colors are too close for scanners to read (contrast ${
          Math.floor(ratio * 10) / 10
        }:1, at least 3:1 needed)`,
      };
    }
  }
  for (const [field, colour] of parts) {
    if (relativeLuminance(colour) > relativeLuminance(c.backgroundColor) && !c.lightOnDarkConfirmed) {
      return { field, needsConfirmation: true, message: LIGHT_ON_DARK_MESSAGE };
    }
  }
  return null;
}

const hexColour = (label: string) =>
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

const optionalHexColour = (label: string) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), hexColour(label).nullable());

const sizeSchema = z.coerce
  .number({ error: 'Size must be a number' })
  .int('Size must be a whole number')
  .min(QR_SIZE.min, `Size must be between ${QR_SIZE.min} and ${QR_SIZE.max}`)
  .max(QR_SIZE.max, `Size must be between ${QR_SIZE.min} and ${QR_SIZE.max}`);

const marginSchema = z.coerce
  .number({ error: 'Margin must be a number' })
  .int('Margin must be a whole number')
  .min(QR_MARGIN.min, `Margin must be between ${QR_MARGIN.min} and ${QR_MARGIN.max}`)
  .max(QR_MARGIN.max, `Margin must be between ${QR_MARGIN.min} and ${QR_MARGIN.max}`);

const errorCorrectionSchema = z.enum(QR_ERROR_CORRECTION, { error: 'Error correction must be L, M, Q or H' });

/** A logo URL or empty (null out). */
const logoUrlSchema = z.preprocess(
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
  foregroundColor: hexColour('Foreground color').default('#000000'),
  backgroundColor: hexColour('Background color').default('#FFFFFF'),
  cornerSquareColor: optionalHexColour('Corner square color').optional(),
  cornerDotColor: optionalHexColour('Corner dot color').optional(),
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
  schedule: boundedArray(qrScheduleEntrySchema, 'Scheduled destinations', QR_MAX_SCHEDULE).default([]),
});

function refineColours(
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

/** GET /api/qr-codes/preview: colours as hex without # (as the spec), or with. */
export const qrPreviewSchema = z
  .object({
    data: requiredTextSchema('Data', 2048, 'Data is required'),
    foregroundColor: hexColour('Foreground color').default('#000000'),
    backgroundColor: hexColour('Background color').default('#FFFFFF'),
    cornerSquareColor: optionalHexColour('Corner square color').optional(),
    cornerDotColor: optionalHexColour('Corner dot color').optional(),
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

export const qrCodeSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  url: z.string().describe('The destination when no scheduled destination applies'),
  isShortUrl: z.boolean(),
  shortCode: z.string().nullable(),
  shortUrl: z.string().nullable().describe('The short link people share (null unless isShortUrl)'),
  encodedUrl: z.string().describe('What the printed code holds'),
  currentUrl: z.string().describe('Where a scan goes now (the schedule applied)'),
  nextChange: z
    .object({ at: z.string(), url: z.string() })
    .nullable()
    .describe('The next scheduled change of destination'),
  foregroundColor: z.string(),
  backgroundColor: z.string(),
  cornerSquareColor: z.string().nullable(),
  cornerDotColor: z.string().nullable(),
  size: z.number().int(),
  errorCorrection: z.enum(QR_ERROR_CORRECTION),
  margin: z.number().int(),
  logoUrl: z.string().nullable(),
  logoUploadId: z.number().int().nullable(),
  logoUpload: z
    .object({ id: z.number().int(), url: z.string(), thumbnailUrl: z.string() })
    .nullable()
    .describe('The uploaded logo (logoUploadId), used before logoUrl'),
  lightOnDarkConfirmed: z.boolean(),
  design: z.record(z.string(), z.unknown()),
  utmSource: z.string().nullable(),
  utmMedium: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  schedule: z.array(z.object({ url: z.string(), startsAt: z.string().nullable(), endsAt: z.string().nullable() })),
  scans: z.number().int(),
  imageUrl: z.string(),
  downloadUrl: z.string(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type QrCode = z.infer<typeof qrCodeSchema>;

export const qrScanStatsSchema = z.object({
  id: z.number().int(),
  total: z.number().int(),
  days: z.array(z.object({ date: z.string(), scans: z.number().int(), qr: z.number().int(), link: z.number().int() })),
  devices: z.object({
    mobile: z.number().int(),
    tablet: z.number().int(),
    desktop: z.number().int(),
    other: z.number().int(),
  }),
  referrers: z.array(z.object({ host: z.string(), scans: z.number().int() })),
});
export type QrScanStats = z.infer<typeof qrScanStatsSchema>;

/** A dated destination in force at `now`, else the code's own URL. */
export function destinationAt(
  code: { url: string; schedule: { url: string; startsAt: string | null; endsAt: string | null }[] },
  now: Date,
): string {
  const t = now.getTime();
  for (const s of code.schedule) {
    const from = s.startsAt ? new Date(s.startsAt).getTime() : -Infinity;
    const to = s.endsAt ? new Date(s.endsAt).getTime() : Infinity;
    if (t >= from && t < to) return s.url;
  }
  return code.url;
}

/** The next instant after `now` at which the destination changes, and the destination then. */
export function nextDestinationChange(
  code: { url: string; schedule: { url: string; startsAt: string | null; endsAt: string | null }[] },
  now: Date,
): { at: string; url: string } | null {
  const current = destinationAt(code, now);
  const boundaries = code.schedule
    .flatMap((s) => [s.startsAt, s.endsAt])
    .filter((b): b is string => !!b)
    .map((b) => new Date(b).getTime())
    .filter((b) => b > now.getTime())
    .sort((a, b) => a - b);
  for (const b of boundaries) {
    const url = destinationAt(code, new Date(b));
    if (url !== current) return { at: new Date(b).toISOString(), url };
  }
  return null;
}

/** One source of destinations the picker offers (the church's landing pages, its Show Up projects). */
export const qrDestinationSourceSchema = z.object({
  group: z.string(),
  options: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type QrDestinationSource = z.infer<typeof qrDestinationSourceSchema>;
