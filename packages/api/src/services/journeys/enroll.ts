import { refreshStatistics, sql, type Db } from '@lampstand/db';
import type { RawBuilder } from 'kysely';
import type { NewEvent } from '../../schemas/events.js';
import { recordEvents, personOf } from '../events/record.js';
import { badRequest, notFound } from '../../errors.js';
import { findJourney, loadVersion, type JourneyDefinition, type JourneyRow } from './definitions.js';

/** The advisory lock of one journey's entries ('JE'): two enrolments of a person cannot race. */
const ENROLL_LOCK = 0x4a45_0001;

export interface EnrollOptions {
  now: Date;
  /** One trigger enrols a person once ('event:123', 'birthday:2026'). */
  triggerKey?: string | null;
  /**
   * Where the `journey.entered` events go: recorded at once (the default, last in the caller's
   * transaction), or added to this list for the caller to record last.
   */
  events?: NewEvent[];
}

/**
 * Enrols the church's contacts `candidates` (a query of contact ids, column `id`) into the journey's
 * current version as the entry rule allows: 'once' — never entered before; 'again_after' — not in
 * it now and last entered more than N days ago; 'every_time' — not in it now. Each entry is a
 * `journey.entered` event; the runner takes them from their first step at once. Returns how many
 * entered. In the caller's transaction.
 */
export async function enrollCandidates(
  trx: Db,
  journey: JourneyRow,
  d: JourneyDefinition,
  candidates: RawBuilder<unknown>,
  opts: EnrollOptions,
): Promise<number> {
  await sql`select pg_advisory_xact_lock(${ENROLL_LOCK}::int, ${journey.id}::int)`.execute(trx);
  const rule = d.entryRule;
  const blocked =
    rule.kind === 'once'
      ? sql`true`
      : rule.kind === 'again_after'
        ? sql`e.status = 'active' or e.entered_at > ${opts.now}::timestamptz - make_interval(days => ${rule.days})`
        : sql`e.status = 'active'`;
  const first = d.steps[0]?.id ?? null;
  const { rows } = await sql<{
    id: number;
    contactId: number;
    firstName: string;
    lastName: string;
    email: string | null;
    phone: string | null;
  }>`
    with cand as (select distinct id from (${candidates}) x),
    ins as (
      insert into journey_enrollments (user_id, journey_id, version, contact_id, current_step_id, next_run_at, entered_at, trigger_key)
      select ${journey.userId}, ${journey.id}, ${journey.currentVersion}, c.id, ${first}, ${opts.now}, ${opts.now}, ${opts.triggerKey ?? null}
      from cand join contacts c on c.id = cand.id and c.user_id = ${journey.userId}
      where not exists (
        select 1 from journey_enrollments e
        where e.journey_id = ${journey.id} and e.contact_id = c.id and not e.test and (${blocked})
      )
      order by c.id
      on conflict do nothing
      returning id, contact_id
    )
    select ins.id, ins.contact_id, c.first_name, c.last_name, c.email, c.phone
    from ins join contacts c on c.id = ins.contact_id order by ins.id`.execute(trx);
  const ref = { id: journey.id, name: journey.name };
  const events: NewEvent[] = rows.map((r) => ({
    type: 'journey.entered',
    contactId: r.contactId,
    payload: {
      person: personOf(r),
      journey: ref,
      enrollmentId: Number(r.id),
      version: journey.currentVersion,
      test: false,
    },
  }));
  if (opts.events) opts.events.push(...events);
  else await recordEvents(trx, journey.userId, events);
  return rows.length;
}

/**
 * 'Enrol people' (manual enrolment): chosen contacts, or everyone on a list, now, as the entry rule
 * allows. The journey must be active; contacts or a list of another church are a 404.
 */
