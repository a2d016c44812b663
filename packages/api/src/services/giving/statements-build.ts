import { sql, type Db } from '@lampstand/db';
import { DELIVERY_KIND_RULES, skipReasonSql } from '../delivery/contact-rule.js';
import { renderStatement, renderStatements, type StatementData, type StatementLine } from './statement-pdf.js';
import { churchLocale, effectiveCountry } from '../../shared/locale.js';

/**
 * Building a statement run: what the 'giving-statements-build' job does. It imports
 * only the database and the PDF helper, so the thread that runs it (`@lampstand/api/statements-build`)
 * loads little besides them.
 */

/** A gift's date: the day it was completed, in the church's time zone. */
const giftDate = (tz: string) => sql<string>`(g.completed_at at time zone ${tz})::date`;

/** A postal address (jsonb of the giving page, or a contact's metadata) as lines of text, or null. */
export function addressText(j: ReturnType<typeof sql.ref>, keys: { line1: string; line2?: string }) {
  const f = (k: string) => sql`nullif(trim(${j} ->> ${k}), '')`;
  return sql<string | null>`nullif(concat_ws(E'\n', ${f(keys.line1)}, ${keys.line2 ? f(keys.line2) : sql`null`},
    nullif(concat_ws(' ', nullif(concat_ws(', ', ${f('city')}, ${f('state')}), ''), ${f('postalCode')}), ''),
    ${f('country')}), '')`;
}

/** The church's name, address, tax id, time zone and locale, as a statement shows them. */
export async function churchOf(db: Db, tenantId: number) {
  const c = await db
    .selectFrom('users as u')
    .leftJoin('churchSettings as s', 's.userId', 'u.id')
    .select(['u.churchName', 's.postalAddress', 's.taxId', 's.timeZone', 's.country'])
    .where('u.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    name: c.churchName,
    address: c.postalAddress ?? null,
    taxId: c.taxId ?? null,
    timeZone: c.timeZone ?? 'UTC',
    locale: churchLocale(effectiveCountry(c)),
  };
}

/** The donors of `from`–`to`: contacts with completed gifts dated in it (church time), gifts counted and summed. */
export function donorsInRange(tenantId: number, tz: string, range: { from: string; to: string }) {
  return sql`
    select g.contact_id, count(*)::int as gift_count, sum(g.amount_cents)::bigint as total_cents,
           (array_agg(g.donor_address order by g.completed_at desc)
              filter (where g.donor_address is not null and g.donor_address <> 'null'::jsonb))[1] as newest
    from gifts g
    where g.user_id = ${tenantId} and g.status = 'completed' and g.kind = 'gift' and g.contact_id is not null
      and ${giftDate(tz)} between ${range.from}::date and ${range.to}::date
    group by g.contact_id`;
}

/** A contact's email address to send a statement to, or null. */
export const donorEmail = sql<string | null>`nullif(trim(c.email), '')`;

/** The lines of each donor's statement: each gift's funds, and the card fee they covered. */
export async function statementLines(
  db: Db,
  tenantId: number,
  run: { fromDate: string; toDate: string },
  tz: string,
  contactIds: number[],
): Promise<Map<number, StatementLine[]>> {
  const { rows } = await sql<StatementLine & { contactId: number }>`
    select g.contact_id, ${giftDate(tz)}::text as date, f.name as fund, g.method, g.check_number,
           l.amount_cents, g.id as gift_id, g.amount_cents as gift_cents, g.goods_services,
           g.goods_services_cents, l.id as line_id
    from gifts g
    join gift_lines l on l.gift_id = g.id
    join funds f on f.id = l.fund_id
    where g.user_id = ${tenantId} and g.status = 'completed' and g.kind = 'gift' and g.contact_id = any(${contactIds}::int[])
      and ${giftDate(tz)} between ${run.fromDate}::date and ${run.toDate}::date
    union all
    select g.contact_id, ${giftDate(tz)}::text, 'Card fee covered', g.method, g.check_number, g.fee_cents,
           g.id, g.amount_cents, null, null, 0
    from gifts g
    where g.user_id = ${tenantId} and g.status = 'completed' and g.kind = 'gift' and g.fee_cents > 0
      and g.contact_id = any(${contactIds}::int[])
      and ${giftDate(tz)} between ${run.fromDate}::date and ${run.toDate}::date
    order by contact_id, date, gift_id, line_id`.execute(db);
  const map = new Map<number, StatementLine[]>();
  for (const r of rows) {
    const list = map.get(r.contactId) ?? [];
    list.push({
      date: r.date,
      fund: r.fund,
      method: r.method,
      checkNumber: r.checkNumber,
      amountCents: Number(r.amountCents),
      giftId: r.giftId,
      giftCents: Number(r.giftCents),
      goodsServices: r.goodsServices,
      goodsServicesCents: r.goodsServicesCents === null ? null : Number(r.goodsServicesCents),
    });
    map.set(r.contactId, list);
  }
  return map;
}

