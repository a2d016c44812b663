import { z } from 'zod';
import { idSchema, isoTimestamp } from './common.js';
import { dateSchema } from './giving.js';

// Giving statements. Zod only: the staff screen reads the same schemas.

/** The longest range one run covers: ten years and their leap days. */
export const MAX_STATEMENT_DAYS = 3653;

const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

const rangeIssues = (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
  else if (dayNumber(v.to) - dayNumber(v.from) >= MAX_STATEMENT_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'A statement covers at most ten years' });
};

export const startStatementsSchema = z
  .object({ from: dateSchema('From'), to: dateSchema('To') })
  .superRefine(rangeIssues);
export type StartStatementsInput = z.input<typeof startStatementsSchema>;

/**
 * One donor's statement for staff (the contact's Giving tab), for the dates asked; without them,
 * this calendar year (in the church's time zone).
 */
export const donorStatementSchema = z
  .object({ contactId: idSchema('Contact ID'), from: dateSchema('From').optional(), to: dateSchema('To').optional() })
  .superRefine((v, ctx) => {
    if (v.from && v.to) rangeIssues({ from: v.from, to: v.to }, ctx);
    else if (v.from || v.to)
      ctx.addIssue({ code: 'custom', path: [v.from ? 'to' : 'from'], message: 'Give both From and To, or neither' });
  });

export const statementRunIdSchema = z.object({ runId: idSchema('Statement run') });

export const STATEMENT_RUN_STATUSES = ['queued', 'building', 'sending', 'done', 'failed'] as const;

/** A donor the report names: no email (their statement is in the PDF to print), no postal address, or both. */
export const statementDonorSchema = z.object({
  contactId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  totalCents: z.number().int(),
});

export const statementRunSchema = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.string(),
  status: z.enum(STATEMENT_RUN_STATUSES),
  /** Donors with a statement, and how many are built so far (the progress bar). */
  total: z.number().int(),
  done: z.number().int(),
  /** Statements to email, and how many the engine has sent. */
  toEmail: z.number().int(),
  emailed: z.number().int(),
  /** Statements in the combined PDF to print (donors without an email, or with a suppressed one). */
  toPrint: z.number().int(),
  /** Donors whose email address is on the suppression list: not emailed, theirs is printed. */
  suppressed: z.number().int(),
  /** Every donor's statements together, whole cents. */
  totalCents: z.number().int(),
  withoutEmail: z.array(statementDonorSchema),
  withoutAddress: z.array(statementDonorSchema),
  error: z.string().nullable(),
  createdAt: isoTimestamp,
  finishedAt: isoTimestamp.nullable(),
});
export type StatementRun = z.output<typeof statementRunSchema>;

/** What a run of these dates would do, asked before it starts. */
export const statementPreviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Donors with a statement. */
  donors: z.number().int(),
  /** Donors emailed their statement. */
  toEmail: z.number().int(),
  /** Donors in the PDF to print instead (no email, or a suppressed one). */
  toPrint: z.number().int(),
  /** Suppressed email addresses among the donors: skipped. */
  suppressed: z.number().int(),
});

export const statementRunSummarySchema = statementRunSchema.pick({
  id: true,
  from: true,
  to: true,
  status: true,
  total: true,
  done: true,
  createdAt: true,
});

export const pdfFileSchema = z.object({
  fileName: z.string(),
  contentType: z.literal('application/pdf'),
  base64: z.string(),
});
