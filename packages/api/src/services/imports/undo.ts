import { sql, type Db } from '@lampstand/db';
import { UNDO_DAYS, type ImportOut } from '../../schemas/imports.js';
import { canUndoKind, undoUntil } from './undo-window.js';
import type { NewEvent } from '../../schemas/events.js';
import { conflict } from '../../errors.js';
import { findChurchRow } from '../church-rows.js';
import { recordEvents } from '../events/record.js';
import { getMoveIn, importRunning } from './imports.js';
import type { UndoTable } from './undo-log.js';
import { undoPeople, type PeopleUndone } from './undo-people.js';

/**
 * Undo a move-in import, for 7 days after it finished: everything it created removed, everything
 * it changed restored — a field only while it still holds what the import wrote, so an edit staff
 * made since is kept. One transaction, in set-based statements a few per thousand rows (the
 * benchmark's 50,000 gifts are one delete): the church sees the import whole or gone, never half.
 *
 * The gifts it wrote leave the ledger with their lines (an imported gift never had a receipt, a
 * donation event or a journey); a fund it made goes too unless a gift or a recurring gift outside
 * the import uses it. `import.undone` in the one event log says what was taken back.
 */

const MISSING = 'Import not found';

const STATUS_WORDS: Record<string, string> = {
  previewed: 'not confirmed yet',
  queued: 'waiting to start',
  running: 'still running',
  failed: 'stopped before it finished',
};

/** The ids of the rows of `table` the import created, as a subquery. */
const createdBy = (trx: Db, importId: number, table: UndoTable) =>
  trx
    .selectFrom('importChanges')
    .select('rowId')
    .where('importId', '=', importId)
    .where('tableName', '=', table)
    .where('action', '=', 'created');

/** Gifts of a donations import still in the ledger that are given by contacts this import made. */
async function laterGiftsImport(trx: Db, tenantId: number, importId: number) {
  return trx
    .selectFrom('gifts as g')
    .innerJoin('imports as i', 'i.id', 'g.importId')
    .select('i.fileName')
    .where('g.userId', '=', tenantId)
    .where('i.status', '=', 'completed')
    .where('g.contactId', 'in', createdBy(trx, importId, 'contacts'))
    .limit(1)
    .executeTakeFirst();
}

async function undoGifts(trx: Db, tenantId: number, importId: number) {
  const sum = await trx
    .selectFrom('gifts')
    .select([
      (eb) => eb.fn.countAll<string>().as('n'),
      sql<string>`coalesce(sum(amount_cents) filter (where status = 'completed'), 0)`.as('cents'),
    ])
    .where('userId', '=', tenantId)
    .where('importId', '=', importId)
    .executeTakeFirstOrThrow();
  await trx.deleteFrom('gifts').where('userId', '=', tenantId).where('importId', '=', importId).execute();
  const funds = await trx
    .deleteFrom('funds')
    .where('userId', '=', tenantId)
    .where('id', 'in', createdBy(trx, importId, 'funds'))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('giftLines')
            .select('giftLines.id')
            .whereRef('giftLines.fundId', '=', 'funds.id')
            .unionAll(
              eb
                .selectFrom('giftScheduleLines')
                .select('giftScheduleLines.id')
                .whereRef('giftScheduleLines.fundId', '=', 'funds.id'),
            ),
        ),
      ),
    )
    .returning('name')
    .execute();
  return { giftsRemoved: Number(sum.n), giftsCents: Number(sum.cents), fundsRemoved: funds.map((f) => f.name) };
}

export async function undoMoveIn(
  db: Db,
  tenantId: number,
  input: { id: number; undoneBy?: number | null; now?: Date },
): Promise<ImportOut> {
  const now = input.now ?? new Date();
  await db.transaction().execute(async (trx) => {
    const imp = await findChurchRow(trx, tenantId, {
      table: 'imports',
      id: input.id,
      missing: MISSING,
      columns: ['id', 'status', 'kind', 'fileName', 'finishedAt', 'report', 'createdAt'],
      forUpdate: true,
    });
    const kind = imp.kind;
    if (!canUndoKind(kind))
      throw conflict(
        kind === 'recurring'
          ? 'A recurring givers import cannot be undone'
          : 'Moving a Lampstand export into a church cannot be undone',
      );
    if (imp.status === 'undone') throw conflict('This import has already been undone');
    if (imp.status !== 'completed')
      throw conflict(`Only a finished import can be undone; this one is ${STATUS_WORDS[imp.status] ?? imp.status}`);
    if (!imp.finishedAt || now > undoUntil(imp.finishedAt))
      throw conflict(`An import can be undone for ${UNDO_DAYS} days after it finished; this one finished longer ago`);
    // An import that came with a Lampstand export has no undo log here (it names the old church's rows).
    const moved = await trx
      .selectFrom('imports')
      .select('id')
      .where('userId', '=', tenantId)
      .where('kind', '=', 'church')
      .where('status', '=', 'completed')
      .where('createdAt', '>', imp.createdAt)
      .executeTakeFirst();
    if (moved)
      throw conflict('This import came with the church’s Lampstand export: it can be undone only where it was made');
    if (await importRunning(trx, tenantId))
      throw conflict('Another import is running for this church; undo this one when it has finished');

    const events: NewEvent[] = [];
    let people: PeopleUndone = { contactsRemoved: 0, contactsRestored: 0, contactsKept: 0, fieldsKept: 0 };
    let gifts = { giftsRemoved: 0, giftsCents: 0, fundsRemoved: [] as string[] };
    if (kind === 'people') {
      const later = await laterGiftsImport(trx, tenantId, imp.id);
      if (later)
        throw conflict(
          `Undo the donations import '${later.fileName}' first: its gifts are given by people this import added`,
        );
      people = await undoPeople(trx, tenantId, imp.id, events);
    } else gifts = await undoGifts(trx, tenantId, imp.id);

    const undone = { ...people, ...gifts };
    await trx
      .updateTable('imports')
      .set({
        status: 'undone',
        undoneAt: now,
        undoneBy: input.undoneBy ?? null,
        report: JSON.stringify({ ...(imp.report ?? {}), undone }),
      })
      .where('id', '=', imp.id)
      .execute();
    events.push({
      type: 'import.undone',
      payload: {
        import: { id: imp.id, name: imp.fileName },
        kind,
        contactsRemoved: people.contactsRemoved,
        contactsRestored: people.contactsRestored,
        ...gifts,
      },
    });
    await recordEvents(trx, tenantId, events);
  });
  return getMoveIn(db, tenantId, input.id);
}
