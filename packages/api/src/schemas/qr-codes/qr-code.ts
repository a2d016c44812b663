import { z } from 'zod';
import { isoTimestamp } from '../common.js';
import { QR_ERROR_CORRECTION } from './limits.js';

// A QR code as the API answers it, and its scans.

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
