import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { Selectable } from 'kysely';
import { sql, type Db, type QrCodesTable } from '@lampstand/db';
import { isUniqueViolation, notFound } from '../../errors.js';
import { type qrCodeSchema, type QrCodeFields, type QrScanStats } from '../../schemas/qr-codes.js';
import { destinationAt, nextDestinationChange } from '../../shared/qr-codes.js';
import type { FileStorage } from '../../providers/storage.js';
import { invalidateShortLink } from './short-links.js';
import { checkRenderable } from './images.js';
import { encodedUrlOf, findQrCodeRow, shortUrlOf, type QrSettings } from './qr-settings.js';

type Row = Selectable<QrCodesTable>;

/** An unambiguous alphabet: no 0/o, 1/l/i. */
const SHORT_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const SHORT_CODE_LENGTH = 7;

function newShortCode(): string {
  let s = '';
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) s += SHORT_ALPHABET[randomInt(SHORT_ALPHABET.length)];
  return s;
}

type LogoUploads = Map<number, { id: number; url: string; thumbnailUrl: string }>;

/** The uploaded logos of these codes (the church's own uploads only). */
async function logoUploadsOf(db: Db, tenantId: number, rows: Row[]): Promise<LogoUploads> {
  const ids = [...new Set(rows.map((r) => r.logoUploadId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const uploads = await db
    .selectFrom('uploads')
    .select(['id', 'url', 'thumbnailUrl'])
    .where('userId', '=', tenantId)
    .where('id', 'in', ids)
    .execute();
  return new Map(uploads.map((u) => [u.id, u]));
}

function toQrCode(r: Row, settings: QrSettings, now: Date, uploads: LogoUploads): z.input<typeof qrCodeSchema> {
  const schedule = r.schedule ?? [];
  const code = { url: r.url, schedule };
  return {
    id: r.id,
    userId: r.userId,
    name: r.name,
    url: r.url,
    isShortUrl: r.isShortUrl,
    shortCode: r.shortCode,
    shortUrl: r.isShortUrl && r.shortCode ? shortUrlOf(settings, r.shortCode) : null,
    encodedUrl: encodedUrlOf(r, settings),
    currentUrl: r.isShortUrl ? destinationAt(code, now) : r.url,
    nextChange: r.isShortUrl ? nextDestinationChange(code, now) : null,
    foregroundColor: r.foregroundColor,
    backgroundColor: r.backgroundColor,
    cornerSquareColor: r.cornerSquareColor,
    cornerDotColor: r.cornerDotColor,
    size: r.size,
    errorCorrection: r.errorCorrection,
    margin: r.margin,
    logoUrl: r.logoUrl,
    logoUploadId: r.logoUploadId,
    logoUpload: (r.logoUploadId && uploads.get(r.logoUploadId)) || null,
    lightOnDarkConfirmed: r.lightOnDarkConfirmed,
    design: r.design ?? {},
    utmSource: r.utmSource,
    utmMedium: r.utmMedium,
    utmCampaign: r.utmCampaign,
    schedule,
    scans: r.scans,
    imageUrl: `/api/qr-codes/${r.id}/image`,
    downloadUrl: `/api/qr-codes/${r.id}/download`,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export interface QrDeps {
  db: Db;
  settings: QrSettings;
  storage: FileStorage;
  now: () => Date;
}

export async function listQrCodes(deps: QrDeps, tenantId: number): Promise<z.input<typeof qrCodeSchema>[]> {
  const rows = await deps.db
    .selectFrom('qrCodes')
    .selectAll()
    .where('userId', '=', tenantId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const now = deps.now();
  const uploads = await logoUploadsOf(deps.db, tenantId, rows);
  return rows.map((r) => toQrCode(r, deps.settings, now, uploads));
}

export async function getQrCode(
  deps: QrDeps,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof qrCodeSchema>> {
  const row = await findQrCodeRow(deps.db, tenantId, { id });
  return toQrCode(row, deps.settings, deps.now(), await logoUploadsOf(deps.db, tenantId, [row]));
}

function values(input: QrCodeFields) {
  return {
    name: input.name,
    url: input.url,
    isShortUrl: input.isShortUrl,
    foregroundColor: input.foregroundColor,
    backgroundColor: input.backgroundColor,
    cornerSquareColor: input.cornerSquareColor ?? null,
    cornerDotColor: input.cornerDotColor ?? null,
    size: input.size,
    errorCorrection: input.errorCorrection,
    margin: input.margin,
    logoUrl: input.logoUrl ?? null,
    logoUploadId: input.logoUploadId ?? null,
    lightOnDarkConfirmed: input.lightOnDarkConfirmed,
    design: JSON.stringify(input.design ?? {}),
    utmSource: input.utmSource ?? null,
    utmMedium: input.utmMedium ?? null,
    utmCampaign: input.utmCampaign ?? null,
    schedule: JSON.stringify(input.schedule),
  };
}

/** The code must draw at its size with its logo (a bad logo or a too-small size is a 400 now, not later). */
async function assertRenderable(deps: QrDeps, tenantId: number, input: QrCodeFields, sampleData: string) {
  await checkRenderable(deps, tenantId, {
    data: sampleData,
    size: input.size,
    margin: input.margin,
    errorCorrection: input.errorCorrection,
    foregroundColor: input.foregroundColor,
    backgroundColor: input.backgroundColor,
    cornerSquareColor: input.cornerSquareColor ?? null,
    cornerDotColor: input.cornerDotColor ?? null,
    logoUrl: input.logoUrl ?? null,
    logoUploadId: input.logoUploadId ?? null,
  });
}

/** The longest data the code may hold once saved (the id is not known yet: a 10-digit one stands in). */
function sampleEncoded(input: QrCodeFields, settings: QrSettings, shortCode: string | null): string {
  return encodedUrlOf(
    {
      id: 2_147_483_647,
      url: input.url,
      isShortUrl: input.isShortUrl,
      shortCode: shortCode ?? 'x'.repeat(SHORT_CODE_LENGTH),
      utmSource: input.utmSource ?? null,
      utmMedium: input.utmMedium ?? null,
      utmCampaign: input.utmCampaign ?? null,
    },
    settings,
  );
}

export async function createQrCode(
  deps: QrDeps,
  tenantId: number,
  { input }: { input: QrCodeFields },
): Promise<z.input<typeof qrCodeSchema>> {
  const v = values(input);
  await assertRenderable(deps, tenantId, input, sampleEncoded(input, deps.settings, null));
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await deps.db
        .insertInto('qrCodes')
        .values({ userId: tenantId, ...v, shortCode: input.isShortUrl ? newShortCode() : null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toQrCode(row, deps.settings, deps.now(), await logoUploadsOf(deps.db, tenantId, [row]));
    } catch (err) {
      if (attempt < 5 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

export async function updateQrCode(
  deps: QrDeps,
  tenantId: number,
  { id, input }: { id: number; input: QrCodeFields },
): Promise<z.input<typeof qrCodeSchema>> {
  const v = values(input);
  const existing = await findQrCodeRow(deps.db, tenantId, { id });
  await assertRenderable(deps, tenantId, input, sampleEncoded(input, deps.settings, existing.shortCode));
  for (let attempt = 0; ; attempt++) {
    try {
      // A short code, once issued, stays: switching the short link off and on keeps printed codes working.
      const row = await deps.db
        .updateTable('qrCodes')
        .set({
          ...v,
          shortCode: existing.shortCode ?? (input.isShortUrl ? newShortCode() : null),
          updatedAt: new Date(),
        })
        .where('id', '=', id)
        .where('userId', '=', tenantId)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('QR code not found');
      if (row.shortCode) invalidateShortLink(row.shortCode);
      return toQrCode(row, deps.settings, deps.now(), await logoUploadsOf(deps.db, tenantId, [row]));
    } catch (err) {
      if (attempt < 5 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

export async function deleteQrCode(db: Db, tenantId: number, { id }: { id: number }): Promise<{ id: number }> {
  const row = await db
    .deleteFrom('qrCodes')
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returning(['id', 'shortCode'])
    .executeTakeFirst();
  if (!row) throw notFound('QR code not found');
  if (row.shortCode) invalidateShortLink(row.shortCode);
  return { id: row.id };
}

const DAY_MS = 86_400_000;

/** Scans per day (UTC) over the last 30 days, split into printed-code scans and link clicks. */
export async function qrScanStats(
  deps: { db: Db; now: () => Date },
  tenantId: number,
  { id }: { id: number },
): Promise<QrScanStats> {
  const code = await findQrCodeRow(deps.db, tenantId, { id });
  const today = new Date(deps.now().toISOString().slice(0, 10) + 'T00:00:00Z');
  const since = new Date(today.getTime() - 29 * DAY_MS);
  const rows = await deps.db
    .selectFrom('qrCodeScans')
    .select([
      sql<string>`to_char(scanned_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      'source',
      sql<number>`count(*)::int`.as('n'),
    ])
    .where('qrCodeId', '=', id)
    .where('userId', '=', tenantId)
    .where('scannedAt', '>=', since)
    .groupBy(['day', 'source'])
    .execute();
  const devices = await deps.db
    .selectFrom('qrCodeScans')
    .select(['device', sql<number>`count(*)::int`.as('n')])
    .where('qrCodeId', '=', id)
    .where('userId', '=', tenantId)
    .groupBy('device')
    .execute();
  const referrers = await deps.db
    .selectFrom('qrCodeScans')
    .select(['referrerHost', sql<number>`count(*)::int`.as('n')])
    .where('qrCodeId', '=', id)
    .where('userId', '=', tenantId)
    .where('referrerHost', 'is not', null)
    .groupBy('referrerHost')
    .orderBy('n', 'desc')
    .limit(10)
    .execute();
  const days: QrScanStats['days'] = [];
  for (let i = 0; i < 30; i++) {
    const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const qr = rows.find((r) => r.day === date && r.source === 'qr')?.n ?? 0;
    const link = rows.find((r) => r.day === date && r.source === 'link')?.n ?? 0;
    days.push({ date, scans: qr + link, qr, link });
  }
  const byDevice = { mobile: 0, tablet: 0, desktop: 0, other: 0 };
  for (const d of devices) byDevice[d.device] = d.n;
  return {
    id,
    total: code.scans,
    days,
    devices: byDevice,
    referrers: referrers.map((r) => ({ host: r.referrerHost!, scans: r.n })),
  };
}
