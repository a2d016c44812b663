import { sql, type Db } from '@lampstand/db';
import { JOURNEY_STARTERS } from '../../schemas/journeys.js';
import { journeyFieldsSchema } from '../../schemas/journeys.js';
import { AppError } from '../../errors.js';
import { RENEWAL_JOURNEY_NAME } from '../giving/renewals.js';
import { activateJourney, createJourney, loadVersion, type JourneyRow } from './definitions.js';
import { enrollCandidates } from './enroll.js';

/**
 * The journey that asks recurring givers back after a move: the church gets it (from its ready
 * starter, active) with its first recurring-gift import, and may edit, pause or archive it like any
 * journey; the import enrols the givers it found among the contacts.
 */

const starter = () => JOURNEY_STARTERS.find((s) => s.key === 'recurring-givers')!;

async function findRenewalJourney(db: Db, tenantId: number): Promise<JourneyRow | undefined> {
  return db
    .selectFrom('journeys')
    .selectAll()
    .where('userId', '=', tenantId)
    .where('name', '=', RENEWAL_JOURNEY_NAME)
    .where('status', '!=', 'archived')
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Before an import writes its givers: the church's journey, made and started from the starter when
 * it has none (a journey the church paused stays paused; one that cannot start stays a draft).
 */
export async function ensureRenewalJourney(db: Db, tenantId: number): Promise<void> {
  if (await findRenewalJourney(db, tenantId)) return;
  const made = await createJourney(db, tenantId, journeyFieldsSchema.parse(starter().fields));
  try {
    await activateJourney(db, tenantId, { id: made.id });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}

/** The givers (contacts) enter the journey when it is active; how many entered. In the caller's transaction. */
export async function enrollRenewalJourney(trx: Db, tenantId: number, contactIds: number[]): Promise<number> {
  const j = await findRenewalJourney(trx, tenantId);
  if (!j || j.status !== 'active') return 0;
  const d = await loadVersion(trx, j, j.currentVersion);
  return enrollCandidates(trx, j, d, sql`select unnest(${[...new Set(contactIds)]}::int[]) as id`, {
    now: new Date(),
  });
}
