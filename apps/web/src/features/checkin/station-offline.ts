import type { z } from 'zod';
import type { offlineBundleOutputSchema, offlineCheckInSchema } from '@lampstand/api/schemas/checkin/offline';
import { isSaveError } from '../../lib/use-save';

/**
 * A station's offline store (IndexedDB): today's bundle (rooms, services, recent families, the codes
 * reserved for this station), the codes it has given, and the check-ins made while the network was
 * down, sent by `POST /api/check-in/sync` when it returns (idempotent by client id).
 */
export type Bundle = z.infer<typeof offlineBundleOutputSchema>;
export type OfflineCheckIn = z.input<typeof offlineCheckInSchema>;

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
export const pending = async () => (await get<OfflineCheckIn[]>('queue')) ?? [];

/** The next code of the station's block that it has not given yet (null: the block is used up). */
export async function takeCode(bundle: Bundle): Promise<string | null> {
  const used = new Set((await get<string[]>(`used:${bundle.date}`)) ?? []);
  const code = bundle.codes.find((c) => !used.has(c)) ?? null;
  if (code) await put(`used:${bundle.date}`, [...used, code]);
  return code;
}

export async function enqueue(action: OfflineCheckIn): Promise<void> {
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

/** Families of the bundle by the last four digits of a phone or a name. */
export function searchBundle(bundle: Bundle, q: { phone?: string; name?: string }): Bundle['families'] {
  if (q.phone) return bundle.families.filter((f) => f.phoneLast4 === q.phone);
  const words = (q.name ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return bundle.families.filter((f) => {
    const text = `${f.name} ${f.children.map((c) => c.name).join(' ')}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
