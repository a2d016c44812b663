import { z } from 'zod';
import {
  boundedArraySchema,
  idSchema,
  isoTimestamp,
  optionalTextSchema,
  requiredTextSchema,
  textSchema,
  urlSchema,
} from '../common.js';
import { isCleanText } from '../../shared/text.js';
import { dateSchema, keySchema } from './fields.js';

// ---- Songs ----

const songFields = {
  title: requiredTextSchema('Title', 200),
  artist: optionalTextSchema('Artist', 200).optional(),
  lyrics: optionalTextSchema('Lyrics', 20000).optional(),
  chords: optionalTextSchema('Chords', 20000).optional(),
  keySignature: keySchema.optional(),
  tempo: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : v),
      z.coerce
        .number({ error: 'Tempo must be between 20 and 300' })
        .int('Tempo must be a whole number')
        .min(20, 'Tempo must be between 20 and 300')
        .max(300, 'Tempo must be between 20 and 300')
        .nullable(),
    )
    .optional(),
  timeSignature: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : v),
      z
        .string()
        .regex(/^(1[0-6]|[1-9])\/(1|2|4|8|16)$/, 'Time signature must look like 4/4 or 6/8')
        .nullable(),
    )
    .optional(),
  ccliNumber: z
    .preprocess(
      (v) => (v === '' || v === undefined ? null : typeof v === 'number' ? String(v) : v),
      z
        .string()
        .regex(/^\d{1,10}$/, 'CCLI number must be digits only')
        .nullable(),
    )
    .optional(),
  notes: optionalTextSchema('Notes', 5000).optional(),
  tags: boundedArraySchema(requiredTextSchema('Tag', 40), 'Tags', 30).default([]),
  audioUrl: z
    .preprocess((v) => (v === '' || v === undefined ? null : v), urlSchema('Audio URL must be a valid URL').nullable())
    .optional(),
};
export const createSongSchema = z.object(songFields);
export const updateSongSchema = z.object({
  id: idSchema('Song ID'),
  ...songFields,
  title: songFields.title.optional(),
  tags: boundedArraySchema(requiredTextSchema('Tag', 40), 'Tags', 30).optional(),
});
export const songIdSchema = z.object({ id: idSchema('Song ID') });
export const listSongsSchema = z
  .object({ search: textSchema('Search', 200).optional(), tag: textSchema('Tag', 40).optional() })
  .default({});
export const songSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  lyrics: z.string().nullable(),
  chords: z.string().nullable(),
  keySignature: z.string().nullable(),
  tempo: z.number().int().nullable(),
  timeSignature: z.string().nullable(),
  ccliNumber: z.string().nullable(),
  notes: z.string().nullable(),
  tags: z.array(z.string()),
  audioUrl: z.string().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /** The date of the latest plan (up to today) that used it. */
  lastUsed: z.string().nullable(),
  /** Plans in the last 90 days that used it. */
  usesLast90Days: z.number().int(),
  /** The date of the next plan (after today) that has it. */
  nextPlanned: z.string().nullable().default(null),
});
export type Song = z.infer<typeof songSchema>;
// ---- Song files and reports ----

/** A ChordPro file's largest size. */
export const MAX_CHORDPRO_BYTES = 1024 * 1024;
const chordProFileSchema = z
  .object({
    name: requiredTextSchema('File name', 200),
    content: z.string({ error: 'File content must be text' }),
  })
  .superRefine((f, ctx) => {
    if (new TextEncoder().encode(f.content).length > MAX_CHORDPRO_BYTES)
      ctx.addIssue({ code: 'custom', path: ['content'], message: `${f.name} is larger than 1 MB` });
    else if (!isCleanText(f.content) || f.content.includes('\uFFFD'))
      ctx.addIssue({ code: 'custom', path: ['content'], message: `${f.name} is not a text file` });
  });
export const importSongsSchema = z.object({
  files: z
    .array(chordProFileSchema)
    .min(1, 'Choose at least one ChordPro file')
    .max(20, 'At most 20 files can be imported at once'),
});
export const importSongsResultSchema = z.object({
  songs: z.array(z.object({ id: z.number().int(), title: z.string() })),
});

/** A file sent as it is (REST answers with its bytes and type; tRPC with this object). */
export const songFileSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  text: z.string().optional(),
  base64: z.string().optional(),
});

export const songUsageInputSchema = z
  .object({
    from: dateSchema('From'),
    to: dateSchema('To'),
    /** 'csv' answers with the CSV file (REST: also `Accept: text/csv`). */
    format: z.enum(['json', 'csv'], { error: 'Format must be json or csv' }).default('json'),
  })
  .superRefine((v, ctx) => {
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
  });
export const songUsageRowSchema = z.object({
  songId: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  ccliNumber: z.string().nullable(),
  uses: z.number().int().describe('Services that used the song: a plan held at two times counts twice'),
  plans: z.number().int(),
  firstUsed: z.string(),
  lastUsed: z.string(),
});
export const songUsageOutputSchema = z.union([
  z.object({ from: z.string(), to: z.string(), songs: z.array(songUsageRowSchema) }),
  z.object({ fileName: z.string(), csv: z.string() }),
]);
