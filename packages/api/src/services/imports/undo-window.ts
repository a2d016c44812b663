import { UNDO_DAYS } from '../../schemas/imports.js';

/** Which imports can be undone, and until when (read by the import's output and by undo itself). */

const DAY_MS = 86_400_000;

/**
 * The kinds an undo can take back. A recurring givers file (its renewals, links and journey) and a
 * Lampstand export moved into a new church are not undone here.
 */
export const canUndoKind = (kind: string): kind is 'people' | 'gifts' => kind === 'people' || kind === 'gifts';

/** The last moment an import finished at `finishedAt` can be undone. */
export const undoUntil = (finishedAt: Date) => new Date(finishedAt.getTime() + UNDO_DAYS * DAY_MS);
