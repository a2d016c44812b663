import { z } from 'zod';
import { idSchema } from './common.js';

/** Moving in from another system: an upload's dry run, its commit, and the saved column mappings. */

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** A finished import can be undone for this many days. */
export const UNDO_DAYS = 7;
export const IMPORT_TOO_LARGE_MESSAGE = 'The file is over 50 MB; export a shorter date range and upload each part';

export const importSourceIdSchema = z.enum([
  'planning-center-people',
  'planning-center-donations',
  'breeze-people',
  'breeze-contributions',
  'churchcrm-people',
  'elvanto-people',
  'planning-center-recurring',
  'breeze-recurring',
  'preset',
  'lampstand-export',
]);
export type ImportSourceId = z.infer<typeof importSourceIdSchema>;

export const personPresetFields = [
  'externalId',
  'firstName',
  'lastName',
  'birthDate',
  'email',
  'phone',
  'householdId',
  'householdName',
  'primary',
  'child',
  'emailOptIn',
  'smsOptIn',
] as const;
export const giftPresetFields = [
  'externalId',
  'personId',
  'firstName',
  'lastName',
  'email',
  'date',
  'fund',
  'amount',
  'method',
  'checkNumber',
] as const;
export const presetFieldSchema = z.enum([...new Set([...personPresetFields, ...giftPresetFields])] as [
  string,
  ...string[],
]);
export type PresetField = (typeof personPresetFields)[number] | (typeof giftPresetFields)[number];

/** What wins for a matched person, per field: ours, the file's, or the file's where ours is empty. */
export const fieldPolicySchema = z.enum(['keep', 'take', 'fill']);
export const policyFields = ['firstName', 'lastName', 'email', 'phone', 'birthDate'] as const;
export type PolicyField = (typeof policyFields)[number];
export const importPolicySchema = z
  .strictObject({
    firstName: fieldPolicySchema.optional(),
    lastName: fieldPolicySchema.optional(),
    email: fieldPolicySchema.optional(),
    phone: fieldPolicySchema.optional(),
    birthDate: fieldPolicySchema.optional(),
  })
  .default({});
export type ImportPolicy = z.output<typeof importPolicySchema>;

export const importProblemSchema = z.object({
  line: z.number().int(),
  column: z.string().nullable(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const fundYearTotalSchema = z.object({
  fund: z.string(),
  year: z.number().int(),
  count: z.number().int(),
  cents: z.number().int(),
});

export const recurringPreviewSchema = z.object({
  /** Active recurring gifts in the file (one per giver and schedule, its funds together). */
  count: z.number().int(),
  donorsMatched: z.number().int(),
  donorsNotFound: z.number().int(),
  /** Rows of gifts the old system had already stopped (cancelled, expired): left out. */
  inactive: z.number().int(),
  monthlyCents: z.number().int(),
  funds: z.array(z.object({ name: z.string(), isNew: z.boolean(), monthlyCents: z.number().int() })),
});

export const importPreviewSchema = z.object({
  rows: z.number().int(),
  people: z
    .object({
      new: z.number().int(),
      matched: z.number().int(),
      changed: z.number().int(),
      skipped: z.number().int(),
      households: z.number().int(),
      children: z.number().int(),
      /** The first matched people the import would change, and which of their fields. */
      changes: z.array(z.object({ line: z.number().int(), name: z.string(), fields: z.array(z.string()) })),
    })
    .nullable(),
  gifts: z
    .object({
      count: z.number().int(),
      refunds: z.number().int(),
      totalCents: z.number().int(),
      donorsMatched: z.number().int(),
      donorsNotFound: z.number().int(),
      funds: z.array(z.object({ name: z.string(), isNew: z.boolean() })),
      totals: z.array(fundYearTotalSchema),
    })
    .nullable(),
  /** A recurring-gift export: the givers to bring back, and what they gave per month there. */
  recurring: recurringPreviewSchema.nullable().optional(),
  problems: z.array(importProblemSchema),
  /** A Lampstand export: the church it was made from, and the rows each table brings. */
  church: z
    .object({
      name: z.string(),
      exportedAt: z.string(),
      tables: z.array(z.object({ name: z.string(), label: z.string(), rows: z.number().int() })),
      files: z.number().int(),
      notMoved: z.array(z.object({ name: z.string(), reason: z.string() })),
    })
    .nullable()
    .optional(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importReportSchema = z.object({
  people: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }).nullable(),
  /** After a gifts file: each fund and year, the file's total beside the ledger's for this import. */
  totals: z.array(
    z.object({ fund: z.string(), year: z.number().int(), fileCents: z.number().int(), ledgerCents: z.number().int() }),
  ),
  fundsCreated: z.array(z.string()),
  /** After a recurring-gift file: the givers written, and how many entered the journey that asks them back. */
  recurring: z.object({ created: z.number().int(), enrolled: z.number().int() }).optional(),
  /** After a Lampstand export: the rows written per table and the files copied. */
  church: z
    .object({ tables: z.array(z.object({ name: z.string(), rows: z.number().int() })), files: z.number().int() })
    .optional(),
  /** After an undo: what it took back, and the changes it left because someone edited them since. */
  undone: z
    .object({
      contactsRemoved: z.number().int(),
      contactsRestored: z.number().int(),
      contactsKept: z.number().int(),
      fieldsKept: z.number().int(),
      giftsRemoved: z.number().int(),
      giftsCents: z.number().int(),
      fundsRemoved: z.array(z.string()),
    })
    .optional(),
});

export const importSchema = z.object({
  id: idSchema(),
  fileName: z.string(),
  source: importSourceIdSchema,
  sourceLabel: z.string(),
  kind: z.enum(['people', 'gifts', 'recurring', 'church']),
  status: z.enum(['previewed', 'queued', 'running', 'completed', 'failed', 'undone']),
  preview: importPreviewSchema,
  policy: z.record(z.string(), fieldPolicySchema),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  report: importReportSchema.nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Until when a completed import can be undone; null when it cannot be (not completed). */
  undoUntil: z.string().nullable(),
  undoneAt: z.string().nullable(),
});
export type ImportOut = z.input<typeof importSchema>;

export const uploadMoveInSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  csv: z.string().max(MAX_IMPORT_BYTES, IMPORT_TOO_LARGE_MESSAGE),
  source: importSourceIdSchema.exclude(['preset', 'lampstand-export']).optional(),
  presetId: idSchema().optional(),
});
export const importIdInputSchema = z.object({ id: idSchema() });
export const commitImportSchema = z.object({ id: idSchema(), policy: importPolicySchema });

export const importPresetInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the preset').max(100),
  kind: z.enum(['people', 'gifts']),
  mapping: z.partialRecord(presetFieldSchema, z.string().trim().max(200)),
});
export const importPresetSchema = importPresetInputSchema.extend({ id: idSchema() });
