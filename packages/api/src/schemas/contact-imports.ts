import { z } from 'zod';
import { idSchema } from './contacts.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';

/** Contact fields a CSV column can be mapped to, with the labels the mapping screen shows. */
export const IMPORT_FIELDS = [
  { value: 'firstName', label: 'First Name' },
  { value: 'lastName', label: 'Last Name' },
  { value: 'email', label: 'Email' },
  { value: 'phone', label: 'Phone Number' },
  { value: 'countryCode', label: 'Country Code' },
  { value: 'dateOfBirth', label: 'Date of Birth' },
  { value: 'tags', label: 'Tags' },
  { value: 'notes', label: 'Notes' },
  { value: 'isChurchMember', label: 'Church Member' },
  { value: 'isBaptised', label: 'Baptised' },
  { value: 'isSeeker', label: 'Seeker' },
  { value: 'isServiceStaff', label: 'Service Staff' },
  { value: 'staffRole', label: 'Staff Role' },
  { value: 'wwccNumber', label: 'WWCC Number' },
  { value: 'website', label: 'Website' },
  { value: 'address', label: 'Address' },
  { value: 'city', label: 'City' },
  { value: 'state', label: 'State' },
  { value: 'country', label: 'Country' },
  { value: 'postalCode', label: 'Postal Code' },
  { value: 'emailConsent', label: 'Email Consent' },
  { value: 'smsConsent', label: 'SMS Consent' },
  { value: 'household', label: 'Household' },
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number]['value'];
export const importFieldSchema = z.enum(IMPORT_FIELDS.map((f) => f.value) as [ImportField, ...ImportField[]]);

/** 20 MiB of CSV: about 150,000 typical rows. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export const uploadImportSchema = z.object({
  fileName: z
    .string()
    .trim()
    .min(1, 'Please choose a CSV file')
    .max(255)
    .refine(isCleanText, notAllowedMessage('File name')),
  csv: z
    .string({ error: 'Please choose a CSV file' })
    .min(1, 'The file is empty')
    .max(MAX_IMPORT_BYTES, 'The file is larger than 20 MB')
    .refine(isCleanText, notAllowedMessage('The file')),
});

/** Column header → field (columns not named are ignored). */
export const importMappingSchema = z
  .record(z.string().max(500).refine(isCleanText, notAllowedMessage('Column')), importFieldSchema.or(z.literal('')))
  .refine((m) => Object.keys(m).length <= 500, { message: 'At most 500 columns' })
  .transform((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== '')) as Record<string, ImportField>)
  .refine((m) => Object.values(m).includes('firstName') && Object.values(m).includes('lastName'), {
    message: 'Map a column to First Name and one to Last Name',
  })
  .refine((m) => Object.values(m).includes('email') || Object.values(m).includes('phone'), {
    message: 'Map a column to Email or Phone Number',
  })
  .refine((m) => new Set(Object.values(m)).size === Object.values(m).length, {
    message: 'Each field can be mapped from one column only',
  });

export const startImportSchema = z.object({
  id: idSchema('Import ID'),
  mapping: importMappingSchema,
  listId: z.preprocess((v) => (v === '' || v === null ? undefined : v), idSchema('List ID').optional()),
});

export const importIdSchema = z.object({ id: idSchema('Import ID') });

/**
 * A household's most members: past this many rows with one value (a column of surnames, say), the
 * rest are not linked, so a mistaken column cannot make thousands of links.
 */
export const MAX_HOUSEHOLD = 20;

/** How many families a household column would make, for the mapping screen to say before the import. */
export const importHouseholdsSchema = z.object({
  id: idSchema('Import ID'),
  column: z.string().max(500).refine(isCleanText, notAllowedMessage('Column')),
});
export const importHouseholdsResultSchema = z.object({
  /** Households of 2 or more rows: each becomes one family. */
  households: z.number().int(),
  /** The rows linked in those households. */
  people: z.number().int(),
  /** Households with more rows than a household's most members: only the first ones are linked. */
  tooLarge: z.number().int(),
});
export type ImportHouseholds = z.infer<typeof importHouseholdsResultSchema>;

export const importStatusSchema = z.enum(['uploaded', 'queued', 'running', 'completed', 'failed']);
export const contactImportSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  status: importStatusSchema,
  headers: z.array(z.string()),
  /** The first rows, as parsed, for the preview. */
  preview: z.array(z.array(z.string())),
  suggestedMapping: z.record(z.string(), z.string()),
  mapping: z.record(z.string(), z.string()).nullable(),
  listId: z.number().int().nullable(),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  createdCount: z.number().int(),
  updatedCount: z.number().int(),
  skipped: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ContactImport = z.infer<typeof contactImportSchema>;
