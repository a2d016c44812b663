import { sql, type Db } from '@lampstand/db';
import type { ShowUpCard } from '../../render/landing-page-html.js';

/**
 * A project's raised amount (dollars) and supporters, read from the ledger: the lines of
 * completed gifts to the project's fund. A refund, a dispute or a lost dispute takes a gift off; a
 * won dispute puts it back. For a query of `showUpProjects as p`.
 */
export const RAISED_AMOUNT = sql<number>`(select (coalesce(sum(l.amount_cents), 0) / 100.0)::float8
  from gift_lines l join gifts g on g.id = l.gift_id join funds f on f.id = l.fund_id
  where f.project_id = p.id and g.status = 'completed')`;
export const SUPPORTERS = sql<number>`(select count(distinct l.gift_id)::int
  from gift_lines l join gifts g on g.id = l.gift_id join funds f on f.id = l.fund_id
  where f.project_id = p.id and g.status = 'completed')`;

/** One project's raised amount and supporters, from the ledger. */
export async function projectTotals(
  db: Db,
  projectId: number,
): Promise<{ raisedAmount: number; donationsCount: number }> {
  return db
    .selectFrom('showUpProjects as p')
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
    .where('p.id', '=', projectId)
    .executeTakeFirstOrThrow();
}

/** The live figures a landing page's Show Up blocks show: the page's church's own projects only. */
export async function showUpCardsFor(
  db: Db,
  tenantId: number,
  opts: { ids: number[] },
): Promise<Map<number, ShowUpCard>> {
  const ids = [...new Set(opts.ids)].filter((id) => id > 0 && id <= 2_147_483_647);
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('showUpProjects as p')
    .select(['p.id', 'p.title', 'p.shortDescription', 'p.targetAmount'])
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
    .where('p.userId', '=', tenantId)
    .where('p.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        shortDescription: r.shortDescription,
        raisedAmount: Number(r.raisedAmount),
        targetAmount: Number(r.targetAmount),
        donationsCount: Number(r.donationsCount),
      },
    ]),
  );
}
