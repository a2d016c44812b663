// A code's sizes, error correction and capacity, and the limits the dialog shows.

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

/** Scanners need at least this contrast between the dark and the light modules. */
export const QR_MIN_CONTRAST = 3;
export const QR_MAX_SCHEDULE = 20;
