import { randomInt } from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { badRequest } from '../../errors.js';

/**
 * Security codes: 4 characters from an alphabet without look-alikes (no 0/O, no 1/I), unique among
 * the church's codes of the day not yet released (`checkin_codes_unreleased_key`). A code is
 * released when its family's children are all picked up, and may then be given again. When a day's
 * 4-character codes run short (a draw keeps hitting codes in use), codes grow a character.
 */
export const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CODE_LENGTH = 4;
const TRIES_PER_LENGTH = 12;
const MAX_LENGTH = 8;

export interface CodeOptions {
  alphabet?: string;
  length?: number;
}

function draw(alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

/**
 * A new code for the day in state `state` (a family's `active` code, or one `reserved` for a
 * station's offline use), inserted in `trx`: a draw already held is drawn again, in a savepoint so
 * the transaction goes on. Returns the code's row id and text.
 */
export async function allocateCode(
  trx: Db,
  tenantId: number,
  opts: { day: string; state: 'active' | 'reserved'; stationId?: number | null } & CodeOptions,
): Promise<{ id: number; code: string }> {
  const alphabet = opts.alphabet ?? CODE_ALPHABET;
  for (let length = opts.length ?? CODE_LENGTH; length <= MAX_LENGTH; length++) {
    for (let attempt = 0; attempt < TRIES_PER_LENGTH; attempt++) {
      const code = draw(alphabet, length);
      const row = await sql<{ id: number }>`
        insert into checkin_codes (user_id, day, code, state, station_id)
        values (${tenantId}, ${opts.day}, ${code}, ${opts.state}, ${opts.stationId ?? null})
        on conflict (user_id, day, code) where state <> 'released' do nothing
        returning id`.execute(trx);
      if (row.rows[0]) return { id: row.rows[0].id, code };
    }
  }
  throw badRequest('No security code is free today: pick up some children first');
}

/** A station's reserved code, now its family's: null when the code is not this station's reserved one today. */
export async function claimReservedCode(
  trx: Db,
  tenantId: number,
  opts: { day: string; code: string; stationId: number },
): Promise<{ id: number; code: string } | null> {
  const row = await trx
    .updateTable('checkinCodes')
    .set({ state: 'active' })
    .where('userId', '=', tenantId)
    .where('day', '=', opts.day)
    .where('code', '=', opts.code)
    .where('state', '=', 'reserved')
    .where('stationId', '=', opts.stationId)
    .returning(['id', 'code'])
    .executeTakeFirst();
  return row ?? null;
}

/** Reserve codes for a station's offline use, up to `size` unused ones in all today. */
export async function reserveCodeBlock(
  trx: Db,
  tenantId: number,
  opts: { day: string; stationId: number; size: number },
): Promise<string[]> {
  const held = await trx
    .selectFrom('checkinCodes')
    .select('code')
    .where('userId', '=', tenantId)
    .where('day', '=', opts.day)
    .where('stationId', '=', opts.stationId)
    .where('state', '=', 'reserved')
    .orderBy('id')
    .execute();
  const codes = held.map((h) => h.code);
  while (codes.length < opts.size) {
    codes.push(
      (await allocateCode(trx, tenantId, { day: opts.day, state: 'reserved', stationId: opts.stationId })).code,
    );
  }
  return codes;
}

/** Release a code whose children are all picked up (it may be given again). */
export async function releaseCodeIfDone(trx: Db, tenantId: number, codeId: number, at: Date): Promise<void> {
  await sql`
    update checkin_codes set state = 'released', released_at = ${at}
    where id = ${codeId} and user_id = ${tenantId} and state = 'active'
      and not exists (select 1 from checkins where code_id = ${codeId} and checked_out_at is null)`.execute(trx);
}
