import { sql, type Db } from '@lampstand/db';

/**
 * Locks, in id order, the active journey enrolments a write is about to reach through a journey or
 * a person (deleting either, archiving a journey, merging a person into another, undoing the import
 * that brought people in, waking people's enrolments for a goal): call it in the write's
 * transaction before it locks the journey's or the person's row or updates the enrolments.
 *
 * The journey runner locks a group's enrolments first and then, writing a step's delivery or tag,
 * key-share locks or updates the journey's and the person's rows. A write that locked the person
 * (or the journey) first and then reached an enrolment a visit held would wait for the visit while
 * the visit waited for it: a deadlock, which PostgreSQL ends by failing one of the two (a 500 for
 * the person deleting or merging). Taking the enrolments first, the write waits for the visit
 * instead, and a visit that comes after finds what the write left (a lost claim, or an enrolment
 * gone). In id order, as the runner takes them, so two such writers never hold each other's rows.
 */
export async function lockEnrollmentsFirst(
  trx: Db,
  tenantId: number,
  of: { journeyId: number } | { contactIds: number[] },
): Promise<void> {
  if ('contactIds' in of && of.contactIds.length === 0) return;
  await trx
    .selectFrom('journeyEnrollments')
    .select('id')
    .where('userId', '=', tenantId)
    // Only an active enrolment is visited; a finished one is never locked by the runner.
    .where('status', '=', 'active')
    .$if('journeyId' in of, (q) => q.where('journeyId', '=', (of as { journeyId: number }).journeyId))
    // One array parameter, however many people (an import's undo names thousands).
    .$if('contactIds' in of, (q) =>
      q.where(sql<boolean>`contact_id = any(${(of as { contactIds: number[] }).contactIds}::int[])`),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
}
