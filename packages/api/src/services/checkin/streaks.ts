import { sql, type Db } from '@lampstand/db';

/** 'YYYY-MM-DD', `days` after `day`. */
function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Whether a family's run of weekly check-ins reaches `weeks` on `day`: it checked in on `day` and on
 * the same weekday of each of the `weeks - 1` weeks before, and not the week before those (so a run
 * reaches N once, and a journey on 'N weeks in a row' starts once per run).
 */
export async function reachesWeeksInARow(
  db: Db,
  tenantId: number,
  opts: { familyId: number; day: string; weeks: number },
): Promise<boolean> {
  const days = Array.from({ length: opts.weeks + 1 }, (_, i) => addDays(opts.day, -7 * i));
  const { rows } = await sql<{ day: string }>`
    select distinct day::text as day from checkins
    where user_id = ${tenantId} and family_contact_id = ${opts.familyId} and day = any(${days}::date[])`.execute(db);
  const seen = new Set(rows.map((r) => r.day));
  return days.slice(0, opts.weeks).every((d) => seen.has(d)) && !seen.has(days[opts.weeks]!);
}
