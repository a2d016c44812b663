import { QR_BYTE_CAPACITY, QR_MIN_CONTRAST, type QrErrorCorrectionLevel } from '../schemas/qr-codes/limits.js';

// A code's colours, where it leads (with the church's UTM parameters, and by date when it has a
// schedule) and whether its data fits: the QR dialog checks with this same code.

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
