import { z } from 'zod';
import { idSchema } from './common.js';

/** How long an export's download link works once it is ready. */
export const EXPORT_LINK_HOURS = 24;

export const EXPORT_STATUSES = ['queued', 'running', 'ready', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** A second "Export everything" while one is still being made. */
export const EXPORT_ALREADY_RUNNING =
  'An export is already being made. Wait for it to finish (we email you a link), then start another.';
export const EXPORT_NOT_FOUND = 'Export not found';
/** The link's 24 hours are over (or the file was removed). */
export const EXPORT_LINK_EXPIRED = `This download link has expired: links work for ${EXPORT_LINK_HOURS} hours. Start a new export in Settings → Export everything.`;
export const EXPORT_NOT_READY = 'This export is not ready yet. We email you a link when it is.';
export const EXPORT_LINK_INVALID =
  'This download link is not valid. Open the link from the email, or sign in and download from Settings → Export everything.';

export const exportIdSchema = z.strictObject({ id: idSchema('Export ID') });
export const createExportSchema = z.strictObject({}).optional();

export const churchExportSchema = z.object({
  id: z.number(),
  status: z.enum(EXPORT_STATUSES),
  /** 0–100 while it is being made; 100 once ready. */
  progress: z.number(),
  fileSize: z.number().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the download link stops working (24 hours after it was ready). */
  expiresAt: z.string().nullable(),
  /** The download address for a signed-in church (the emailed link also carries its token); null unless ready. */
  downloadUrl: z.string().nullable(),
});
export type ChurchExport = z.infer<typeof churchExportSchema>;

export const churchExportListSchema = z.object({ exports: z.array(churchExportSchema) });
