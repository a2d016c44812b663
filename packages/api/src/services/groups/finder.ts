import { sql, type Db } from '@lampstand/db';
import { churchToday } from '../giving/giving-church.js';
import { nextMeeting } from './schedule.js';

// The public group finder: a church's active groups as the public may see them. Never the
// address or the leaders; the area and a map point only when the group shows its suburb, and
// the point rounded to two decimals (about a kilometre), so a home cannot be found from it.

export interface FinderFilters {
  weekday?: number;
  type?: string;
  tag?: string;
  area?: string;
}

export interface FinderGroup {
  id: number;
  name: string;
  type: string;
  description: string | null;
  imageUrl: string | null;
  frequency: 'weekly' | 'every_other_week' | 'monthly' | 'by_arrangement';
  weekday: number | null;
  weekOfMonth: number | null;
  time: string | null;
  /** The suburb, or null when the group shows no area. */
  area: string | null;
  /** The area's point, rounded; null without a suburb or a point. */
  point: { lat: number; lng: number } | null;
  tags: string[];
  joinMode: 'open' | 'request' | 'closed';
  full: boolean;
  nextMeeting: string | null;
}

export interface Finder {
  groups: FinderGroup[];
  /** What the filters offer: every type, tag and area of the church's active groups. */
  choices: { types: string[]; tags: string[]; areas: string[] };
}

const round = (n: number) => Math.round(n * 100) / 100;

export async function finderGroups(db: Db, tenantId: number, f: FinderFilters): Promise<Finder> {
  const { rows } = await sql<{
    id: number;
    name: string;
    type: string;
    description: string | null;
    imageUrl: string | null;
    frequency: FinderGroup['frequency'];
    weekday: number | null;
    weekOfMonth: number | null;
    startsOn: string | null;
    time: string | null;
    area: string | null;
    areaPrecision: 'suburb' | 'none';
    latitude: number | null;
    longitude: number | null;
    tags: string[];
    joinMode: FinderGroup['joinMode'];
    full: boolean;
  }>`
    select g.id, g.name, g.type, g.description, g.image_url as "imageUrl", g.frequency, g.weekday,
      g.week_of_month as "weekOfMonth", g.starts_on as "startsOn", to_char(g.meets_at, 'HH24:MI') as time,
      g.area, g.area_precision as "areaPrecision", g.latitude, g.longitude, g.tags, g.join_mode as "joinMode",
      (g.capacity is not null and g.capacity <= (select count(*) from group_members m
        where m.group_id = g.id and m.left_on is null)) as full
    from groups g
    where g.user_id = ${tenantId} and g.archived_at is null
    order by g.weekday nulls last, g.meets_at nulls last, g.name, g.id
    limit 1000`.execute(db);
  const today = await churchToday(db, tenantId, new Date());
  const visible = rows.map((r): FinderGroup => ({
    id: r.id,
    name: r.name,
    type: r.type,
    description: r.description,
    imageUrl: r.imageUrl,
    frequency: r.frequency,
    weekday: r.weekday,
    weekOfMonth: r.weekOfMonth,
    time: r.time,
    area: r.areaPrecision === 'suburb' ? r.area : null,
    point:
      r.areaPrecision === 'suburb' && r.latitude !== null && r.longitude !== null
        ? { lat: round(r.latitude), lng: round(r.longitude) }
        : null,
    tags: r.tags,
    joinMode: r.joinMode,
    full: r.full,
    nextMeeting: nextMeeting(r, today),
  }));
  const uniq = (xs: (string | null)[]) =>
    [...new Set(xs.filter((x): x is string => Boolean(x)))].sort((a, b) => a.localeCompare(b));
  const lower = (s?: string) => s?.trim().toLowerCase() || undefined;
  const [type, tag, area] = [lower(f.type), lower(f.tag), lower(f.area)];
  return {
    groups: visible.filter(
      (g) =>
        (f.weekday === undefined || g.weekday === f.weekday) &&
        (!type || g.type.toLowerCase() === type) &&
        (!tag || g.tags.some((t) => t.toLowerCase() === tag)) &&
        (!area || g.area?.toLowerCase() === area),
    ),
    choices: {
      types: uniq(visible.map((g) => g.type)),
      tags: uniq(visible.flatMap((g) => g.tags)),
      areas: uniq(visible.map((g) => g.area)),
    },
  };
}

/** One group of the finder (an archived or unknown one: null). */
export async function finderGroup(db: Db, tenantId: number, id: number): Promise<FinderGroup | null> {
  const { groups } = await finderGroups(db, tenantId, {});
  return groups.find((g) => g.id === id) ?? null;
}
