import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type {
  startStatementsSchema,
  statementPreviewSchema,
  statementRunSchema,
} from '../../schemas/giving-statements.js';
import { suppressedSql } from '../deliverability/suppressions.js';
import { formatCents } from '../../schemas/giving.js';
import { isSent } from '../delivery/status.js';
import {
  type ChannelDriver,
  type DeliveryGroup,
  type RunResult,
  deliverGroup,
  requeueStalled,
} from '../delivery/engine.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { escapeHtml } from '../../render/html.js';
import {
  formatStatementDate,
  renderStatement,
  renderStatements,
  type StatementData,
  type StatementLine,
} from './statement-pdf.js';

type StatementRun = z.input<typeof statementRunSchema>;

/**
 * Giving statements (issue 30 §8). A run covers a date range: the 'giving-statements-build' job
 * makes one statement per donor (a contact with completed gifts dated in the range, in the
 * church's time zone), its PDF built and stored 50 at a time (the run's done of total is the
 * progress), then queues each statement with an email address as a delivery of kind
 * 'giving-statement' of the one engine (one per (run, donor): a unique index) and puts the others'
 * in one PDF to print. A job that dies is run again by pg-boss and goes on where it stopped.
 */

/** A gift's date: the day it was completed, in the church's time zone. */
const giftDate = (tz: string) => sql<string>`(g.completed_at at time zone ${tz})::date`;

/** A postal address (jsonb of the giving page, or a contact's metadata) as lines of text, or null. */
function addressText(j: ReturnType<typeof sql.ref>, keys: { line1: string; line2?: string }) {
  const f = (k: string) => sql`nullif(trim(${j} ->> ${k}), '')`;
  return sql<string | null>`nullif(concat_ws(E'\n', ${f(keys.line1)}, ${keys.line2 ? f(keys.line2) : sql`null`},
    nullif(concat_ws(' ', nullif(concat_ws(', ', ${f('city')}, ${f('state')}), ''), ${f('postalCode')}), ''),
    ${f('country')}), '')`;
}

async function churchOf(db: Db, tenantId: number) {
  const c = await db
    .selectFrom('users as u')
    .leftJoin('churchSettings as s', 's.userId', 'u.id')
    .select(['u.churchName', 's.postalAddress', 's.taxId', 's.timeZone'])
    .where('u.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    name: c.churchName,
    address: c.postalAddress ?? null,
    taxId: c.taxId ?? null,
    timeZone: c.timeZone ?? 'UTC',
  };
}

/** The donors of `from`–`to`: contacts with completed gifts dated in it (church time), gifts counted and summed. */
function donorsInRange(tenantId: number, tz: string, range: { from: string; to: string }) {
  return sql`
    select g.contact_id, count(*)::int as gift_count, sum(g.amount_cents)::bigint as total_cents,
           (array_agg(g.donor_address order by g.completed_at desc)
              filter (where g.donor_address is not null and g.donor_address <> 'null'::jsonb))[1] as newest
    from gifts g
    where g.user_id = ${tenantId} and g.status = 'completed' and g.contact_id is not null
      and ${giftDate(tz)} between ${range.from}::date and ${range.to}::date
    group by g.contact_id`;
}

/** A contact's email address to send a statement to, or null. */
const donorEmail = sql<string | null>`nullif(trim(c.email), '')`;

/**
 * Before a run starts (the screen asks first): how many donors it would make statements for, how
 * many of them would be emailed, how many get the PDF to print instead (no email, or an address on
 * the suppression list), and how many suppressed addresses are skipped.
 */
export async function previewStatementRun(
  db: Db,
  tenantId: number,
  input: z.output<typeof startStatementsSchema>,
): Promise<z.input<typeof statementPreviewSchema>> {
  const { timeZone } = await churchOf(db, tenantId);
  const { rows } = await sql<{ donors: number; toEmail: number; suppressed: number }>`
    select count(*)::int as donors,
           count(*) filter (where e.email is not null and not e.suppressed)::int as to_email,
           count(distinct lower(e.email)) filter (where e.suppressed)::int as suppressed
    from (${donorsInRange(tenantId, timeZone, input)}) d
    join contacts c on c.id = d.contact_id and c.user_id = ${tenantId}
    cross join lateral (select ${donorEmail} as email,
                               coalesce(${suppressedSql(tenantId, donorEmail)}, false) as suppressed) e`.execute(db);
  const r = rows[0] ?? { donors: 0, toEmail: 0, suppressed: 0 };
  return {
    from: input.from,
    to: input.to,
    donors: r.donors,
    toEmail: r.toEmail,
    toPrint: r.donors - r.toEmail,
    suppressed: r.suppressed,
  };
}

