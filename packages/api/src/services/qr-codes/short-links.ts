import { isCrawler } from '../crawlers.js';
import { sql, type Db, type QrScheduleEntry } from '@lampstand/db';
import { destinationAt, nextDestinationChange } from '../../shared/qr-codes.js';
import { decorateDestination, SHORT_CODE_PATTERN } from './qr-settings.js';

/** What a redirect needs, cached a few seconds per instance (edits here drop it at once). */
interface ShortLink {
  id: number;
  userId: number;
  url: string;
  schedule: QrScheduleEntry[];
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

const TTL_MS = 5_000;
const MAX = 10_000;
interface CachedLink {
  at: number;
  link: ShortLink | null;
  /** Decorated locations by source, valid until `until` (the entry's end or the next scheduled change). */
  locations: { qr?: string; link?: string; until: number };
}
const links = new Map<string, CachedLink>();

/** Drop a cached short link (after an edit or a delete in this process; others expire in 5 s). */
export function invalidateShortLink(code: string): void {
  links.delete(code);
}

async function findShortLink(db: Db, code: string, now: number): Promise<CachedLink | null> {
  if (!SHORT_CODE_PATTERN.test(code)) return null;
  const hit = links.get(code);
  if (hit && now - hit.at < TTL_MS) return hit;
  const row = await db
    .selectFrom('qrCodes')
    .select(['id', 'userId', 'url', 'schedule', 'utmSource', 'utmMedium', 'utmCampaign'])
    .where('shortCode', '=', code)
    .executeTakeFirst();
  const link = row ? { ...row, schedule: row.schedule ?? [] } : null;
  const entry: CachedLink = { at: now, link, locations: { until: 0 } };
  links.set(code, entry);
  while (links.size > MAX) links.delete(links.keys().next().value!);
  return entry;
}

/**
 * Where `/s/{code}` goes now: the schedule applied, the UTM parameters and, on our own origin,
 * the attribution parameter. Null for an unknown code.
 */
export async function resolveShortLink(
  db: Db,
  { code, source, now, publicUrl }: { code: string; source: 'qr' | 'link'; now: Date; publicUrl: string },
): Promise<{ qrCodeId: number; userId: number; location: string } | null> {
  const t = now.getTime();
  const entry = await findShortLink(db, code, t);
  const link = entry?.link;
  if (!entry || !link) return null;
  if (t >= entry.locations.until) {
    const next = nextDestinationChange(link, now);
    entry.locations = { until: Math.min(entry.at + TTL_MS, next ? new Date(next.at).getTime() : Infinity) };
  }
  const location = (entry.locations[source] ??= decorateDestination(destinationAt(link, now), {
    utm: link,
    publicUrl,
    qrCodeId: link.id,
    source,
  }));
  return { qrCodeId: link.id, userId: link.userId, location };
}

/** A crawler, a link preview or a browser prefetch is not a scan; a scan without a user agent counts. */
export function isCrawlerScan(
  userAgent: string | undefined,
  headers: Record<string, string | string[] | undefined> = {},
): boolean {
  return isCrawler(userAgent, headers, { missingAgentIsCrawler: false });
}

/** mobile, tablet, desktop or other, from the user agent. */
export function deviceClass(userAgent: string | undefined): 'mobile' | 'tablet' | 'desktop' | 'other' {
  if (!userAgent) return 'other';
  if (/ipad|tablet|kindle|silk|playbook|(android(?!.*mobile))/i.test(userAgent)) return 'tablet';
  if (/mobi|iphone|ipod|android|blackberry|opera mini|iemobile|windows phone/i.test(userAgent)) return 'mobile';
  if (/windows nt|macintosh|mac os x|x11|linux|cros/i.test(userAgent)) return 'desktop';
  return 'other';
}

/** The host of the Referer header (lower case), or null. */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host ? host.slice(0, 253) : null;
  } catch {
    return null;
  }
}

export interface ScanEvent {
  qrCodeId: number;
  userId: number;
  at: Date;
  source: 'qr' | 'link';
  device: 'mobile' | 'tablet' | 'desktop' | 'other';
  referrerHost: string | null;
}

/**
 * Scans are written after the redirect has answered, in batches: one insert and one counter
 * update per flush (every `flushMs`, or at once when `batchSize` are waiting). `close()` writes
 * what is left.
 */
export class ScanRecorder {
  private pending: ScanEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs: number; batchSize: number; onError: (err: unknown) => void },
  ) {}

  record(scan: ScanEvent): void {
    this.pending.push(scan);
    if (this.pending.length >= this.opts.batchSize) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
  }

  /** Write what is waiting (one flush at a time, in order). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return this.running;
    this.running = this.running.then(() => this.write(batch)).catch(this.opts.onError);
    return this.running;
  }

  private async write(batch: ScanEvent[]): Promise<void> {
    const counts = new Map<number, number>();
    for (const s of batch) counts.set(s.qrCodeId, (counts.get(s.qrCodeId) ?? 0) + 1);
    await this.db.transaction().execute(async (trx) => {
      // A code deleted meanwhile has no row to count against: its scans are dropped with it.
      const live = await trx
        .updateTable('qrCodes')
        .from(
          sql<{ id: number; n: number }>`(select * from unnest(${[...counts.keys()]}::int[], ${[
            ...counts.values(),
          ]}::int[]) as t(id, n))`.as('c'),
        )
        .set({ scans: sql`qr_codes.scans + c.n` })
        .whereRef('qrCodes.id', '=', 'c.id')
        .returning('qrCodes.id')
        .execute();
      const ids = new Set(live.map((r) => r.id));
      const rows = batch.filter((s) => ids.has(s.qrCodeId));
      if (rows.length === 0) return;
      // One statement of six array parameters, however many scans wait.
      await sql`
        insert into qr_code_scans (user_id, qr_code_id, scanned_at, source, device, referrer_host)
        select * from unnest(
          ${rows.map((s) => s.userId)}::int[],
          ${rows.map((s) => s.qrCodeId)}::int[],
          ${rows.map((s) => s.at.toISOString())}::timestamptz[],
          ${rows.map((s) => s.source)}::text[],
          ${rows.map((s) => s.device)}::text[],
          ${rows.map((s) => s.referrerHost)}::text[]
        )`.execute(trx);
    });
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
