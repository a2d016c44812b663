/**
 * How long the planner's lists (plans, songs, team, item types) stay fresh in the query cache:
 * every tab and modal of the planner reads them with the same time.
 */
export const PLANNER_STALE_MS = 5 * 60_000;
