import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import type { GiftRow } from './read.js';
import type { UndoLog } from './undo-log.js';

/**
 * Writing a donations file into the one ledger: completed gifts (refunded where the file refunds
 * them) with their fund line, marked with the import that wrote them. No `donation.*` event and no
 * receipt job: those are for new gifts, and these were given, receipted and thanked in the old
 * system.
 */

export interface GiftsJob {
  importId: number;
  tenantId: number;
  system: string;
  /** The church's funds by lower-cased name, read once the file's missing funds are made (not per batch). */
  funds: Map<string, number>;
}

/** A gift's key in the ledger: the same line of the same source is written once, however often it is imported. */
export function giftKeys(tenantId: number, system: string, gifts: GiftRow[]): string[] {
  const seen = new Map<string, number>();
  return gifts.map((g) => {
    if (g.externalId) return `import:${tenantId}:${system}:${g.externalId}`;
    const base = `${g.date}|${g.amountCents}|${g.fund.toLowerCase()}|${g.personId ?? g.email ?? g.donorName ?? ''}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const hash = crypto.createHash('sha256').update(`${base}|${n}`).digest('hex').slice(0, 32);
    return `import:${tenantId}:${system}:row-${hash}`;
  });
}

/** The church's funds by lower-cased name (its own funds, not a project's). */
export async function fundsByName(db: Db, tenantId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('funds')
    .select(['id', 'name'])
    .where('userId', '=', tenantId)
    .where('projectId', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
}

/**
 * Make the funds the file names that the church does not have (not offered on the giving page),
 * each logged for the import's undo when `undo` is given.
 */
export async function makeMissingFunds(trx: Db, tenantId: number, names: string[], undo?: UndoLog): Promise<string[]> {
  const have = await fundsByName(trx, tenantId);
  const made: string[] = [];
  for (const name of names) {
    if (have.has(name.toLowerCase())) continue;
    const row = await trx
      .insertInto('funds')
      .values({ userId: tenantId, name, isPublic: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    have.set(name.toLowerCase(), row.id);
    undo?.created('funds', row.id);
    made.push(name);
  }
  return made;
}

export interface Donor {
  id: number;
  name: string;
  email: string | null;
}

/**
 * Donors by the source's person id (kept by a people import), else by email: each gift's contact,
 * or undefined (looked up as asked, not a map of every gift made for it).
 */
export async function donorsOf(
  db: Db,
  tenantId: number,
  system: string,
  gifts: GiftRow[],
): Promise<(g: GiftRow) => Donor | undefined> {
  const idSet = new Set<string>();
  const emailSet = new Set<string>();
  for (let i = 0; i < gifts.length; i++) {
    const g = gifts[i]!;
    if (g.personId) idSet.add(g.personId);
    if (g.email) emailSet.add(g.email);
  }
  const ids = [...idSet];
  const emails = [...emailSet];
  const byId = new Map<string, Donor>();
  const byEmail = new Map<string, Donor>();
  // One statement a kind, the values as one array (not a list of parameters per thousand).
  if (ids.length) {
    const rows = await db
      .selectFrom('contactExternalIds as x')
      .innerJoin('contacts as c', 'c.id', 'x.contactId')
      .select(['x.externalId', 'c.id', 'c.firstName', 'c.lastName', 'c.email'])
      .where('x.userId', '=', tenantId)
      .where('x.source', '=', system)
      .where(sql<boolean>`x.external_id = any(${ids}::text[])`)
      .execute();
    for (const r of rows)
      byId.set(r.externalId, { id: r.id, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email });
  }
  if (emails.length) {
    const rows = await db
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName', 'email', 'emailLower'])
      .where('userId', '=', tenantId)
      .where(sql<boolean>`email_lower = any(${emails}::text[])`)
      .orderBy('id')
      .execute();
    for (const r of rows) {
      if (r.emailLower && !byEmail.has(r.emailLower))
        byEmail.set(r.emailLower, { id: r.id, name: `${r.firstName} ${r.lastName}`.trim(), email: r.email });
    }
  }
  return (g) => (g.personId && byId.get(g.personId)) || (g.email && byEmail.get(g.email)) || undefined;
}

/** The moment a dated gift counts: noon UTC on its date (the same calendar day in any zone). */
const moment = (date: string) => new Date(`${date}T12:00:00Z`);

/** One batch of gifts; a gift already in the ledger (the same file again) is left as it is. */
export async function writeGifts(trx: Db, job: GiftsJob, batch: GiftRow[], keys: string[]): Promise<number> {
  if (!batch.length) return 0;
  const funds = job.funds;
  const donorOf = await donorsOf(trx, job.tenantId, job.system, batch);
  const inserted = await trx
    .insertInto('gifts')
    .values(
      batch.map((g, i) => {
        const donor = donorOf(g);
        return {
          userId: job.tenantId,
          contactId: donor?.id ?? null,
          amountCents: g.amountCents,
          donorName: donor?.name ?? g.donorName,
          donorEmail: donor?.email ?? g.email,
          method: g.method,
          checkNumber: g.checkNumber,
          status: g.refundedOn ? ('refunded' as const) : ('completed' as const),
          completedAt: moment(g.date),
          refundedAt: g.refundedOn ? moment(g.refundedOn) : null,
          refundedCents: g.refundedOn ? g.amountCents : 0,
          reversalReason: g.refundedOn ? `Refunded in ${job.system}` : null,
          idempotencyKey: keys[i]!,
          receiptToken: crypto.randomBytes(24).toString('base64url'),
          importId: job.importId,
          externalId: g.externalId,
        };
      }),
    )
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .returning(['id', 'idempotencyKey'])
    .execute();
  const byKey = new Map(batch.map((g, i) => [keys[i]!, g]));
  if (inserted.length) {
    await trx
      .insertInto('giftLines')
      .values(
        // A line per fund: a gift the file splits between funds is one gift with a line for each.
        inserted.flatMap((r) =>
          byKey.get(r.idempotencyKey)!.lines.map((l) => {
            const fundId = funds.get(l.fund.toLowerCase());
            if (!fundId) throw new Error(`Fund '${l.fund}' was not made before its gifts`);
            return { userId: job.tenantId, giftId: r.id, fundId, amountCents: l.amountCents };
          }),
        ),
      )
      .execute();
  }
  return inserted.length;
}

/** The ledger's completed gifts of these keys, per fund and year: the report beside the file's. */
export async function ledgerTotals(db: Db, tenantId: number, keys: string[]) {
  const totals = new Map<string, { fund: string; year: number; cents: number }>();
  for (let i = 0; i < keys.length; i += 1000) {
    const rows = await db
      .selectFrom('gifts as g')
      .innerJoin('giftLines as l', 'l.giftId', 'g.id')
      .innerJoin('funds as f', 'f.id', 'l.fundId')
      .select([
        'f.name as fund',
        sql<number>`extract(year from g.completed_at at time zone 'UTC')::int`.as('year'),
        sql<string>`sum(l.amount_cents)`.as('cents'),
      ])
      .where('g.userId', '=', tenantId)
      .where('g.status', '=', 'completed')
      .where('g.idempotencyKey', 'in', keys.slice(i, i + 1000))
      .groupBy(['f.name', sql`2`])
      .execute();
    for (const r of rows) {
      const k = `${r.fund.toLowerCase()}|${r.year}`;
      const t = totals.get(k) ?? { fund: r.fund, year: r.year, cents: 0 };
      t.cents += Number(r.cents);
      totals.set(k, t);
    }
  }
  return totals;
}
