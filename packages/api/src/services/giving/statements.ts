import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { conflict, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type {
  startStatementsSchema,
  statementPreviewSchema,
  statementRunSchema,
} from '../../schemas/giving-statements.js';
import { DELIVERY_KIND_RULES, skipReasonSql } from '../delivery/contact-rule.js';
import { formatCents } from '../../shared/giving.js';
import { isSent } from '../delivery/status.js';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { escapeHtml } from '../../render/html.js';
import { formatStatementDate } from './statement-pdf.js';
import { churchOf, donorEmail, donorsInRange } from './statements-build.js';

type StatementRun = z.input<typeof statementRunSchema>;

/**
 * Giving statements. A run covers a date range: the 'giving-statements-build' job
 * makes one statement per donor (a contact with completed gifts dated in the range, in the
 * church's time zone), its PDF built and stored 50 at a time (the run's done of total is the
 * progress), then queues each statement with an email address as a delivery of kind
 * 'giving-statement' of the one engine (one per (run, donor): a unique index) and puts the others'
 * in one PDF to print. A job that dies is run again by pg-boss and goes on where it stopped.
 */

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
                               (${skipReasonSql(tenantId, { channel: 'email', ...DELIVERY_KIND_RULES['giving-statement'] }, donorEmail)}) is not null as suppressed) e`.execute(
    db,
  );
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
      const { locale } = await churchOf(db, r.userId);
      const range = `${formatStatementDate(r.fromDate, { locale })} – ${formatStatementDate(r.toDate, { locale })}`;
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