/** Staff: start a run for `from`–`to` (both included); the job builds and sends it. */
export async function startStatementRun(
  deps: { db: Db; jobs: JobQueue },
  tenantId: number,
  userId: number | null,
  input: z.output<typeof startStatementsSchema>,
): Promise<StatementRun> {
  const run = await deps.db
    .insertInto('givingStatementRuns')
    .values({ userId: tenantId, fromDate: input.from, toDate: input.to, createdBy: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.jobs.send('giving-statements-build', { runId: run.id });
  return getStatementRun(deps.db, tenantId, run.id);
}

/** A run with its progress and its report (donors without an email, without a postal address). */
export async function getStatementRun(db: Db, tenantId: number, runId: number): Promise<StatementRun> {
  const run = await db
    .selectFrom('givingStatementRuns as r')
    .select(['r.id', 'r.fromDate', 'r.toDate', 'r.status', 'r.total', 'r.done', 'r.error', 'r.createdAt'])
    .select(['r.finishedAt'])
    .select((eb) => [
      eb
        .selectFrom('givingStatements as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.runId', '=', 'r.id')
        .where('s.donorEmail', 'is not', null)
        .where('s.emailSuppressed', '=', false)
        .as('toEmail'),
      eb
        .selectFrom('givingStatements as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.runId', '=', 'r.id')
        .where('s.emailSuppressed', '=', true)
        .as('suppressed'),
      eb
        .selectFrom('givingStatements as s')
        .select(sql<number>`coalesce(sum(s.total_cents), 0)::bigint`.as('n'))
        .whereRef('s.runId', '=', 'r.id')
        .as('totalCents'),
      eb
        .selectFrom('deliveries as d')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('d.statementRunId', '=', 'r.id')
        .where('d.kind', '=', 'giving-statement')
        .where(isSent('d.status'))
        .as('emailed'),
    ])
    .where('r.id', '=', runId)
    .where('r.userId', '=', tenantId)
    .executeTakeFirst();
  if (!run) throw notFound('Statement run not found');
  const report = await db
    .selectFrom('givingStatements')
    .select(['contactId', 'donorName as name', 'donorEmail as email', 'donorAddress as address', 'totalCents'])
    .where('runId', '=', runId)
    .where('userId', '=', tenantId)
    .where((eb) => eb.or([eb('donorEmail', 'is', null), eb('donorAddress', 'is', null)]))
    .orderBy('donorName')
    .orderBy('contactId')
    .limit(2000)
    .execute();
  const donors = report.map((r) => ({ ...r, totalCents: Number(r.totalCents) }));
  return {
    id: run.id,
    from: run.fromDate,
    to: run.toDate,
    status: run.status,
    total: run.total,
    done: run.done,
    toEmail: Number(run.toEmail ?? 0),
    emailed: Number(run.emailed ?? 0),
    toPrint: run.total - Number(run.toEmail ?? 0),
    suppressed: Number(run.suppressed ?? 0),
    totalCents: Number(run.totalCents ?? 0),
    withoutEmail: donors.filter((d) => d.email === null),
    withoutAddress: donors.filter((d) => d.address === null),
    error: run.error,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

/** The church's runs, newest first. */
export async function listStatementRuns(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom('givingStatementRuns')
    .select(['id', 'fromDate as from', 'toDate as to', 'status', 'total', 'done', 'createdAt'])
    .where('userId', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows;
}

/** The combined PDF to print (donors without an email, or with a suppressed one). */
export async function downloadStatementRun(db: Db, tenantId: number, runId: number) {
  const run = await db
    .selectFrom('givingStatementRuns')
    .select(['id', 'status', 'fromDate', 'toDate', 'combinedPdf'])
    .where('id', '=', runId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!run) throw notFound('Statement run not found');
  if (run.status !== 'sending' && run.status !== 'done') throw conflict('The statements are still being made');
  if (!run.combinedPdf) throw conflict('Every donor is emailed: there are no statements to print');
  return {
    fileName: `giving-statements-${run.fromDate}-to-${run.toDate}.pdf`,
    contentType: 'application/pdf' as const,
    base64: run.combinedPdf.toString('base64'),
  };
}

// ---- Building (the 'giving-statements-build' job)

/** The lines of each donor's statement: each gift's funds, and the card fee they covered. */
async function statementLines(
  db: Db,
  tenantId: number,
  run: { fromDate: string; toDate: string },
  tz: string,
  contactIds: number[],
): Promise<Map<number, StatementLine[]>> {
  const { rows } = await sql<{
    contactId: number;
    date: string;
    fund: string;
    method: StatementLine['method'];
    checkNumber: string | null;
    amountCents: number;
    giftId: number;
    giftCents: number;
    goodsServices: string | null;
    goodsServicesCents: number | null;
  }>`
    select g.contact_id, ${giftDate(tz)}::text as date, f.name as fund, g.method, g.check_number,
           l.amount_cents, g.id as gift_id, g.amount_cents as gift_cents, g.goods_services,
           g.goods_services_cents, l.id as line_id
    from gifts g
    join gift_lines l on l.gift_id = g.id
    join funds f on f.id = l.fund_id
    where g.user_id = ${tenantId} and g.status = 'completed' and g.contact_id = any(${contactIds}::int[])
      and ${giftDate(tz)} between ${run.fromDate}::date and ${run.toDate}::date
    union all
    select g.contact_id, ${giftDate(tz)}::text, 'Card fee covered', g.method, g.check_number, g.fee_cents,
           g.id, g.amount_cents, null, null, 0
    from gifts g
    where g.user_id = ${tenantId} and g.status = 'completed' and g.fee_cents > 0
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

type BuildDeps = { db: Db; jobs: JobQueue };

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
 * The 'giving-statements-build' job: the run's donors (once), their PDFs `chunkSize` at a time
 * (progress after each chunk), then the emails and the PDF to print. Safe to run again.
 */
export async function buildStatementRun(
  deps: BuildDeps,
  runId: number,
  opts: { chunkSize?: number } = {},
): Promise<void> {
  const { db } = deps;
  const chunkSize = opts.chunkSize ?? 50;
  const run = await db.selectFrom('givingStatementRuns').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run || run.status === 'done' || run.status === 'failed' || run.status === 'sending') return;
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
               coalesce(${suppressedSql(tenantId, donorEmail)}, false)
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
    const data: StatementData[] = [];
    for (let i = 0; i < toPrint.length; i += chunkSize) {
      const part = toPrint.slice(i, i + chunkSize);
      const lines = await statementLines(
        db,
        tenantId,
        run,
        tz,
        part.map((s) => s.contactId),
      );
      for (const s of part) data.push(dataOf(s, lines.get(s.contactId) ?? []));
    }
    combined = await renderStatements(data, {
      title: `Giving statements ${run.fromDate} to ${run.toDate}`,
      author: church.name,
    });
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
  if (emails > 0) await deps.jobs.send('giving-statement-deliver', { runId });
}

/** The job failed for good: the run says so (the screen shows it). */
export async function failStatementRun(db: Db, runId: number, message: string): Promise<void> {
  await db
    .updateTable('givingStatementRuns')
    .set({ status: 'failed', error: message.slice(0, 500), updatedAt: new Date() })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'building'])
    .execute();
}

// ---- Sending (the 'giving-statement-deliver' job: the one engine)

export const STATEMENT_DELIVERIES: DeliveryGroup = { kind: 'giving-statement', column: 'statement_run_id' };

interface RunForSending {
  id: number;
  userId: number;
  churchName: string;
  fromDate: string;
  toDate: string;
}

/** A permanent failure: trying again cannot help. */
const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

/**
 * The engine's driver of a run's statements: each delivery is one donor's email with their PDF
 * attached. A statement is about the donor's own gifts (like a receipt), so it is sent whatever
 * their consent to the church's mailings.
 */
export function statementDriver(deps: DeliveryDeps): ChannelDriver<RunForSending> {
  const { db, email, config } = deps;
  const host = () => new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel: 'email',
    group: STATEMENT_DELIVERIES,
    ratePerSecond: config.emailRatePerSecond,
    concurrency: config.emailConcurrency,
    async load(runId) {
      const r = await db
        .selectFrom('givingStatementRuns as r')
        .innerJoin('users as u', 'u.id', 'r.userId')
        .select(['r.id', 'r.userId', 'u.churchName', 'r.fromDate', 'r.toDate'])
        .where('r.id', '=', runId)
        .executeTakeFirst();
      return r ?? null;
    },
    async send(r, d) {
      const s = await db
        .selectFrom('givingStatements')
        .select(['donorName', 'totalCents', 'pdf'])
        .where('runId', '=', r.id)
        .where('contactId', '=', d.contactId!)
        .executeTakeFirst();
      if (!s?.pdf) throw permanent('The statement was deleted');
      const range = `${formatStatementDate(r.fromDate)} – ${formatStatementDate(r.toDate)}`;
      const lines = [
        `Hello ${d.firstName || s.donorName},`,
        `Thank you for your generosity. Your giving statement from ${r.churchName} for ${range} is attached: ${formatCents(Number(s.totalCents))} in all.`,
        'Keep it with your tax records.',
      ];
      return email.send({
        from: formatFrom(r.churchName, config.emailFrom),
        to: d.address,
        subject: `Your giving statement from ${r.churchName}`,
        html: `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">${lines
          .map((l) => `<p>${escapeHtml(l)}</p>`)
          .join('')}</body></html>`,
        text: `${lines.join('\n\n')}\n`,
        headers: {},
        attachments: [
          {
            fileName: `giving-statement-${r.fromDate}-to-${r.toDate}.pdf`,
            contentType: 'application/pdf',
            content: s.pdf,
          },
        ],
        // The same id on every try of one message: a receiver can drop a duplicate.
        messageId: `statement-${d.id}.${d.token.slice(0, 12)}@${host()}`,
        meta: { userId: r.userId, deliveryId: d.id },
      });
    },
    async finish(runId) {
      await db
        .updateTable('givingStatementRuns')
        .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date() })
        .where('id', '=', runId)
        .where('status', '=', 'sending')
        .execute();
    },
  };
}

/** The 'giving-statement-deliver' job: email a run's statements; come back later for retries. */
const STATEMENT_JOB = { name: 'giving-statement-deliver', payload: (runId: number) => ({ runId }) } as const;

export async function deliverStatements(deps: DeliveryDeps, runId: number): Promise<RunResult> {
  return (await deliverGroup(deps, [statementDriver(deps)], runId, STATEMENT_JOB))[0]!;
}

/** Part of the sweep: runs with statements a dead worker left (or a lost job), queued again. */
export async function sweepStatementDeliveries(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, STATEMENT_DELIVERIES, STATEMENT_JOB, opts);
}

// ---- The donor's own (portal)

/** The statements of a person (their contacts in the portal), newest run first. */
export async function statementsOfDonor(db: Db, contactIds: number[]) {
  if (contactIds.length === 0) return [];
  return db
    .selectFrom('givingStatements as s')
    .innerJoin('givingStatementRuns as r', 'r.id', 's.runId')
    .select(['s.id', 'r.fromDate', 'r.toDate', 's.totalCents', 's.giftCount'])
    .where('s.contactId', 'in', contactIds)
    .where('s.pdf', 'is not', null)
    .where('r.status', 'in', ['sending', 'done'])
    .orderBy('r.id', 'desc')
    .limit(50)
    .execute();
}

/** One of the person's statements as a PDF; null when it is not theirs. */
export async function donorStatementPdf(db: Db, contactIds: number[], statementId: number) {
  if (contactIds.length === 0) return null;
  const s = await db
    .selectFrom('givingStatements as s')
    .innerJoin('givingStatementRuns as r', 'r.id', 's.runId')
    .select(['s.pdf', 'r.fromDate', 'r.toDate'])
    .where('s.id', '=', statementId)
    .where('s.contactId', 'in', contactIds)
    .where('r.status', 'in', ['sending', 'done'])
    .executeTakeFirst();
  if (!s?.pdf) return null;
  return { fileName: `giving-statement-${s.fromDate}-to-${s.toDate}.pdf`, pdf: s.pdf };
}