/** The run's status, its row locked until the transaction ends (one job moves it at a time). */
async function lockedStatus(trx: Db, runId: number) {
  const run = await trx
    .selectFrom('givingStatementRuns')
    .select('status')
    .where('id', '=', runId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return run.status;
}

/**
 * What the 'giving-statements-build' job runs (in a thread of its own: apps/server's
 * `jobs/statements-thread.ts`): the run's donors (once), their PDFs `chunkSize` at a time
 * (progress after each chunk), then the emails' deliveries and the PDF to print. Safe to run
 * again. Answers how many deliveries it queued: the caller sends the 'giving-statement-deliver' job.
 */
export async function buildStatements(
  db: Db,
  runId: number,
  opts: { chunkSize?: number } = {},
): Promise<{ emails: number }> {
  const chunkSize = opts.chunkSize ?? 50;
  const run = await db.selectFrom('givingStatementRuns').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run || run.status === 'done' || run.status === 'failed' || run.status === 'sending') return { emails: 0 };
  const tenantId = run.userId;
  const church = await churchOf(db, tenantId);
  const tz = church.timeZone;

  if (run.status === 'queued') {
    await db.transaction().execute(async (trx) => {
      if ((await lockedStatus(trx, runId)) !== 'queued') return;
      const newest = sql.ref('newest');
      const meta = sql.ref('c.metadata');
      // A donor whose address is on the suppression list is not emailed: theirs is printed.
      await sql`
        insert into giving_statements
          (user_id, run_id, contact_id, donor_name, donor_email, donor_address, gift_count, total_cents,
           email_suppressed)
        select ${tenantId}, ${runId}, c.id,
               coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.email, 'Donor'),
               ${donorEmail},
               coalesce(${addressText(newest, { line1: 'line1', line2: 'line2' })},
                        ${addressText(meta, { line1: 'address' })}),
               d.gift_count, d.total_cents,
               (${skipReasonSql(tenantId, { channel: 'email', ...DELIVERY_KIND_RULES['giving-statement'] }, donorEmail)}) is not null
        from (${donorsInRange(tenantId, tz, { from: run.fromDate, to: run.toDate })}) d
        join contacts c on c.id = d.contact_id and c.user_id = ${tenantId}
        on conflict (run_id, contact_id) do nothing`.execute(trx);
      const count = await trx
        .selectFrom('givingStatements')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('runId', '=', runId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('givingStatementRuns')
        .set({ status: 'building', total: count.n, done: 0, updatedAt: new Date() })
        .where('id', '=', runId)
        .execute();
    });
  }

  const dataOf = (
    s: { contactId: number; donorName: string; donorAddress: string | null; totalCents: number },
    lines: StatementLine[],
  ): StatementData => ({
    church,
    donor: { name: s.donorName, address: s.donorAddress },
    from: run.fromDate,
    to: run.toDate,
    lines,
    totalCents: Number(s.totalCents),
  });

  for (;;) {
    const chunk = await db
      .selectFrom('givingStatements')
      .select(['id', 'contactId', 'donorName', 'donorAddress', 'totalCents'])
      .where('runId', '=', runId)
      .where('pdf', 'is', null)
      .orderBy('id')
      .limit(chunkSize)
      .execute();
    if (chunk.length === 0) break;
    const lines = await statementLines(
      db,
      tenantId,
      run,
      tz,
      chunk.map((s) => s.contactId),
    );
    const pdfs: Buffer[] = [];
    for (const s of chunk) pdfs.push(await renderStatement(dataOf(s, lines.get(s.contactId) ?? [])));
    await sql`
      update giving_statements s set pdf = v.pdf
      from unnest(${chunk.map((s) => s.id)}::int[], ${pdfs}::bytea[]) as v(id, pdf)
      where s.id = v.id`.execute(db);
    await sql`
      update giving_statement_runs set updated_at = now(),
        done = (select count(*) from giving_statements where run_id = ${runId} and pdf is not null)
      where id = ${runId}`.execute(db);
  }

  // The donors without an email (or with a suppressed one), in one PDF to print.
  const toPrint = await db
    .selectFrom('givingStatements')
    .select(['contactId', 'donorName', 'donorAddress', 'totalCents'])
    .where('runId', '=', runId)
    .where((eb) => eb.or([eb('donorEmail', 'is', null), eb('emailSuppressed', '=', true)]))
    .orderBy('donorName')
    .orderBy('contactId')
    .execute();
  let combined: Buffer | null = null;
  if (toPrint.length > 0) {
    // Drawn a chunk at a time as its lines are read: only a chunk's gifts are held at once.
    combined = await renderStatements(
      { title: `Giving statements ${run.fromDate} to ${run.toDate}`, author: church.name },
      async function* () {
        for (let i = 0; i < toPrint.length; i += chunkSize) {
          const part = toPrint.slice(i, i + chunkSize);
          const lines = await statementLines(
            db,
            tenantId,
            run,
            tz,
            part.map((s) => s.contactId),
          );
          for (const s of part) yield dataOf(s, lines.get(s.contactId) ?? []);
        }
      },
    );
  }

  const emails = await db.transaction().execute(async (trx) => {
    if ((await lockedStatus(trx, runId)) !== 'building') return 0;
    // One delivery per (run, donor): the unique index makes a second insert a no-op.
    const inserted = await sql<{ n: number }>`
      with ins as (
        insert into deliveries (user_id, channel, kind, statement_run_id, contact_id, address, first_name, last_name, token)
        select s.user_id, 'email', 'giving-statement', s.run_id, s.contact_id, s.donor_email,
               coalesce(c.first_name, ''), coalesce(c.last_name, ''),
               replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
        from giving_statements s join contacts c on c.id = s.contact_id
        where s.run_id = ${runId} and s.donor_email is not null and not s.email_suppressed
        on conflict do nothing
        returning 1
      )
      select count(*)::int as n from ins`.execute(trx);
    const n = Number(inserted.rows[0]?.n ?? 0);
    await trx
      .updateTable('givingStatementRuns')
      .set({
        combinedPdf: combined,
        status: n > 0 ? 'sending' : 'done',
        finishedAt: n > 0 ? null : new Date(),
        updatedAt: new Date(),
      })
      .where('id', '=', runId)
      .execute();
    return n;
  });
  return { emails };
}
