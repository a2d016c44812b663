import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { enrollmentOutputSchema, enrollmentStepRunSchema, journeyStatsSchema } from '../../schemas/journeys.js';
import { notFound } from '../../errors.js';
import { findJourney, loadVersion, stepById } from './definitions.js';
import { quietHoursEnd } from './time.js';

type Stats = z.input<typeof journeyStatsSchema>;

/**
 * A journey's figures (tests left out): people active / completed / converted / exited, and per
 * step of the current version the people waiting there, those past it, and its messages sent /
 * opened / clicked (over every version: a step keeps its id when the journey is edited).
 */
export async function journeyStats(db: Db, tenantId: number, input: { id: number }): Promise<Stats> {
  const j = await findJourney(db, tenantId, input.id);
  const d = await loadVersion(db, j, j.currentVersion);
  const counts = { active: 0, completed: 0, converted: 0, exited: 0 };
  const byStatus = await db
    .selectFrom('journeyEnrollments')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('journeyId', '=', j.id)
    .where('test', '=', false)
    .groupBy('status')
    .execute();
  for (const r of byStatus) counts[r.status] = Number(r.n);
  const waiting = await db
    .selectFrom('journeyEnrollments')
    .select(['currentStepId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('journeyId', '=', j.id)
    .where('test', '=', false)
    .where('status', '=', 'active')
    .groupBy('currentStepId')
    .execute();
  const { rows: done } = await sql<{ stepId: string; n: number }>`
    select r.step_id, count(*)::int as n from journey_step_runs r
    join journey_enrollments e on e.id = r.enrollment_id
    where e.journey_id = ${j.id} and not e.test group by r.step_id`.execute(db);
  const { rows: sends } = await sql<{ stepId: string; sent: number; opened: number; clicked: number }>`
    select d.journey_step_id as step_id,
      count(*) filter (where d.status in ('sent', 'delivered') and d.contact_id is not null)::int as sent,
      count(*) filter (where exists (select 1 from delivery_events x where x.delivery_id = d.id and x.type in ('open', 'click')))::int as opened,
      count(*) filter (where exists (select 1 from delivery_events x where x.delivery_id = d.id and x.type = 'click'))::int as clicked
    from deliveries d join journey_enrollments e on e.id = d.journey_enrollment_id
    where d.kind = 'journey' and d.journey_id = ${j.id} and not e.test
    group by d.journey_step_id`.execute(db);
  const w = new Map(waiting.map((r) => [r.currentStepId, Number(r.n)]));
  const dn = new Map(done.map((r) => [r.stepId, Number(r.n)]));
  const s = new Map(sends.map((r) => [r.stepId, r]));
  return {
    counts,
    steps: d.steps.map((step) => ({
      stepId: step.id,
      waiting: w.get(step.id) ?? 0,
      done: dn.get(step.id) ?? 0,
      sent: Number(s.get(step.id)?.sent ?? 0),
      opened: Number(s.get(step.id)?.opened ?? 0),
      clicked: Number(s.get(step.id)?.clicked ?? 0),
    })),
  };
}

type EnrollmentOut = z.input<typeof enrollmentOutputSchema>;

/** The journey's enrolments, newest first, a page after `cursor` (an enrolment id). */
export async function listJourneyEnrollments(
  db: Db,
  tenantId: number,
  input: { id: number; status?: EnrollmentOut['status']; cursor?: number; limit: number },
  now = new Date(),
): Promise<{ enrollments: EnrollmentOut[]; next: number | null }> {
  const j = await findJourney(db, tenantId, input.id);
  const rows = await db
    .selectFrom('journeyEnrollments as e')
    .leftJoin('contacts as c', 'c.id', 'e.contactId')
    .select([
      'e.id',
      'e.contactId',
      'c.firstName',
      'c.lastName',
      'c.email',
      'e.status',
      'e.version',
      'e.currentStepId',
      'e.nextRunAt',
      'e.enteredAt',
      'e.endedAt',
      'e.exitReason',
      'e.test',
    ])
    .where('e.journeyId', '=', input.id)
    .where('e.userId', '=', tenantId)
    .$if(!!input.status, (q) => q.where('e.status', '=', input.status!))
    .$if(!!input.cursor, (q) => q.where('e.id', '<', input.cursor!))
    .orderBy('e.id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const page = rows.slice(0, input.limit);
  const waitingOf = await waitReasons(db, { journey: j, tenantId, now });
  const waiting = await Promise.all(page.map((r) => (r.status === 'active' ? waitingOf(r) : Promise.resolve(null))));
  return {
    enrollments: page.map((r, i) => ({
      id: Number(r.id),
      contact:
        r.contactId !== null
          ? { id: r.contactId, name: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || r.email || 'Someone' }
          : null,
      status: r.status,
      version: r.version,
      currentStepId: r.status === 'active' ? r.currentStepId : null,
      nextRunAt: r.status === 'active' ? r.nextRunAt : null,
      enteredAt: r.enteredAt,
      endedAt: r.endedAt,
      exitReason: r.exitReason,
      test: r.test,
      waiting: waiting[i] ?? null,
    })),
    next: rows.length > input.limit ? Number(page[page.length - 1]!.id) : null,
  };
}

type Waiting = NonNullable<EnrollmentOut['waiting']>;

/**
 * Why an active enrolment is not moving yet, read from where it stands: a text step whose next run
 * is the 8:00 that ends quiet hours (in the church's time zone) waits for them; a wait step waits
 * for its end; a message step due later waits for the daily limit (the runner's retry).
 */
async function waitReasons(db: Db, o: { journey: { id: number; name: string }; tenantId: number; now: Date }) {
  const settings = await db
    .selectFrom('churchSettings')
    .select('timeZone')
    .where('userId', '=', o.tenantId)
    .executeTakeFirst();
  const timeZone = settings?.timeZone ?? 'UTC';
  const versions = new Map<number, ReturnType<typeof loadVersion>>();
  return async (e: {
    version: number;
    currentStepId: string | null;
    nextRunAt: Date | null;
    test: boolean;
  }): Promise<Waiting | null> => {
    if (!e.nextRunAt || e.nextRunAt.getTime() <= o.now.getTime()) return null;
    let d = versions.get(e.version);
    if (!d) versions.set(e.version, (d = loadVersion(db, o.journey, e.version)));
    const step = stepById(await d, e.currentStepId)?.step;
    if (!step) return null;
    const until = e.nextRunAt;
    if (step.kind === 'wait') return { reason: 'wait', until };
    if (step.kind !== 'email' && step.kind !== 'sms') return null;
    const minuteBefore = new Date(until.getTime() - 60_000);
    if (step.kind === 'sms' && !e.test && quietHoursEnd(minuteBefore, timeZone)?.getTime() === until.getTime())
      return { reason: 'quiet_hours', until };
    return { reason: 'daily_limit', until };
  };
}

/** One enrolment's steps as they ran (the test's live view), oldest first. */
export async function listEnrollmentRuns(
  db: Db,
  tenantId: number,
  input: { enrollmentId: number },
): Promise<{
  status: EnrollmentOut['status'];
  nextRunAt: Date | null;
  currentStepId: string | null;
  runs: z.input<typeof enrollmentStepRunSchema>[];
}> {
  const e = await db
    .selectFrom('journeyEnrollments')
    .select(['id', 'status', 'nextRunAt', 'currentStepId'])
    .where('id', '=', input.enrollmentId)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!e) throw notFound('Enrolment not found');
  const runs = await db
    .selectFrom('journeyStepRuns')
    .select(['stepId', 'kind', 'outcome', 'detail', 'createdAt'])
    .where('enrollmentId', '=', e.id)
    .orderBy('id')
    .execute();
  return {
    status: e.status,
    nextRunAt: e.status === 'active' ? e.nextRunAt : null,
    currentStepId: e.status === 'active' ? e.currentStepId : null,
    runs: runs.map((r) => ({ stepId: r.stepId, kind: r.kind, outcome: r.outcome, detail: r.detail, at: r.createdAt })),
  };
}
