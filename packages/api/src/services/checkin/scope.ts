import type { Db } from '@lampstand/db';
import { churchLocaleOf } from '../settings/church-settings.js';
import { localDate } from '../journeys/time.js';
import { forbidden } from '../../errors.js';

/** A paired station, as its cookie names it (services/checkin/stations.ts). */
export interface StationCredential {
  id: number;
  userId: number;
  name: string;
  kind: 'self' | 'manned' | 'room';
  roomId: number | null;
}

/**
 * Who calls a check-in service: the church, and either a signed-in account (`userId`, staff) or a
 * paired station (`station`). `now` is the instant the call reasons about (tests pass their own).
 */
export interface CheckinScope {
  tenantId: number;
  station: StationCredential | null;
  userId: number | null;
  now: Date;
}

/** The church's date today, in its time zone ('YYYY-MM-DD'). */
export async function churchToday(db: Db, scope: CheckinScope): Promise<string> {
  const { timeZone } = await churchLocaleOf(db, scope.tenantId);
  return localDate(scope.now, timeZone);
}

/**
 * The day a call may read: a station only today's (it never sees more than today's check-in data),
 * staff any day (today when none is given).
 */
export async function dayFor(db: Db, scope: CheckinScope, asked: string | undefined): Promise<string> {
  const today = await churchToday(db, scope);
  if (scope.station && asked !== undefined && asked !== today) {
    throw forbidden('A station sees only today’s check-ins');
  }
  return asked ?? today;
}

/** Staff only (a signed-in account, not a station). */
export function assertStaff(scope: CheckinScope, what = 'Only staff can do this'): void {
  if (scope.station) throw forbidden(what);
}

/** Run `fn` in a transaction: `db`'s own when it already is one (an offline batch's action), else a new one. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
