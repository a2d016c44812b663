import type { Selectable } from 'kysely';
import type { Db, QrCodesTable } from '@lampstand/db';
import { qrDestinationWithUtm } from '../../shared/qr-codes.js';
import type { LogoFetchOptions } from './logo.js';
import { findChurchRow } from '../church-rows.js';

// What a QR code's short link and its image both read (the settings, the link a code holds, its
// row), apart from qr-codes.ts so that short-links.ts and images.ts, which qr-codes.ts calls, need
// not import it back.

type Row = Selectable<QrCodesTable>;

/** QR settings from the server's configuration. */
export interface QrSettings {
  /** Where the app is reached (our own landing pages and Show Up projects live here). */
  publicUrl: string;
  /** The branded short domain of `/s/{code}` links (default: publicUrl). */
  shortUrlBase: string;
  logo: LogoFetchOptions;
}

export const SHORT_CODE_PATTERN = /^[23456789abcdefghjkmnpqrstuvwxyz]{7,16}$/;

interface Utm {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
}

/**
 * The destination with the church's UTM parameters and, when it is one of our own pages (the
 * PUBLIC_URL origin), the first-party attribution `lsrc=qr.<id>` (printed code) or `lsrc=link.<id>`
 * (shared short link).
 */
export function decorateDestination(
  url: string,
  o: { utm: Utm; publicUrl: string; qrCodeId: number; source: 'qr' | 'link' },
): string {
  let u: URL;
  try {
    u = new URL(qrDestinationWithUtm(url, o.utm));
  } catch {
    return url;
  }
  let own = false;
  try {
    own = new URL(o.publicUrl).origin === u.origin;
  } catch {
    own = false;
  }
  if (own) u.searchParams.set('lsrc', `${o.source}.${o.qrCodeId}`);
  return u.toString();
}

export function shortUrlOf(settings: QrSettings, code: string): string {
  return `${settings.shortUrlBase.replace(/\/$/, '')}/s/${code}`;
}

/** What the printed code holds: the short link marked as a scan, or the decorated URL itself. */
export function encodedUrlOf(
  row: Pick<Row, 'id' | 'url' | 'isShortUrl' | 'shortCode' | 'utmSource' | 'utmMedium' | 'utmCampaign'>,
  settings: QrSettings,
): string {
  if (row.isShortUrl && row.shortCode) return `${shortUrlOf(settings, row.shortCode)}?src=qr`;
  return decorateDestination(row.url, { utm: row, publicUrl: settings.publicUrl, qrCodeId: row.id, source: 'qr' });
}

export async function findQrCodeRow(db: Db, tenantId: number, { id }: { id: number }): Promise<Row> {
  const row = await findChurchRow(db, tenantId, { table: 'qrCodes', id: id, missing: 'QR code not found' });
  return row;
}
