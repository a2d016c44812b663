import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { notFound } from '../../errors.js';
import type { songSchema } from '../../schemas/service-planner.js';
import { deleteChurchRow } from '../church-rows.js';

export interface SongFields {
  title: string;
  artist?: string | null;
  lyrics?: string | null;
  chords?: string | null;
  keySignature?: string | null;
  tempo?: number | null;
  timeSignature?: string | null;
  ccliNumber?: string | null;
  notes?: string | null;
  tags: string[];
  audioUrl?: string | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function songQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('songs as s')
    .select([
      's.id',
      's.title',
      's.artist',
      's.lyrics',
      's.chords',
      's.keySignature',
      's.tempo',
      's.timeSignature',
      's.ccliNumber',
      's.notes',
      's.tags',
      's.audioUrl',
      's.createdAt',
      's.updatedAt',
    ])
    .select((eb) => [
      eb
        .selectFrom('servicePlanSongs as ps')
        .innerJoin('servicePlans as p', 'p.id', 'ps.servicePlanId')
        .select(sql<string | null>`max(p.date)::text`.as('d'))
        .whereRef('ps.songId', '=', 's.id')
        .where('p.userId', '=', tenantId)
        .where('p.date', '<=', sql<string>`current_date`)
        .as('lastUsed'),
      eb
        .selectFrom('servicePlanSongs as ps')
        .innerJoin('servicePlans as p', 'p.id', 'ps.servicePlanId')
        .select(sql<number>`count(distinct p.id)`.as('n'))
        .whereRef('ps.songId', '=', 's.id')
        .where('p.userId', '=', tenantId)
        .where('p.date', '<=', sql<string>`current_date`)
        .where('p.date', '>', sql<string>`current_date - 90`)
        .as('usesLast90Days'),
      eb
        .selectFrom('servicePlanSongs as ps')
        .innerJoin('servicePlans as p', 'p.id', 'ps.servicePlanId')
        .select(sql<string | null>`min(p.date)::text`.as('d'))
        .whereRef('ps.songId', '=', 's.id')
        .where('p.userId', '=', tenantId)
        .where('p.date', '>', sql<string>`current_date`)
        .as('nextPlanned'),
    ])
    .where('s.userId', '=', tenantId);
}

type Row = Awaited<ReturnType<ReturnType<typeof songQuery>['executeTakeFirstOrThrow']>>;

function toSong(r: Row): z.input<typeof songSchema> {
  return {
    ...r,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastUsed: r.lastUsed ?? null,
    usesLast90Days: Number(r.usesLast90Days ?? 0),
    nextPlanned: r.nextPlanned ?? null,
  };
}

/** Search by title, artist or tag (any part, any case); `tag` narrows to one tag exactly. */
export async function listSongs(
  db: Db,
  tenantId: number,
  input: { search?: string; tag?: string },
): Promise<z.input<typeof songSchema>[]> {
  let q = songQuery(db, tenantId);
  const search = input.search?.trim();
  if (search) {
    const like = `%${escapeLike(search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('s.title', 'ilike', like),
        eb('s.artist', 'ilike', like),
        eb.exists(
          eb
            .selectFrom(sql`unnest(s.tags)`.as('tag'))
            .select(sql`1`.as('one'))
            .where(sql`tag`, 'ilike', like),
        ),
      ]),
    );
  }
  if (input.tag?.trim()) q = q.where(sql<boolean>`${input.tag.trim()} = any(s.tags)`);
  const rows = await q.orderBy('s.title').orderBy('s.id').limit(1000).execute();
  return rows.map(toSong);
}

export async function getSong(db: Db, tenantId: number, input: { id: number }): Promise<z.input<typeof songSchema>> {
  const row = await songQuery(db, tenantId).where('s.id', '=', input.id).executeTakeFirst();
  if (!row) throw notFound('Song not found');
  return toSong(row);
}

const cleanTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))];

export async function createSong(db: Db, tenantId: number, input: SongFields): Promise<z.input<typeof songSchema>> {
  const row = await db
    .insertInto('songs')
    .values({
      userId: tenantId,
      title: input.title,
      artist: input.artist ?? null,
      lyrics: input.lyrics ?? null,
      chords: input.chords ?? null,
      keySignature: input.keySignature ?? null,
      tempo: input.tempo ?? null,
      timeSignature: input.timeSignature ?? null,
      ccliNumber: input.ccliNumber ?? null,
      notes: input.notes ?? null,
      tags: cleanTags(input.tags),
      audioUrl: input.audioUrl ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getSong(db, tenantId, row);
}

/** Partial: unsent fields keep their values. */
export async function updateSong(
  db: Db,
  tenantId: number,
  input: Partial<SongFields> & { id: number },
): Promise<z.input<typeof songSchema>> {
  const { id, tags, ...fields } = input;
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const row = await db
    .updateTable('songs')
    .set({ ...set, ...(tags ? { tags: cleanTags(tags) } : {}), updatedAt: new Date() })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Song not found');
  return getSong(db, tenantId, row);
}

/** Plans that used the song lose it from their items (the items stay). */
export async function deleteSong(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return deleteChurchRow(db, tenantId, { table: 'songs', id: input.id, missing: 'Song not found' });
}
