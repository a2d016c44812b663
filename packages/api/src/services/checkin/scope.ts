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

/** What each kind of station may do beyond finding families and checking them in. */
type StationAction = 'pick_up' | 'roster' | 'list';
const STATION_MAY: Record<StationCredential['kind'], readonly StationAction[]> = {
  // Parents at a kiosk: never another family's codes or children.
  self: [],
  manned: ['pick_up', 'roster', 'list'],
  // The teacher's screen: its own room only.
  room: ['pick_up', 'roster', 'list'],
};
const ACTION_WORDS: Record<StationAction, string> = {
  pick_up: 'pick children up',
  roster: 'show a room’s roster',
  list: 'list check-ins',
};

/**
 * A station may do `action` (staff always may): a self-service station only checks families in; a
 * room station sees and picks up its own room's children only (`roomId`, when the action is about one).
 */
export function assertStationMay(scope: CheckinScope, action: StationAction, roomId?: number): void {
  const s = scope.station;
  if (!s) return;
  if (!STATION_MAY[s.kind].includes(action))
    throw forbidden(`A ${s.kind === 'self' ? 'self-service' : s.kind} station cannot ${ACTION_WORDS[action]}`);
  if (s.kind === 'room' && roomId !== undefined && roomId !== s.roomId)
    throw forbidden('A room station sees only its own room');
}
