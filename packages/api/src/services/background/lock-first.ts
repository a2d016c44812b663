import { sql, type Db } from '@lampstand/db';

/**
 * Locks, in id order, the active journey enrolments of a journey or of people, for a write that is
 * about to reach them through that journey or person (deleting a journey, archiving it, waking
 * enrolments for a goal; and, through `lockPeopleWorkFirst`, deleting or merging people and undoing
 * the import that brought them in). Call it in the write's transaction before it locks the
 * journey's or the person's row or updates the enrolments.
 *
 * The journey runner locks a group's enrolments and then, writing a step's delivery or a tag,
 * reaches the journey's and the person's rows; the recurring-gifts charge locks a schedule and then
 * writes a gift that names the donor. A write that locked the person (or the journey) first and then
 * reached a row such work held would wait for the work while the work waited for it: a deadlock,
 * which PostgreSQL ends by failing one of the two (a 500 for the person deleting or merging).
 * Taking those rows first, the write waits for the work instead, and work that comes after finds
 * what the write left. In id order, as the runner takes them, so two such writers never hold each
 * other's rows.
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
    .$if('contactIds' in of, (q) => q.where(people((of as { contactIds: number[] }).contactIds)))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * What background work holds of these people, locked first (see `lockEnrollmentsFirst`): their
 * active journey enrolments, then their recurring gifts, then their text conversations, for a write
 * about to delete or merge them. A reply (`sendReply`) and an incoming text (`processTexts`) lock a
 * conversation and then write what names its person (the reply's delivery, a keyword's tag).
 */
export async function lockPeopleWorkFirst(trx: Db, tenantId: number, contactIds: number[]): Promise<void> {
  if (contactIds.length === 0) return;
  await lockEnrollmentsFirst(trx, tenantId, { contactIds });
  for (const table of ['giftSchedules', 'conversations'] as const)
    await trx
      .selectFrom(table)
      .select('id')
      .where('userId', '=', tenantId)
      .where(people(contactIds))
      .orderBy('id')
      .forUpdate()
      .execute();
}

/** One array parameter, however many people (an import's undo names thousands). */
const people = (contactIds: number[]) => sql<boolean>`contact_id = any(${contactIds}::int[])`;
