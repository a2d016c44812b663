import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../errors.js';
import type {
  createFundSchema,
  deleteFundResultSchema,
  fundSchema,
  listFundsSchema,
  updateFundSchema,
} from '../../schemas/giving.js';

type FundOut = z.input<typeof fundSchema>;

export const GENERAL_FUND = 'General';
const NAME_TAKEN = 'A fund with this name already exists';
const FUND_NOT_FOUND = 'Fund not found';
/** A Show Up project's own fund follows its project: named after it, never offered. */
const PROJECT_FUND = "This fund is a Show Up project's: change the project instead";

/** Every church has a 'General' fund (made at registration; the migration made it for the others). */
export async function ensureGeneralFund(db: Db, tenantId: number): Promise<void> {
  await sql`
    insert into funds (user_id, name) values (${tenantId}, ${GENERAL_FUND})
    on conflict (user_id, lower(name)) where project_id is null do nothing`.execute(db);
}

function fundsQuery(db: Db, tenantId: number) {
  return db
    .selectFrom('funds as f')
    .select(['f.id', 'f.name', 'f.description', 'f.isPublic', 'f.status', 'f.createdAt'])
    .select((eb) =>
      eb
        .selectFrom('giftLines as l')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('l.fundId', '=', 'f.id')
        .as('giftCount'),
    )
    .where('f.userId', '=', tenantId);
}

const toFund = (r: {
  id: number;
  name: string;
  description: string | null;
  isPublic: boolean;
  status: string;
  createdAt: Date;
  giftCount: number | string | null;
}): FundOut => ({
  id: r.id,
  name: r.name,
  description: r.description,
  isPublic: r.isPublic,
  status: r.status as FundOut['status'],
  giftCount: Number(r.giftCount ?? 0),
  createdAt: r.createdAt,
});

/** The church's funds: active first, then by name. */
export async function listFunds(db: Db, tenantId: number, input: z.output<typeof listFundsSchema>): Promise<FundOut[]> {
  let q = fundsQuery(db, tenantId);
  if (input.status !== 'all') q = q.where('f.status', '=', input.status);
  const rows = await q
    .orderBy(sql`f.status = 'active'`, 'desc')
    .orderBy(sql`f.name = ${GENERAL_FUND}`, 'desc')
    .orderBy('f.name')
    .execute();
  return rows.map(toFund);
}

export async function getFund(db: Db, tenantId: number, id: number): Promise<FundOut> {
  const row = await fundsQuery(db, tenantId).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(FUND_NOT_FOUND);
  return toFund(row);
}

export async function createFund(db: Db, tenantId: number, input: z.output<typeof createFundSchema>): Promise<FundOut> {
  try {
    const row = await db
      .insertInto('funds')
      .values({
        userId: tenantId,
        name: input.name,
        description: input.description ?? null,
        isPublic: input.isPublic,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return getFund(db, tenantId, row.id);
  } catch (err) {
    if (isUniqueViolation(err, 'funds_church_name_key')) throw conflict(NAME_TAKEN, 'name');
    throw err;
  }
}

/** PATCH: unsent fields keep their values. 'General' keeps its name and stays active. */
export async function updateFund(db: Db, tenantId: number, input: z.output<typeof updateFundSchema>): Promise<FundOut> {
  const current = await db
    .selectFrom('funds')
    .select(['id', 'name', 'projectId'])
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!current) throw notFound(FUND_NOT_FOUND);
  if (current.projectId !== null) throw badRequest(PROJECT_FUND, 'id');
  if (current.name === GENERAL_FUND) {
    if (input.name !== undefined && input.name !== GENERAL_FUND) {
      throw badRequest('The General fund keeps its name', 'name');
    }
    if (input.status === 'archived') throw badRequest('The General fund cannot be archived', 'status');
  }
  const set = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.isPublic !== undefined ? { isPublic: input.isPublic } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
  };
  try {
    await db
      .updateTable('funds')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', input.id)
      .where('userId', '=', tenantId)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err, 'funds_church_name_key')) throw conflict(NAME_TAKEN, 'name');
    throw err;
  }
  return getFund(db, tenantId, input.id);
}

/**
 * DELETE: a fund no gift or recurring gift names goes away; one with gifts is archived instead
 * (its gifts keep their fund; it is no longer offered). 'General' stays.
 */
export async function deleteFund(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof deleteFundResultSchema>> {
  return db.transaction().execute(async (trx) => {
    const fund = await trx
      .selectFrom('funds')
      .select(['id', 'name', 'projectId'])
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!fund) throw notFound(FUND_NOT_FOUND);
    if (fund.projectId !== null) throw badRequest(PROJECT_FUND, 'id');
    if (fund.name === GENERAL_FUND) throw badRequest('The General fund cannot be deleted', 'id');
    const used = await trx
      .selectFrom('giftLines')
      .select('id')
      .where('fundId', '=', id)
      .union(trx.selectFrom('giftScheduleLines').select('id').where('fundId', '=', id))
      .limit(1)
      .executeTakeFirst();
    if (used) {
      await trx.updateTable('funds').set({ status: 'archived', updatedAt: new Date() }).where('id', '=', id).execute();
      return { id, outcome: 'archived' as const };
    }
    await trx.deleteFrom('funds').where('id', '=', id).execute();
    return { id, outcome: 'deleted' as const };
  });
}

/**
 * The church's funds named by `fundIds`, checked for a gift: each must be the church's (another
 * church's or none: 404 naming the line) and active (an archived fund: 400); a public gift also
 * needs public funds.
 */
export async function giftFunds(
  db: Db,
  tenantId: number,
  /** `alsoAllow`: funds off the giving page a donor may still choose (their own renewal's). */
  input: { fundIds: number[]; publicOnly: boolean; alsoAllow?: number[]; field?: string },
): Promise<Map<number, { id: number; name: string }>> {
  const unique = [...new Set(input.fundIds)];
  const rows = unique.length
    ? await db
        .selectFrom('funds')
        .select(['id', 'name', 'status', 'isPublic'])
        .where('userId', '=', tenantId)
        .where('id', 'in', unique)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const field = input.field ?? 'lines';
  input.fundIds.forEach((fundId, i) => {
    const f = byId.get(fundId);
    if (!f || (input.publicOnly && !f.isPublic && !input.alsoAllow?.includes(fundId))) {
      throw notFound(`Fund not found (${field}.${i}.fundId)`);
    }
    if (f.status !== 'active') throw badRequest(`${f.name} is archived: choose another fund`, `${field}.${i}.fundId`);
  });
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }]));
}
