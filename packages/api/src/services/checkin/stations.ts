import { createHash, randomBytes, randomInt } from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { createStationSchema, stationSchema } from '../../schemas/checkin/setup.js';
import { badRequest, notFound, tooManyRequests } from '../../errors.js';
import { releaseAttempt, takeAttempt } from '../rate-limit/buckets.js';
import { assertChurchRow } from '../church-rows.js';
import { CODE_ALPHABET } from './codes.js';
import type { StationCredential } from './scope.js';

/**
 * Stations: a browser paired once by staff. Staff create a station (or re-pair one) and get a
 * one-time pairing code (8 characters, 15 minutes); the station's browser redeems it and receives
 * its token, sent back as an httpOnly cookie (`STATION_COOKIE`). Only hashes are stored. Unpairing
 * forgets the token: the cookie stops working at once.
 */
export const STATION_COOKIE = 'lampstand.station';
export const PAIRING_MINUTES = 15;
const PAIRING_LENGTH = 8;

const hash = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

type StationRow = {
  id: number;
  name: string;
  kind: 'self' | 'manned' | 'room';
  roomId: number | null;
  printer: 'pdf' | 'bridge';
  printerBridgeUrl: string | null;
  labelSize: '2.25x1.25' | '4x2';
  tokenHash: string | null;
  pairedAt: Date | null;
  lastSeenAt: Date | null;
};
const COLUMNS = [
  'id',
  'name',
  'kind',
  'roomId',
  'printer',
  'printerBridgeUrl',
  'labelSize',
  'tokenHash',
  'pairedAt',
  'lastSeenAt',
] as const;

function toStation(r: StationRow): z.input<typeof stationSchema> {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    roomId: r.roomId,
    printer: r.printer,
    printerBridgeUrl: r.printerBridgeUrl,
    labelSize: r.labelSize,
    paired: r.tokenHash !== null,
    pairedAt: r.pairedAt,
    lastSeenAt: r.lastSeenAt,
  };
}

export async function listStations(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('checkinStations')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toStation);
}

