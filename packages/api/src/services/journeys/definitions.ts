import { sql, type Db } from '@lampstand/db';
import {
  describeJourney,
  describeTrigger,
  journeyFieldsSchema,
  type JourneyFields,
  type JourneyNames,
  type journeyOutputSchema,
  type JourneyStep,
  type JourneyStatus,
} from '../../schemas/journeys.js';
import type { z } from 'zod';
import { badRequest, notFound } from '../../errors.js';
import { peopleOf, recordEvents } from '../events/record.js';

type JourneyOutput = z.input<typeof journeyOutputSchema>;
import { churchTemplates } from '../templates/templates.js';
import { countSuppressedContacts } from '../deliverability/suppressions.js';

/** What a version keeps: everything but the name and description. */
export type JourneyDefinition = Pick<JourneyFields, 'trigger' | 'entryRule' | 'goal' | 'steps'>;

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

/** A stored definition, read back through the shared schema (defaults filled for older shapes). */
export function parseDefinition(name: string, raw: unknown): JourneyDefinition {
  const parsed = journeyFieldsSchema.parse({ ...(raw as object), name });
  return { trigger: parsed.trigger, entryRule: parsed.entryRule, goal: parsed.goal, steps: parsed.steps };
}

const definitionOf = (f: JourneyFields): JourneyDefinition => ({
  trigger: f.trigger,
  entryRule: f.entryRule,
  goal: f.goal,
  steps: f.steps,
});

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

// ---- What a definition refers to -----------------------------------------------------------

interface Refs {
  lists: Set<number>;
  pages: Set<number>;
  projects: Set<number>;
  funds: Set<number>;
  templates: Set<number>;
  staff: Set<number>;
}

function refsOf(d: JourneyDefinition): Refs {
  const r: Refs = {
    lists: new Set(),
    pages: new Set(),
    projects: new Set(),
    funds: new Set(),
    templates: new Set(),
    staff: new Set(),
  };
  const t = d.trigger;
  if (t.kind === 'list_added' && t.listId) r.lists.add(t.listId);
  if (t.kind === 'signup_confirmed' && t.pageId) r.pages.add(t.pageId);
  if (t.kind === 'donation_succeeded' && t.projectId) r.projects.add(t.projectId);
  if (t.kind === 'donation_succeeded' && t.fundId) r.funds.add(t.fundId);
  if (d.goal?.kind === 'joined_list') r.lists.add(d.goal.listId);
  for (const s of d.steps) {
    if (s.kind === 'add_to_list' || s.kind === 'remove_from_list') r.lists.add(s.listId);
    if (s.kind === 'branch' && s.condition?.kind === 'on_list') r.lists.add(s.condition.listId);
    if (s.kind === 'email' && s.templateId) r.templates.add(s.templateId);
    if (s.kind === 'task' && s.assigneeContactId) r.staff.add(s.assigneeContactId);
    if (s.kind === 'notify') for (const c of s.contactIds) r.staff.add(c);
  }
  return r;
}

interface Found {
  lists: Map<number, string>;
  pages: Map<number, string>;
  projects: Map<number, string>;
  /** Giving funds (issue 30): name, and whether archived. */
  funds: Map<number, { name: string; archived: boolean }>;
  /** Staff contacts: name, email, and whether they are marked service staff. */
  staff: Map<number, { name: string; email: string | null; isStaff: boolean }>;
}

