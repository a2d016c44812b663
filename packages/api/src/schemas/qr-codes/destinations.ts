import { z } from 'zod';

// Where a code leads: with the church's UTM parameters, and by date when it has a schedule.

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

/** One source of destinations the picker offers (the church's landing pages, its Show Up projects). */
export const qrDestinationSourceSchema = z.object({
  group: z.string(),
  options: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type QrDestinationSource = z.infer<typeof qrDestinationSourceSchema>;