function newPairingCode(): { code: string; expiresAt: Date } {
  let code = '';
  for (let i = 0; i < PAIRING_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return { code, expiresAt: new Date(Date.now() + PAIRING_MINUTES * 60_000) };
}

/** A new station with its one-time pairing code. */
export async function createStation(
  db: Db,
  tenantId: number,
  input: z.output<typeof createStationSchema> & { pairedBy: number },
) {
  if (input.roomId !== null)
    await assertChurchRow(db, tenantId, { table: 'checkinRooms', id: input.roomId, missing: 'Room not found' });
  const { code, expiresAt } = newPairingCode();
  const row = await db
    .insertInto('checkinStations')
    .values({
      userId: tenantId,
      name: input.name,
      kind: input.kind,
      roomId: input.roomId,
      printer: input.printer,
      printerBridgeUrl: input.printerBridgeUrl,
      printerBridgeSecret: input.printerBridgeSecret,
      labelSize: input.labelSize,
      pairingCodeHash: hash(code),
      pairingExpiresAt: expiresAt,
      pairedBy: input.pairedBy,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { station: toStation(row), pairingCode: code, expiresAt };
}

/** A new pairing code for a station (its old token stops working once the new code is redeemed). */
export async function pairStationAgain(db: Db, tenantId: number, input: { id: number; pairedBy: number }) {
  const { code, expiresAt } = newPairingCode();
  const row = await db
    .updateTable('checkinStations')
    .set({ pairingCodeHash: hash(code), pairingExpiresAt: expiresAt, pairedBy: input.pairedBy })
    .where('userId', '=', tenantId)
    .where('id', '=', input.id)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Station not found');
  return { station: toStation(row), pairingCode: code, expiresAt };
}

/** Unpair: the station's cookie and any pending code stop working. */
export async function unpairStation(db: Db, tenantId: number, id: number) {
  const row = await db
    .updateTable('checkinStations')
    .set({ tokenHash: null, pairingCodeHash: null, pairingExpiresAt: null, pairedAt: null })
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('Station not found');
  return toStation(row);
}

export async function deleteStation(db: Db, tenantId: number, id: number) {
  const row = await db
    .deleteFrom('checkinStations')
    .where('userId', '=', tenantId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Station not found');
  return { id: row.id };
}

const TOO_MANY_PAIRINGS = 'Too many wrong pairing codes. Please wait a few minutes, then enter the code again.';
/** Wrong codes from one address: 10 in 15 minutes. */
const PAIRING_PER_ADDRESS = { limit: 10, windowSeconds: 15 * 60 };
/** Wrong codes from every address together (a code names no church until it is found). */
const PAIRING_OVERALL = { limit: 200, windowSeconds: 15 * 60 };

/**
 * Redeem a pairing code (any church's: the code finds its station, so `db` is the system handle):
 * the station's new token, shown once. A wrong or expired code is one worded error. Attempts are
 * counted before the code is looked up, per address and overall (the rate-limit buckets), and a
 * right code gives its attempts back: only wrong codes use up the allowance.
 */
export async function redeemPairingCode(db: Db, input: { code: string; ip: string }, now = new Date()) {
  const addressKey = `checkin-pair:${input.ip}`;
  const overallKey = 'checkin-pair:all';
  const byAddress = await takeAttempt(db, addressKey, PAIRING_PER_ADDRESS);
  if (!byAddress.allowed) throw tooManyRequests(TOO_MANY_PAIRINGS, byAddress.retryAfterSeconds);
  const overall = await takeAttempt(db, overallKey, PAIRING_OVERALL);
  if (!overall.allowed) {
    await releaseAttempt(db, addressKey);
    throw tooManyRequests(TOO_MANY_PAIRINGS, overall.retryAfterSeconds);
  }
  const paired = await pairWithCode(db, input.code, now);
  await releaseAttempt(db, addressKey);
  await releaseAttempt(db, overallKey);
  return paired;
}

async function pairWithCode(db: Db, code: string, now: Date) {
  const token = randomBytes(32).toString('base64url');
  const row = await db
    .updateTable('checkinStations')
    .set({ tokenHash: hash(token), pairingCodeHash: null, pairingExpiresAt: null, pairedAt: now, lastSeenAt: now })
    .where('pairingCodeHash', '=', hash(code))
    .where('pairingExpiresAt', '>', now)
    .returning([...COLUMNS, 'userId'])
    .executeTakeFirst();
  if (!row) throw badRequest('That pairing code is not right, or it has expired: ask staff for a new one', 'code');
  return { station: toStation(row), token, tenantId: row.userId };
}

/** The station a cookie's token names (system handle: the church is not known yet), or null. */
export async function resolveStation(db: Db, token: string | undefined): Promise<StationCredential | null> {
  if (!token || token.length > 100) return null;
  const row = await db
    .selectFrom('checkinStations')
    .select(['id', 'userId', 'name', 'kind', 'roomId', 'lastSeenAt'])
    .where('tokenHash', '=', hash(token))
    .executeTakeFirst();
  if (!row) return null;
  // Seen: written at most once a minute per station.
  if (!row.lastSeenAt || Date.now() - row.lastSeenAt.getTime() > 60_000)
    await sql`update checkin_stations set last_seen_at = now() where id = ${row.id}`.execute(db);
  return { id: row.id, userId: row.userId, name: row.name, kind: row.kind, roomId: row.roomId };
}

/** What a station knows of itself. */
export async function stationSelf(db: Db, tenantId: number, stationId: number) {
  const row = await db
    .selectFrom('checkinStations as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select([...COLUMNS.map((c) => `s.${c}` as const), 's.printerBridgeSecret', 'u.churchName'])
    .where('s.userId', '=', tenantId)
    .where('s.id', '=', stationId)
    .executeTakeFirst();
  if (!row) throw notFound('Station not found');
  return { ...toStation(row), printerBridgeSecret: row.printerBridgeSecret, churchName: row.churchName ?? '' };
}
