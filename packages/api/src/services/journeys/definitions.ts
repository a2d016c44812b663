import { sql, type Db } from '@lampstand/db';
import { type JourneyFields, type journeyOutputSchema, type JourneyStatus } from '../../schemas/journeys.js';
import { describeJourney, describeTrigger } from '../../shared/journeys.js';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import { peopleOf, recordEvents } from '../events/record.js';
import { definitionOf, parseDefinition } from './journey-definition.js';
import { assertRefs, findRefs, namesOf, refsOf, type Refs } from './references.js';
import { checkActivation } from './activation.js';
import { logEnd } from '../events/log.js';
import { lockEnrollmentsFirst } from '../background/lock-first.js';
import { deleteChurchRow } from '../church-rows.js';

export { parseDefinition, stepById, type JourneyDefinition } from './journey-definition.js';

type JourneyOutput = z.input<typeof journeyOutputSchema>;

export interface JourneyRow {
  id: number;
  userId: number;
  name: string;
  description: string;
  status: JourneyStatus;
  currentVersion: number;
  activatedAt: Date | null;
  activatedEventId: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The journey `id` of the church (locked with `forUpdate`), or a 404. */
export async function findJourney(db: Db, tenantId: number, id: number, forUpdate = false): Promise<JourneyRow> {
  const q = db.selectFrom('journeys').selectAll().where('id', '=', id).where('userId', '=', tenantId);
  const row = await (forUpdate ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound('Journey not found');
  return row;
}

/** The definition of version `version` of a journey. */
export async function loadVersion(db: Db, journey: Pick<JourneyRow, 'id' | 'name'>, version: number) {
  const v = await db
    .selectFrom('journeyVersions')
    .select('definition')
    .where('journeyId', '=', journey.id)
    .where('version', '=', version)
    .executeTakeFirstOrThrow();
  return parseDefinition(journey.name, v.definition);
}

// ---- Reading ---------------------------------------------------------------------------------

type Counts = JourneyOutput['counts'];
const NO_COUNTS: Counts = { active: 0, completed: 0, converted: 0, exited: 0 };

async function countsOf(db: Db, tenantId: number, ids: number[]): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('journeyEnrollments')
    .select(['journeyId', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('userId', '=', tenantId)
    .where('journeyId', 'in', ids)
    .where('test', '=', false)
    .groupBy(['journeyId', 'status'])
    .execute();
  for (const r of rows) {
    const c = out.get(r.journeyId) ?? { ...NO_COUNTS };
    c[r.status] = Number(r.n);
    out.set(r.journeyId, c);
  }
  return out;
}

async function outputs(db: Db, tenantId: number, rows: JourneyRow[]): Promise<JourneyOutput[]> {
  if (rows.length === 0) return [];
  const versions = await db
    .selectFrom('journeyVersions as v')
    .innerJoin('journeys as j', (join) =>
      join.onRef('j.id', '=', 'v.journeyId').onRef('j.currentVersion', '=', 'v.version'),
    )
    .select(['v.journeyId', 'v.definition'])
    .where('v.userId', '=', tenantId)
    .where(
      'v.journeyId',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const defs = new Map(
    versions.map((v) => [v.journeyId, parseDefinition(rows.find((r) => r.id === v.journeyId)!.name, v.definition)]),
  );
  const all: Refs = {
    lists: new Set(),
    pages: new Set(),
    projects: new Set(),
    funds: new Set(),
    groups: new Set(),
    templates: new Set(),
    staff: new Set(),
  };
  for (const d of defs.values()) {
    const r = refsOf(d);
    for (const k of ['lists', 'pages', 'projects', 'funds', 'groups'] as const) for (const id of r[k]) all[k].add(id);
  }
  const names = namesOf(await findRefs(db, tenantId, all));
  const counts = await countsOf(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const d = defs.get(r.id)!;
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      status: r.status,
      ...d,
      version: r.currentVersion,
      triggerText: describeTrigger(d.trigger, names),
      summary: describeJourney(d, names),
      counts: counts.get(r.id) ?? { ...NO_COUNTS },
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      activatedAt: r.activatedAt,
    };
  });
}

export async function listJourneys(db: Db, tenantId: number): Promise<JourneyOutput[]> {
  const rows = await db
    .selectFrom('journeys')
    .selectAll()
    .where('userId', '=', tenantId)
    .orderBy('id', 'desc')
    .execute();
  return outputs(db, tenantId, rows);
}

export async function getJourney(db: Db, tenantId: number, input: { id: number }): Promise<JourneyOutput> {
  const row = await findJourney(db, tenantId, input.id);
  return (await outputs(db, tenantId, [row]))[0]!;
}

// ---- Writing ---------------------------------------------------------------------------------

export async function createJourney(db: Db, tenantId: number, input: JourneyFields): Promise<JourneyOutput> {
  const d = definitionOf(input);
  await assertRefs(db, tenantId, d);
  const id = await db.transaction().execute(async (trx) => {
    const j = await trx
      .insertInto('journeys')
      .values({ userId: tenantId, name: input.name, description: input.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('journeyVersions')
      .values({ userId: tenantId, journeyId: j.id, version: 1, definition: JSON.stringify(d) })
      .execute();
    return j.id;
  });
  return getJourney(db, tenantId, { id });
}

/**
 * PUT: replaces the definition. While nobody has entered the current version it is rewritten in
 * place; once someone has (an active or paused journey), a new version is made for new entries and
 * the people already in finish on theirs.
 */
export async function updateJourney(
  db: Db,
  tenantId: number,
  input: JourneyFields & { id: number },
): Promise<JourneyOutput> {
  const d = definitionOf(input);
  await assertRefs(db, tenantId, d);
  await db.transaction().execute(async (trx) => {
    const j = await findJourney(trx, tenantId, input.id, true);
    if (j.status === 'archived') throw badRequest('An archived journey cannot be changed');
    const entered = await trx
      .selectFrom('journeyEnrollments')
      .select('id')
      .where('journeyId', '=', j.id)
      .where('version', '=', j.currentVersion)
      .limit(1)
      .executeTakeFirst();
    let version = j.currentVersion;
    if (entered) {
      version += 1;
      await trx
        .insertInto('journeyVersions')
        .values({ userId: tenantId, journeyId: j.id, version, definition: JSON.stringify(d) })
        .execute();
    } else {
      await trx
        .updateTable('journeyVersions')
        .set({ definition: JSON.stringify(d) })
        .where('journeyId', '=', j.id)
        .where('version', '=', version)
        .execute();
    }
    await trx
      .updateTable('journeys')
      .set({ name: input.name, description: input.description, currentVersion: version, updatedAt: new Date() })
      .where('id', '=', j.id)
      .execute();
  });
  return getJourney(db, tenantId, { id: input.id });
}

/**
 * Deletes the journey, its versions and enrolments; its tasks stay (without the journey). The
 * enrolments are locked first (`lockEnrollmentsFirst`): a visit in flight is waited for, not
 * deadlocked with.
 */
export async function deleteJourney(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  return db.transaction().execute(async (trx) => {
    await lockEnrollmentsFirst(trx, tenantId, { journeyId: input.id });
    return deleteChurchRow(trx, tenantId, { table: 'journeys', id: input.id, missing: 'Journey not found' });
  });
}

export async function journeyActivationCheck(db: Db, tenantId: number, input: { id: number }) {
  const j = await findJourney(db, tenantId, input.id);
  return checkActivation(db, tenantId, await loadVersion(db, j, j.currentVersion));
}

/**
 * Activate: refused (400) with every reason when it cannot run. From now its trigger reads the
 * events recorded after this moment (the church's trigger cursor starts here if it has none).
 */
export async function activateJourney(db: Db, tenantId: number, input: { id: number }): Promise<JourneyOutput> {
  await db.transaction().execute(async (trx) => {
    const j = await findJourney(trx, tenantId, input.id, true);
    if (j.status === 'active') return;
    if (j.status === 'archived') throw badRequest('An archived journey cannot be started again');
    const { problems } = await checkActivation(trx, tenantId, await loadVersion(trx, j, j.currentVersion));
    if (problems.length > 0) throw badRequest(`This journey cannot start: ${problems.join('; ')}`);
    const { rows } = await sql<{ last: number }>`
      select coalesce(max(id), 0)::bigint as last from events where user_id = ${tenantId}`.execute(trx);
    const last = Number(rows[0]?.last ?? 0);
    await trx
      .updateTable('journeys')
      .set({ status: 'active', activatedAt: new Date(), activatedEventId: last, updatedAt: new Date() })
      .where('id', '=', j.id)
      .execute();
    // A church's first active journey starts its cursor after the settled events (events/log.ts);
    // those still settling come to it, and the journey passes over them (ids up to `last`).
    const start = await logEnd(trx, tenantId);
    await trx
      .insertInto('journeyTriggerCursors')
      .values({ userId: tenantId, lastEventXid: start.xid, lastEventId: start.id })
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute();
  });
  return getJourney(db, tenantId, input);
}

/** Pause: no one enters and no step runs until it is activated again; people stay where they are. */
export async function pauseJourney(db: Db, tenantId: number, input: { id: number }): Promise<JourneyOutput> {
  const j = await findJourney(db, tenantId, input.id);
  if (j.status !== 'active') throw badRequest('Only an active journey can be paused');
  await db.updateTable('journeys').set({ status: 'paused', updatedAt: new Date() }).where('id', '=', j.id).execute();
  return getJourney(db, tenantId, input);
}

/** Why the people still in a journey left it when it was archived (their Activity says so). */
export const ARCHIVED_EXIT_REASON = 'The journey was archived';

/**
 * Archive: the journey stops for good. It stays with its figures (read-only, listed under Archived);
 * the people still in it leave it now, each with a `journey.exited` event in their Activity.
 */
export async function archiveJourney(db: Db, tenantId: number, input: { id: number }): Promise<JourneyOutput> {
  await db.transaction().execute(async (trx) => {
    // The people still in it first: a visit in flight is waited for, not deadlocked with.
    await lockEnrollmentsFirst(trx, tenantId, { journeyId: input.id });
    const j = await findJourney(trx, tenantId, input.id, true);
    if (j.status === 'archived') return;
    const now = new Date();
    const left = await trx
      .updateTable('journeyEnrollments')
      .set({ status: 'exited', endedAt: now, exitReason: ARCHIVED_EXIT_REASON, nextRunAt: null, waitUntil: null })
      .where('journeyId', '=', j.id)
      .where('status', '=', 'active')
      .returning(['id', 'contactId', 'test'])
      .execute();
    await trx.updateTable('journeys').set({ status: 'archived', updatedAt: now }).where('id', '=', j.id).execute();
    const people = left.filter((e) => e.contactId !== null && !e.test);
    if (people.length === 0) return;
    const persons = await peopleOf(
      trx,
      tenantId,
      people.map((e) => e.contactId!),
    );
    const journey = { id: j.id, name: j.name };
    await recordEvents(
      trx,
      tenantId,
      people.flatMap((e) => {
        const person = persons.get(e.contactId!);
        if (!person) return [];
        const payload = { person, journey, enrollmentId: Number(e.id), reason: ARCHIVED_EXIT_REASON };
        return [{ type: 'journey.exited' as const, contactId: e.contactId!, payload }];
      }),
    );
  });
  return getJourney(db, tenantId, input);
}