async function findRefs(db: Db, tenantId: number, r: Refs): Promise<Found> {
  const ids = (s: Set<number>) => [...s];
  const lists = r.lists.size
    ? await db
        .selectFrom('contactLists')
        .select(['id', 'name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.lists))
        .execute()
    : [];
  const pages = r.pages.size
    ? await db
        .selectFrom('landingPages')
        .select(['id', 'name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.pages))
        .execute()
    : [];
  const projects = r.projects.size
    ? await db
        .selectFrom('showUpProjects')
        .select(['id', 'title as name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.projects))
        .execute()
    : [];
  const funds = r.funds.size
    ? await db
        .selectFrom('funds')
        .select(['id', 'name', 'status'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.funds))
        .execute()
    : [];
  const staff = r.staff.size
    ? await db
        .selectFrom('contacts')
        .select([
          'id',
          'firstName',
          'lastName',
          'email',
          sql<boolean>`coalesce((metadata->>'isServiceStaff')::boolean, false)`.as('isStaff'),
        ])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.staff))
        .execute()
    : [];
  return {
    lists: new Map(lists.map((l) => [l.id, l.name])),
    pages: new Map(pages.map((p) => [p.id, p.name])),
    projects: new Map(projects.map((p) => [p.id, String(p.name)])),
    funds: new Map(funds.map((x) => [x.id, { name: x.name, archived: x.status !== 'active' }])),
    staff: new Map(
      staff.map((s) => [
        s.id,
        {
          name: `${s.firstName} ${s.lastName}`.trim() || s.email || 'Staff member',
          email: s.email,
          isStaff: !!s.isStaff,
        },
      ]),
    ),
  };
}

/** On save: a list, page, project, template or staff member that is not the church's is a 404. */
async function assertRefs(db: Db, tenantId: number, d: JourneyDefinition): Promise<void> {
  const r = refsOf(d);
  const f = await findRefs(db, tenantId, r);
  for (const id of r.lists) if (!f.lists.has(id)) throw notFound('List not found');
  for (const id of r.pages) if (!f.pages.has(id)) throw notFound('Landing page not found');
  for (const id of r.projects) if (!f.projects.has(id)) throw notFound('Project not found');
  for (const id of r.funds) if (!f.funds.has(id)) throw notFound('Fund not found');
  for (const id of r.staff) if (!f.staff.has(id)) throw notFound('Staff member not found');
  if (r.templates.size) {
    const mine = new Set((await churchTemplates(db, tenantId)).map((t) => t.id));
    for (const id of r.templates) if (!mine.has(id)) throw notFound('Template not found');
  }
}

const namesOf = (f: Found): JourneyNames => ({
  list: (id) => f.lists.get(id),
  page: (id) => f.pages.get(id),
  project: (id) => f.projects.get(id),
  fund: (id) => f.funds.get(id)?.name,
});

// ---- Activation ------------------------------------------------------------------------------

/**
 * What stops a journey from running, each as 'Step 3: …', 'Trigger: …' or 'Goal: …' (empty when
 * it can run), and how many people its trigger could reach now (null when unknowable).
 */
export async function checkActivation(
  db: Db,
  tenantId: number,
  d: JourneyDefinition,
): Promise<{ reach: number | null; suppressed?: number; problems: string[] }> {
  const f = await findRefs(db, tenantId, refsOf(d));
  const problems: string[] = [];
  const t = d.trigger;
  if (t.kind === 'list_added') {
    if (!t.listId) problems.push('Trigger: choose a list');
    else if (!f.lists.has(t.listId)) problems.push('Trigger: the list was deleted');
  }
  if (t.kind === 'signup_confirmed' && t.pageId && !f.pages.has(t.pageId))
    problems.push('Trigger: the landing page was deleted');
  if (t.kind === 'donation_succeeded') {
    if (t.projectId && !f.projects.has(t.projectId)) problems.push('Trigger: the project was deleted');
    if (t.fundId && !f.funds.has(t.fundId)) problems.push('Trigger: the fund was deleted');
  }
  if (t.kind === 'keyword' && !t.keyword) problems.push('Trigger: choose a keyword');
  if (d.goal?.kind === 'joined_list' && !f.lists.has(d.goal.listId)) problems.push('Goal: the list was deleted');
  if (d.steps.length === 0) problems.push('The journey has no steps');
  const staffProblem = (id: number | null): string | null => {
    if (id === null) return null;
    const s = f.staff.get(id);
    if (!s) return 'the staff member was deleted';
    if (!s.isStaff) return `${s.name} is not marked as service staff`;
    if (!s.email) return `${s.name} has no email address`;
    return null;
  };
  d.steps.forEach((s, i) => {
    const at = `Step ${i + 1}`;
    switch (s.kind) {
      case 'email':
        if (!s.subject.trim()) problems.push(`${at}: the email has no subject`);
        if (!s.content.replace(/<[^>]*>/g, '').trim()) problems.push(`${at}: the email has no content`);
        break;
      case 'sms':
        if (!s.body.trim()) problems.push(`${at}: the text has no message`);
        break;
      case 'add_to_list':
      case 'remove_from_list':
        if (!f.lists.has(s.listId)) problems.push(`${at}: the list was deleted`);
        break;
      case 'branch':
        if (s.condition?.kind === 'on_list' && !f.lists.has(s.condition.listId))
          problems.push(`${at}: the list was deleted`);
        break;
      case 'task': {
        const p = staffProblem(s.assigneeContactId);
        if (p) problems.push(`${at}: ${p}`);
        break;
      }
      case 'notify':
        for (const id of s.contactIds) {
          const p = staffProblem(id);
          if (p) problems.push(`${at}: ${p}`);
        }
        break;
      default:
        break;
    }
  });
  const reach = await reachOf(db, tenantId, d);
  // Issue 32 §6: with email steps, the reach's suppressed addresses are said before activating.
  const suppressed =
    reach !== null && d.steps.some((s) => s.kind === 'email') ? await suppressedInReach(db, tenantId, d) : undefined;
  return suppressed ? { reach, suppressed, problems } : { reach, problems };
}

async function suppressedInReach(db: Db, tenantId: number, d: JourneyDefinition): Promise<number | undefined> {
  const t = d.trigger;
  const who =
    t.kind === 'list_added' && t.listId
      ? sql<boolean>`c.id in (select contact_id from contacts_in_lists where user_id = ${tenantId} and list_id = ${t.listId})`
      : t.kind === 'date'
        ? sql<boolean>`c.date_of_birth is not null`
        : null;
  return who ? countSuppressedContacts(db, tenantId, who) : undefined;
}

async function reachOf(db: Db, tenantId: number, d: JourneyDefinition): Promise<number | null> {
  const t = d.trigger;
  if (t.kind === 'list_added' && t.listId) {
    const r = await db
      .selectFrom('contactsInLists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', tenantId)
      .where('listId', '=', t.listId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  if (t.kind === 'date') {
    const r = await db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', tenantId)
      .where('dateOfBirth', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  return null;
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
    templates: new Set(),
    staff: new Set(),
  };
  for (const d of defs.values()) {
    const r = refsOf(d);
    for (const k of ['lists', 'pages', 'projects', 'funds'] as const) for (const id of r[k]) all[k].add(id);
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

/** Deletes the journey, its versions and enrolments; its tasks stay (without the journey). */
export async function deleteJourney(db: Db, tenantId: number, input: { id: number }): Promise<{ id: number }> {
  const row = await db
    .deleteFrom('journeys')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Journey not found');
  return { id: row.id };
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
    await trx
      .insertInto('journeyTriggerCursors')
      .values({ userId: tenantId, lastEventId: last })
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

/** The step `id` of a definition, with its number (1-based) as the editor shows it. */
export function stepById(d: JourneyDefinition, id: string | null): { step: JourneyStep; n: number } | null {
  if (!id) return null;
  const i = d.steps.findIndex((s) => s.id === id);
  return i < 0 ? null : { step: d.steps[i]!, n: i + 1 };
}
