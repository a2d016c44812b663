import { databaseKey, sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { URGENT_DAYS, type findProjectsSchema, type ProjectCard } from '../../schemas/show-up.js';
import { RAISED_AMOUNT, SUPPORTERS } from './project-totals.js';

type FindProjects = z.output<typeof findProjectsSchema>;

const CARD_COLUMNS = [
  'p.id',
  'p.userId',
  'p.title',
  'p.shortDescription',
  'p.location',
  'p.latitude',
  'p.longitude',
  'p.targetAmount',
  'p.status',
  'p.category',
  'p.tags',
  'p.coverImage',
  'p.coverThumbnailUrl',
  'p.organizationName',
  'p.startDate',
  'p.endDate',
] as const;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type ProjectPage = { items: ProjectCard[]; total: number; page: number; pageSize: number };

/**
 * The public list is read far more than it changes: pages are kept for the spec's 5 minutes in this
 * process and dropped at once when this process changes a project or a total (another instance's
 * change shows within those 5 minutes).
 */
const LIST_TTL_MS = 5 * 60 * 1000;
// Keyed by the database, not the handle: a church's write (its own handle) clears the public lists.
const listCaches = new WeakMap<object, Map<string, { at: number; value: ProjectPage }>>();
export function invalidateShowUpLists(db: Db): void {
  listCaches.get(databaseKey(db))?.clear();
}

/** Public list: active projects, searched and filtered on the server, one page at a time. */
export async function findProjects(db: Db, viewerId: number | null, input: FindProjects): Promise<ProjectPage> {
  if (input.ownedByMe) return queryProjects(db, viewerId, input);
  const key = JSON.stringify(input);
  let listCache = listCaches.get(databaseKey(db));
  if (!listCache) listCaches.set(databaseKey(db), (listCache = new Map<string, { at: number; value: ProjectPage }>()));
  const hit = listCache.get(key);
  if (hit && Date.now() - hit.at < LIST_TTL_MS) return hit.value;
  const value = await queryProjects(db, viewerId, input);
  if (listCache.size >= 1000) listCache.clear();
  listCache.set(key, { at: Date.now(), value });
  return value;
}

async function queryProjects(db: Db, viewerId: number | null, input: FindProjects): Promise<ProjectPage> {
  const near = input.lat != null && input.lng != null ? { lat: input.lat, lng: input.lng } : null;
  // Kilometres on a sphere (haversine); null when the project has no coordinates.
  const distance = near
    ? sql<number | null>`case when p.latitude is null or p.longitude is null then null else
        2 * 6371 * asin(sqrt(
          power(sin(radians(p.latitude - ${near.lat}::float8) / 2), 2) +
          cos(radians(${near.lat}::float8)) * cos(radians(p.latitude)) *
          power(sin(radians(p.longitude - ${near.lng}::float8) / 2), 2)
        )) end`
    : sql<number | null>`null::float8`;

  let query = db.selectFrom('showUpProjects as p');
  if (input.ownedByMe) {
    query = query.where('p.userId', '=', viewerId ?? 0);
  } else {
    query = query.where('p.status', '=', 'active');
  }
  if (input.search) {
    const pattern = `%${escapeLike(input.search.trim())}%`;
    query = query.where((eb) =>
      eb.or([
        eb('p.title', 'ilike', pattern),
        eb('p.shortDescription', 'ilike', pattern),
        eb('p.description', 'ilike', pattern),
        eb('p.location', 'ilike', pattern),
        eb(sql`array_to_string(p.tags, ' ')`, 'ilike', pattern),
      ]),
    );
  }
  if (input.category === 'urgent') {
    query = query
      .where('p.endDate', '>=', sql<string>`current_date`)
      .where('p.endDate', '<=', sql<string>`current_date + ${URGENT_DAYS}::int`);
  } else if (input.category) {
    query = query.where('p.category', '=', input.category);
  }

  const offset = (input.page - 1) * input.pageSize;
  let rowsQuery = query
    .select([...CARD_COLUMNS])
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount'), distance.as('distanceKm')]);
  if (near) rowsQuery = rowsQuery.orderBy(sql`${distance} asc nulls last`);
  if (input.category === 'urgent') rowsQuery = rowsQuery.orderBy('p.endDate', 'asc');
  rowsQuery = rowsQuery.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc');

  const [rows, count] = await Promise.all([
    rowsQuery.limit(input.pageSize).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      distanceKm: r.distanceKm == null ? null : Math.round(Number(r.distanceKm) * 10) / 10,
    })),
    total: Number(count.n),
    page: input.page,
    pageSize: input.pageSize,
  };
}
