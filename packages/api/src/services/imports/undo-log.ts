import type { Selectable } from 'kysely';
import type { Database, Db } from '@lampstand/db';

/**
 * An import's undo log (`import_changes`): what a batch created and the before-image of what it
 * changed, gathered as the batch writes and inserted in the batch's own transaction (a batch rolled
 * back leaves no entry behind). Undo (undo.ts) reads it back.
 */

/** The tables an import's rows are logged from (the table's check constraint, migration 0133). */
export type UndoTable = Selectable<Database['importChanges']>['tableName'];

type Values = Record<string, unknown>;

interface Entry {
  table: UndoTable;
  rowId: number;
  before: Values | null;
  after: Values | null;
}

export class UndoLog {
  private entries: Entry[] = [];
  constructor(
    readonly importId: number,
    readonly tenantId: number,
  ) {}

  created(table: UndoTable, rowId: number): void {
    this.entries.push({ table, rowId, before: null, after: null });
  }

  /** Only the fields the import wrote: each as it was (`before`) and as the import left it (`after`). */
  changed(table: UndoTable, rowId: number, before: Values, after: Values): void {
    this.entries.push({ table, rowId, before: stamp(before), after: stamp(after) });
  }

  /** Write what was gathered, in the batch's transaction, and start again. */
  async flush(trx: Db): Promise<void> {
    const entries = this.entries;
    this.entries = [];
    for (let i = 0; i < entries.length; i += 1000) {
      await trx
        .insertInto('importChanges')
        .values(
          entries.slice(i, i + 1000).map((e) => ({
            userId: this.tenantId,
            importId: this.importId,
            tableName: e.table,
            rowId: e.rowId,
            action: e.before ? 'changed' : 'created',
            before: e.before ? JSON.stringify(e.before) : null,
            after: e.after ? JSON.stringify(e.after) : null,
          })),
        )
        .execute();
    }
  }
}

/** A value as the log keeps it (JSON): times as ISO strings, so a value read back compares equal. */
export const logged = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : (v ?? null));

const stamp = (values: Values): Values => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, logged(v)]));
