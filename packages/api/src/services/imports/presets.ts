import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { importPresetInputSchema, importPresetSchema } from '../../schemas/imports.js';
import { conflict, isUniqueViolation } from '../../errors.js';

/** A church's saved column mappings for a generic CSV: which of the file's columns is which field. */

type PresetOut = z.input<typeof importPresetSchema>;

export async function listImportPresets(db: Db, tenantId: number): Promise<PresetOut[]> {
  const rows = await db
    .selectFrom('importPresets')
    .select(['id', 'name', 'kind', 'mapping'])
    .where('userId', '=', tenantId)
    .orderBy('name')
    .execute();
  return rows;
}

export async function saveImportPreset(
  db: Db,
  tenantId: number,
  input: z.output<typeof importPresetInputSchema>,
): Promise<PresetOut> {
  const mapping = Object.fromEntries(Object.entries(input.mapping).filter(([, col]) => col));
  try {
    return await db
      .insertInto('importPresets')
      .values({ userId: tenantId, name: input.name, kind: input.kind, mapping: JSON.stringify(mapping) })
      .returning(['id', 'name', 'kind', 'mapping'])
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A preset with this name already exists', 'name');
    throw err;
  }
}
