import type { z } from 'zod';
import type {
  offlineAddFamilySchema,
  offlineBundleOutputSchema,
  offlineCheckInSchema,
  offlineCheckoutSchema,
} from '@lampstand/api/schemas/checkin/offline';
import type { stationSelfSchema } from '@lampstand/api/schemas/checkin/setup';
import { chooseRoom } from '@lampstand/api/shared/checkin-rooms';
import { isSaveError } from '../../lib/use-save';

/**
 * A station's offline store (IndexedDB): the station's own settings, today's bundle (rooms,
 * services, recent families, the codes reserved for this station, the children it may pick up),
 * the codes it has given, and what it did while the network was down (first-time families,
 * check-ins, pickups), sent by `POST /api/check-in/sync` when it returns (idempotent by client id).
 */
export type Bundle = z.infer<typeof offlineBundleOutputSchema>;
export type StationSelf = z.infer<typeof stationSelfSchema>;
/** Kept as the server's schema gave it back on the station (checked before it was queued). */
export type OfflineAddFamily = z.output<typeof offlineAddFamilySchema>;
export type OfflineCheckIn = z.input<typeof offlineCheckInSchema>;
export type OfflineCheckOut = z.input<typeof offlineCheckoutSchema>;
export type OfflineAction = OfflineAddFamily | OfflineCheckIn | OfflineCheckOut;

/** A family as the station's screens show it; one added offline carries its client ids. */
export interface StationFamily {
  id: number;
  name: string;
  phoneLast4: string | null;
  /** Added on this station without the network: not on the server until the queue is sent. */
  clientId?: string;
  children: {
    id: number;
    name: string;
    allergies?: string | null;
    roomId?: number | null;
    checkedIn?: boolean;
    clientId?: string;
  }[];
}

const DB = 'lampstand-station';
const STORE = 'kv';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB unavailable'));
  });
}

async function get<T>(key: string): Promise<T | undefined> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const req = db.transaction(STORE).objectStore(STORE).get(key);
    req.onsuccess = () => resolve(req.result as T | undefined);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB read failed'));
  });
}

async function put(key: string, value: unknown): Promise<void> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(value, key);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

export const saveBundle = (b: Bundle) => put('bundle', b);
export const loadBundle = () => get<Bundle>('bundle');
export const saveStation = (s: StationSelf) => put('station', s);
export const loadStation = () => get<StationSelf>('station');
export const pending = async () => (await get<OfflineAction[]>('queue')) ?? [];

/**
 * Forget everything this browser kept for its station (settings, families, codes): the station was
 * unpaired, or staff signed in here. Anything still unsent is kept, to be sent once it is paired again.
 */
export async function forgetStation(): Promise<void> {
  const db = await open();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const key of ['bundle', 'station']) store.delete(key);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

/** The next code of the station's block that it has not given yet (null: the block is used up). */
export async function takeCode(bundle: Bundle): Promise<string | null> {
  const used = new Set((await get<string[]>(`used:${bundle.date}`)) ?? []);
  const code = bundle.codes.find((c) => !used.has(c)) ?? null;
  if (code) await put(`used:${bundle.date}`, [...used, code]);
  return code;
}

export async function enqueue(action: OfflineAction): Promise<void> {
  await put('queue', [...(await pending()), action]);
}

/** Drops the actions the server has answered (recorded, already recorded, or refused). */
export async function settle(clientIds: string[]): Promise<void> {
  const done = new Set(clientIds);
  await put(
    'queue',
    (await pending()).filter((a) => !done.has(a.clientId)),
  );
}

export const clientId = () => crypto.randomUUID().replace(/-/g, '');

/** A call that never reached the server (no answer at all): the station works offline. */
export function isNetworkFailure(err: unknown): boolean {
  return !isSaveError(err) || !err.data;
}

/** A stable negative id for a row known only by its client id (never a server id). */
function localId(clientId: string): number {
  let h = 0;
  for (const ch of clientId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return -(Math.abs(h) % 2_000_000_000) - 1;
}

/** The first-time families added offline and not yet sent, with their children's rooms chosen as the server would. */
export function localFamilies(bundle: Bundle, queue: OfflineAction[]): StationFamily[] {
  return queue.flatMap((a) => {
    if (a.kind !== 'add_family') return [];
    const digits = a.phone.replace(/\D/g, '');
    return [
      {
        id: localId(a.clientId),
        clientId: a.clientId,
        name: `${a.firstName} ${a.lastName}`.trim(),
        phoneLast4: digits.length >= 4 ? digits.slice(-4) : null,
        children: a.children.map((c) => {
          const child = { dateOfBirth: c.dateOfBirth, grade: c.grade };
          const rooms = bundle.rooms.map((r) => ({ ...r, closedOn: [] }));
          const room = chooseRoom(rooms, child, bundle.date, null);
          return {
            id: localId(c.clientId),
            clientId: c.clientId,
            name: c.name,
            allergies: c.allergies,
            roomId: room?.id ?? null,
          };
        }),
      },
    ];
  });
}

/** Children checked in on this station and not yet sent: shown as checked in offline. */
function queuedChildren(queue: OfflineAction[]): Set<string> {
  const ids = new Set<string>();
  for (const a of queue)
    if (a.kind === 'check_in') for (const c of a.children) ids.add(c.childClientId ?? String(c.childId));
  return ids;
}

/** Families of the bundle (and those added offline) by the last four digits of a phone or a name. */
export function searchBundle(
  bundle: Bundle,
  queue: OfflineAction[],
  q: { phone?: string; name?: string },
): StationFamily[] {
  const here = queuedChildren(queue);
  const kept: StationFamily[] = [...bundle.families, ...localFamilies(bundle, queue)];
  const all = kept.map((f) => ({
    ...f,
    children: f.children.map((c) => ({
      ...c,
      checkedIn: c.checkedIn || here.has(c.clientId ?? String(c.id)),
    })),
  }));
  if (q.phone) return all.filter((f) => f.phoneLast4 === q.phone);
  const words = (q.name ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter((f) => {
    const text = `${f.name} ${f.children.map((c) => c.name).join(' ')}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The family of a scanned card, matched by the SHA-256 of its token (the bundle keeps no tokens). */
export async function familyOfCard(bundle: Bundle, queue: OfflineAction[], token: string): Promise<StationFamily[]> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const card = bundle.cards.find((c) => c.tokenSha256 === hex);
  if (!card) return [];
  const here = queuedChildren(queue);
  return bundle.families
    .filter((f) => f.id === card.familyId)
    .map((f) => ({
      ...f,
      children: f.children.map((c) => ({ ...c, checkedIn: c.checkedIn || here.has(String(c.id)) })),
    }));
}

/** The children a station may pick up offline: the bundle's present ones, less those picked up here and not yet sent. */
export function presentOffline(bundle: Bundle, queue: OfflineAction[]): Bundle['present'] {
  const out = new Set(queue.flatMap((a) => (a.kind === 'check_out' && a.checkinId ? [a.checkinId] : [])));
  return bundle.present.filter((p) => !out.has(p.checkinId));
}