export async function enrollInJourney(
  db: Db,
  tenantId: number,
  input: { id: number; contactIds?: number[]; listId?: number },
  now = new Date(),
): Promise<{ enrolled: number; skipped: number }> {
  const result = await db.transaction().execute(async (trx) => {
    const j = await findJourney(trx, tenantId, input.id);
    if (j.status !== 'active') throw badRequest('Activate the journey before enrolling people');
    const d = await loadVersion(trx, j, j.currentVersion);
    let candidates: RawBuilder<unknown>;
    let asked: number;
    if (input.listId !== undefined) {
      const list = await trx
        .selectFrom('contactLists')
        .select('id')
        .where('id', '=', input.listId)
        .where('userId', '=', tenantId)
        .executeTakeFirst();
      if (!list) throw notFound('List not found');
      candidates = sql`select contact_id as id from contacts_in_lists where user_id = ${tenantId} and list_id = ${input.listId}`;
      const n = await trx
        .selectFrom('contactsInLists')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('userId', '=', tenantId)
        .where('listId', '=', input.listId)
        .executeTakeFirstOrThrow();
      asked = Number(n.n);
    } else {
      const ids = [...new Set(input.contactIds ?? [])];
      const found = await trx
        .selectFrom('contacts')
        .select('id')
        .where('userId', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
      if (found.length !== ids.length) throw notFound('Contact not found');
      candidates = sql`select unnest(${ids}::int[]) as id`;
      asked = ids.length;
    }
    const enrolled = await enrollCandidates(trx, j, d, candidates, { now });
    return { enrolled, skipped: asked - enrolled };
  });
  if (result.enrolled >= ANALYZE_AFTER) await refreshStatistics(db, ['journey_enrollments']);
  return result;
}

/**
 * People enrolled at once from which the enrolments' statistics are refreshed at once: until then
 * the runner's claim of due enrolments was planned for the table before the enrolment, and read and
 * sorted every due enrolment to take 500 (~100 ms a claim at 100,000, `pnpm bench:journeys`).
 */
const ANALYZE_AFTER = 1000;

/**
 * 'Test this journey': one contact (or, with none, the account's own email address), whatever the
 * entry rule, marked as a test: waits last seconds instead of days, quiet hours do not hold it, and
 * it is not counted in the journey's figures. Works on a draft too.
 */
export async function testJourney(
  db: Db,
  tenantId: number,
  input: { id: number; contactId: number | null },
  now = new Date(),
): Promise<{ enrollmentId: number }> {
  return db.transaction().execute(async (trx) => {
    const j = await findJourney(trx, tenantId, input.id);
    if (j.status === 'archived') throw badRequest('An archived journey cannot be tested');
    const d = await loadVersion(trx, j, j.currentVersion);
    if (d.steps.length === 0) throw badRequest('The journey has no steps');
    let person: { firstName: string; lastName: string; email: string | null; phone: string | null };
    let testEmail: string | null = null;
    if (input.contactId !== null) {
      const c = await trx
        .selectFrom('contacts')
        .select(['firstName', 'lastName', 'email', 'phone'])
        .where('id', '=', input.contactId)
        .where('userId', '=', tenantId)
        .executeTakeFirst();
      if (!c) throw notFound('Contact not found');
      person = c;
    } else {
      const u = await trx
        .selectFrom('users')
        .select(['email', 'churchName'])
        .where('id', '=', tenantId)
        .executeTakeFirstOrThrow();
      testEmail = u.email;
      person = { firstName: u.churchName, lastName: '', email: u.email, phone: null };
    }
    const e = await trx
      .insertInto('journeyEnrollments')
      .values({
        userId: tenantId,
        journeyId: j.id,
        version: j.currentVersion,
        contactId: input.contactId,
        currentStepId: d.steps[0]!.id,
        nextRunAt: now,
        enteredAt: now,
        test: true,
        testEmail,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.contactId !== null) {
      await recordEvents(trx, tenantId, [
        {
          type: 'journey.entered',
          contactId: input.contactId,
          payload: {
            person: personOf(person),
            journey: { id: j.id, name: j.name },
            enrollmentId: Number(e.id),
            version: j.currentVersion,
            test: true,
          },
        },
      ]);
    }
    return { enrollmentId: Number(e.id) };
  });
}
