import crypto from 'node:crypto';
import { getOrCreateSetting, randomSecret, sql, type Db, type VisitSourceKind } from '@lampstand/db';

export interface VisitSource {
  kind: VisitSourceKind;
  value: string | null;
}

const LSRC = /^(qr|link|email|sms)\.([1-9]\d{0,9})$/;

/**
 * Where a visitor came from: our own first-party `lsrc` (`qr.<qrCodeId>`, `link.<qrCodeId>`,
 * `email.<campaignId>`, `sms.<campaignId>`), else `utm_source / utm_medium / utm_campaign`, else
 * the referrer's host (not our own), else direct.
 */
export function visitSource(
  query: Record<string, unknown>,
  referer: string | undefined,
  ownHost: string | undefined,
): VisitSource {
  const str = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : '');
  const lsrc = LSRC.exec(str(query.lsrc).trim());
  if (lsrc) return { kind: lsrc[1] as VisitSourceKind, value: lsrc[2]! };
  const clean = (s: string) =>
    s
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, 100);
  const utm = [str(query.utm_source), str(query.utm_medium), str(query.utm_campaign)].map(clean);
  if (utm.some(Boolean)) return { kind: 'utm', value: utm.filter(Boolean).join(' / ') };
  if (referer) {
    try {
      const host = new URL(referer).hostname.toLowerCase();
      if (host && host !== ownHost?.toLowerCase()) return { kind: 'referrer', value: host.slice(0, 253) };
    } catch {
      // not a URL: direct
    }
  }
  return { kind: 'direct', value: null };
}

export { isCrawler } from '../crawlers.js';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A visitor's id for one day: sha256 of a salt that exists for that day only, the address and
 * the agent. No cookie, no stored address; tomorrow's hash of the same person differs.
 */
export class VisitorHasher {
  private salts = new Map<string, Promise<string>>();
  constructor(private readonly db: Db) {}

  private salt(day: string): Promise<string> {
    let s = this.salts.get(day);
    if (!s) {
      s = getOrCreateSetting(this.db, `visit_salt:${day}`, () => randomSecret());
      s.catch(() => this.salts.delete(day));
      this.salts.set(day, s);
      // Yesterday's salt is kept (late requests); older ones are forgotten here and in the database.
      for (const d of this.salts.keys()) if (d < day && this.salts.size > 2) this.salts.delete(d);
      void this.db
        .deleteFrom('appSettings')
        .where('key', 'like', 'visit\\_salt:%')
        .where('key', '<', `visit_salt:${new Date(Date.now() - 2 * 86400_000).toISOString().slice(0, 10)}`)
        .execute()
        .catch(() => undefined);
    }
    return s;
  }

  async hash(ip: string, userAgent: string | undefined): Promise<{ day: string; hash: string }> {
    const day = today();
    const salt = await this.salt(day);
    const hash = crypto
      .createHash('sha256')
      .update(`${salt}\n${ip}\n${userAgent ?? ''}`)
      .digest('base64url')
      .slice(0, 32);
    return { day, hash };
  }
}

export interface VisitRow {
  userId: number;
  pageId: number;
  day: string;
  visitorHash: string;
  sourceKind: VisitSourceKind;
  sourceValue: string | null;
}

/**
 * Visits are written in batches (every `flushMs` or `maxBatch` rows), off the page's response
 * path; `flush()` on shutdown writes what is left.
 */
export class VisitRecorder {
  private pending: VisitRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: { flushMs?: number; maxBatch?: number; onError?: (err: unknown) => void } = {},
  ) {}

  add(row: VisitRow): void {
    this.pending.push(row);
    if (this.pending.length >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 1000);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    if (rows.length) {
      const write = this.inFlight.then(() =>
        this.db
          .insertInto('landingPageVisits')
          .values(rows)
          .execute()
          .then(() => undefined)
          .catch((err: unknown) => this.opts.onError?.(err)),
      );
      this.inFlight = write;
    }
    await this.inFlight;
  }
}

/** Visits per page in the last `days` days (the QR codes feature counts by source the same way). */
export async function countVisits(
  db: Db,
  tenantId: number,
  input: { days: number; sourceKind?: VisitSourceKind; sourceValue?: string },
): Promise<number> {
  let q = db
    .selectFrom('landingPageVisits')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('userId', '=', tenantId)
    .where('day', '>=', sql<string>`(current_date - ${input.days - 1}::int)`);
  if (input.sourceKind) q = q.where('sourceKind', '=', input.sourceKind);
  if (input.sourceValue) q = q.where('sourceValue', '=', input.sourceValue);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}
