import { sql, type Db, type NewRow } from '@lampstand/db';
import type { NewEvent } from '../../schemas/events.js';
import {
  describeCondition,
  describeStep,
  waitMinutes,
  type BranchCondition,
  type JourneyStep,
} from '../../schemas/journeys.js';
import { personOf, recordEvents } from '../events/record.js';
import { fillMergeTags } from '../email-campaigns/render.js';
import { AppError } from '../../errors.js';
import { takeDailyAllowance, UNVERIFIED_DAILY_RECIPIENTS } from '../delivery/daily-limit.js';
import { loadVersion, stepById, type JourneyDefinition } from './definitions.js';
import { localDate, nextWeekdayAt, quietHoursEnd } from './time.js';
import { DELIVERY_KIND_RULES, contactVerdicts } from '../delivery/contact-rule.js';
import type { Pacer } from '../delivery/pacer.js';

/**
 * The journey runner (issue 29 §6): workers claim due enrolments (`next_run_at <= now`) with FOR
 * UPDATE SKIP LOCKED and a lease, then move each one through its steps until a wait (or the end),
 * up to 250 of one church in a transaction (a group that fails is tried again one enrolment per
 * transaction, so one that cannot move holds up no other). What the visits read (their people,
 * who unsubscribed or is suppressed) is read once for the group, and what they write (deliveries,
 * step runs, tags, the enrolments, events) is written at the end, one statement each. The transaction locks the enrolment and checks the lease is
 * still this worker's (a fence), records each step run under the unique (enrolment, step) key,
 * writes what the step does (a delivery of the one engine for an email, a text or a staff email;
 * a list membership; a tag; a task) and the step's event in the person's Activity, and moves the
 * enrolment on. A worker killed anywhere leaves either all of it or none of it, and the lease lets
 * another worker take the enrolment over: each step runs once.
 *
 * `now` is an input: tests drive a clock of their own.
 */

export interface RunnerOptions {
  now: Date;
  /** Enrolments claimed at once. */
  batchSize?: number;
  /** A claim older than this belongs to a dead worker. */
  leaseSeconds?: number;
  /** Enrolments moved at once by this call. */
  concurrency?: number;
  unverifiedDailyRecipients?: number;
  /**
   * Called after each transaction that queued messages, with its journeys: the caller can start
   * their delivery jobs at once, so sending starts while the runner is still moving the rest.
   */
  onQueued?: (journeyIds: Set<number>) => Promise<void>;
  /** The process's pacer (delivery/pacer.ts): a group of visits takes a turn for each visit. */
  pacer?: Pacer;
}

export interface RunResult {
  /** Enrolments moved. */
  moved: number;
  /** Journeys that got new deliveries (the caller starts their delivery jobs). */
  journeysToDeliver: Set<number>;
}

/** The most steps one visit runs (a journey has at most 50; a wait stops it long before). */
const MAX_STEPS_PER_VISIT = 60;
/** A test's wait: its amount in seconds (2 days → 2 s), at most this. */
const TEST_WAIT_MAX_SECONDS = 30;
/** Over the daily limit: try the step again this much later. */
const OVER_LIMIT_RETRY_MS = 60 * 60 * 1000;
/** A visit that failed: try again this much later (the error is kept on the enrolment). */
const ERROR_RETRY_MS = 5 * 60 * 1000;

interface Enrollment {
  id: number;
  userId: number;
  journeyId: number;
  version: number;
  contactId: number | null;
  status: string;
  currentStepId: string | null;
  nextRunAt: Date | null;
  enteredAt: Date;
  test: boolean;
  testEmail: string | null;
  lastEmailDeliveryId: number | null;
  waitUntil: Date | null;
  leaseUntil: Date | null;
}

interface Church {
  timeZone: string;
  churchName: string;
  accountEmail: string;
  unlimited: boolean;
}

interface Person {
  contactId: number | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phoneE164: string | null;
  emailConsent: string;
  smsConsent: string;
  tags: string[];
}

/** Reads shared by the visits of one run. */
class RunCache {
  private defs = new Map<string, Promise<JourneyDefinition>>();
  private churches = new Map<number, Promise<Church>>();
  constructor(private db: Db) {}
  /** Outside the visit's transaction (a pool connection of its own). */
  definition(journeyId: number, version: number) {
    const key = `${journeyId}:${version}`;
    let d = this.defs.get(key);
    if (!d) {
      d = this.db
        .selectFrom('journeys')
        .select(['id', 'name'])
        .where('id', '=', journeyId)
        .executeTakeFirstOrThrow()
        .then((j) => loadVersion(this.db, j, version));
      this.defs.set(key, d);
    }
    return d;
  }
  church(userId: number) {
    let c = this.churches.get(userId);
    if (!c) {
      c = this.db
        .selectFrom('users as u')
        .leftJoin('churchSettings as s', 's.userId', 'u.id')
        .select(['u.churchName', 'u.email', 'u.dailyRecipientLimit', 'u.emailVerifiedAt', 's.timeZone'])
        .where('u.id', '=', userId)
        .executeTakeFirstOrThrow()
        .then((r) => ({
          timeZone: r.timeZone ?? 'UTC',
          churchName: r.churchName,
          accountEmail: r.email,
          unlimited: r.dailyRecipientLimit === null && r.emailVerifiedAt !== null,
        }));
      this.churches.set(userId, c);
    }
    return c;
  }
}

/**
 * Claim due enrolments of active journeys (tests' too, whatever the journey's status), a batch at a
 * time, and move each; until nothing is due. Returns how many moved.
 */
export async function runDueEnrollments(db: Db, opts: RunnerOptions): Promise<RunResult> {
  const result: RunResult = { moved: 0, journeysToDeliver: new Set() };
  const cache = new RunCache(db);
  const batchSize = opts.batchSize ?? 1000;
  for (;;) {
    const claimed = await claimDue(db, opts.now, batchSize, opts.leaseSeconds ?? 120);
    if (claimed.length === 0) return result;
    const groups = groupByChurch(claimed, VISITS_PER_TRANSACTION);
    let next = 0;
    const workers = Array.from({ length: Math.min(opts.concurrency ?? 4, groups.length) }, async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        await opts.pacer?.take(group.length);
        const outcome = await moveGroup(db, cache, group, opts).catch(() => isolate(db, cache, group, opts));
        result.moved += outcome.moved;
        for (const id of outcome.journeys) result.journeysToDeliver.add(id);
        if (outcome.journeys.size > 0) await opts.onQueued?.(outcome.journeys);
      }
    });
    await Promise.all(workers);
    if (claimed.length < batchSize) return result;
  }
}

/**
 * Visits moved in one transaction (one church's): the church's event lock, the commit and the
 * writes (deliveries, step runs, tags, enrolments, events: one statement each) are shared.
 */
const VISITS_PER_TRANSACTION = 250;

type Claim = { id: number; leaseUntil: Date; journeyId: number; version: number; userId: number };

/** Claims in groups of one church each, at most `size` a group. */
function groupByChurch(claims: Claim[], size: number): Claim[][] {
  const byChurch = new Map<number, Claim[]>();
  for (const c of claims) {
    const list = byChurch.get(c.userId);
    if (list) list.push(c);
    else byChurch.set(c.userId, [c]);
  }
  const groups: Claim[][] = [];
  for (const list of byChurch.values())
    for (let i = 0; i < list.length; i += size) groups.push(list.slice(i, i + size));
  return groups;
}

/**
 * A group whose transaction failed: each visit again in a transaction of its own, so one
 * enrolment that cannot move (its error kept, tried again later) holds up no other.
 */
async function isolate(db: Db, cache: RunCache, group: Claim[], opts: RunnerOptions) {
  const out = { moved: 0, journeys: new Set<number>() };
  for (const c of group) {
    try {
      const r = await moveGroup(db, cache, [c], opts);
      out.moved += r.moved;
      for (const id of r.journeys) out.journeys.add(id);
    } catch (err) {
      if (!(err instanceof LostClaim)) await noteFailure(db, c.id, c.leaseUntil, opts.now, err);
    }
  }
  return out;
}

async function claimDue(db: Db, now: Date, limit: number, leaseSeconds: number) {
  // The journeys that run (their ids: a filter the planner can weigh, where a join with the journeys
  // had it read and sort every due enrolment to take `limit` of them); a test runs whatever the status.
  const active = (await db.selectFrom('journeys').select('id').where('status', '=', 'active').execute()).map(
    (j) => j.id,
  );
  // The due enrolments in the order of their index, `limit` of them; then those rows by their ids.
  const { rows } = await sql<{ id: number; leaseUntil: Date; journeyId: number; version: number; userId: number }>`
    with due as materialized (
      select x.id from journey_enrollments x
      where x.status = 'active' and x.next_run_at <= ${now}
        and (x.lease_until is null or x.lease_until < ${now})
        and (x.journey_id = any(${active}::int[]) or x.test)
      order by x.next_run_at, x.id
      limit ${limit}
      for update of x skip locked
    )
    update journey_enrollments e
    set lease_until = date_trunc('milliseconds', ${now}::timestamptz + make_interval(secs => ${leaseSeconds})),
        attempts = e.attempts + 1
    from due where e.id = due.id
    returning e.id, e.lease_until, e.journey_id, e.version, e.user_id`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), leaseUntil: new Date(r.leaseUntil) }));
}

/** A visit that threw: keep the error, let go of the claim and come back later (pg-style backoff is overkill here). */
async function noteFailure(db: Db, id: number, lease: Date, now: Date, err: unknown) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await db
    .updateTable('journeyEnrollments')
    .set({ lastError: message, leaseUntil: null, nextRunAt: new Date(now.getTime() + ERROR_RETRY_MS) })
    .where('id', '=', id)
    .where('leaseUntil', '=', lease)
    .execute();
}

interface StepResult {
  outcome: 'done' | 'skipped' | 'yes' | 'no' | 'failed';
  detail: string;
  next: string | null;
  deliveryId?: number;
  /** The journey ends here. */
  end?: { status: 'exited'; reason: string };
}

/** Another worker holds the enrolment or ran the step: this visit changes nothing. */
class LostClaim extends Error {}

/** What the visits of one transaction add up: their events (recorded last) and messages counted. */
interface GroupOut {
  events: NewEvent[];
  usage: { email: number; sms: number };
  /** The contacts of the group's enrolments, read at once. */
  people: Map<number, Person>;
  /**
   * The group's addresses that must not get a channel's messages (emails in lower case): read at
   * once for the group, when its first step on that channel needs them (a group of waits and tags
   * never does, a group of emails never reads the numbers).
   */
  blocked: (channel: 'email' | 'sms') => Promise<Blocked>;
  /** Ids for the group's deliveries, taken from their sequence ahead of the insert. */
  deliveryIds: DeliveryIds;
  /** Deliveries queued, by (enrolment, step, address): inserted at once at the end. */
  deliveries: Map<string, QueuedDelivery>;
  /** Tags to add: written at once at the end; a contact whose tags changed gets its event then. */
  tagAdds: { person: Person & { contactId: number }; tag: string }[];
  /** Step runs and enrolment changes, written at once at the end. */
  runs: NewRow<'journeyStepRuns'>[];
  updates: {
    id: number;
    status: string;
    endedAt: Date | null;
    exitReason: string | null;
    nextRunAt: Date | null;
    waitUntil: Date | null;
    currentStepId: string | null;
    lastEmailDeliveryId: number | null;
  }[];
}

interface QueuedDelivery {
  id: number;
  userId: number;
  channel: 'email' | 'sms';
  journeyId: number;
  enrollmentId: number;
  stepId: string;
  contactId: number | null;
  address: string;
  firstName: string;
  lastName: string;
}

/** Delivery ids from the table's sequence, a block at a time (a gap where some go unused is harmless). */
class DeliveryIds {
  private free: number[] = [];
  constructor(
    private trx: Db,
    private block: number,
  ) {}
  async take(): Promise<number> {
    if (this.free.length === 0) {
      const { rows } = await sql<{ id: string }>`
        select nextval(pg_get_serial_sequence('deliveries', 'id')) as id from generate_series(1, ${this.block})`.execute(
        this.trx,
      );
      this.free = rows.map((r) => Number(r.id));
    }
    return this.free.shift()!;
  }
}

/**
 * The group's addresses that must not get a channel's messages: for email, those that unsubscribed
 * (any of the church's contacts with the address) or are on the church's suppression list; for
 * texts, the numbers that unsubscribed. One read each, and only for a channel the group sends on.
 */
type Blocked = { unsubscribed: Set<string>; suppressed: Set<string> };

async function blockedAddresses(
  trx: Db,
  userId: number,
  channel: 'email' | 'sms',
  addresses: string[],
): Promise<Blocked> {
  const blocked: Blocked = { unsubscribed: new Set(), suppressed: new Set() };
  // The contact rule (contact-rule.ts), for the whole group in one statement; quiet hours are the
  // runner's own wait (a text step waits for them to end before its delivery is written).
  const verdicts = await contactVerdicts(trx, userId, {
    channel,
    ...DELIVERY_KIND_RULES.journey,
    answer: true,
    addresses,
  });
  for (const [address, v] of verdicts)
    if (!v.send) (v.reason === 'suppressed' ? blocked.suppressed : blocked.unsubscribed).add(address);
  return blocked;
}

/**
 * The visits of one church's claimed enrolments, in one transaction: each enrolment is locked and
 * checked to be still this worker's (the lease), moved, and its events recorded at the end.
 */
async function moveGroup(
  db: Db,
  cache: RunCache,
  group: Claim[],
  opts: RunnerOptions,
): Promise<{ moved: number; journeys: Set<number> }> {
  const userId = group[0]!.userId;
  // Read before the transaction: a visit holds one connection, never waits for a second.
  const defs = new Map<string, JourneyDefinition>();
  for (const c of group) defs.set(`${c.journeyId}:${c.version}`, await cache.definition(c.journeyId, c.version));
  const church = await cache.church(userId);
  const leases = new Map(group.map((c) => [c.id, c.leaseUntil.getTime()]));
  return db.transaction().execute(async (trx) => {
    const rows = (await trx
      .selectFrom('journeyEnrollments')
      .select([
        'id',
        'userId',
        'journeyId',
        'version',
        'contactId',
        'status',
        'currentStepId',
        'nextRunAt',
        'enteredAt',
        'test',
        'testEmail',
        'lastEmailDeliveryId',
        'waitUntil',
        'leaseUntil',
      ])
      .where('id', 'in', [...leases.keys()])
      .orderBy('id')
      .forUpdate()
      .execute()) as Enrollment[];
    // Still ours: active, and the lease we took (another worker may have taken it over).
    const mine = rows.filter((e) => e.status === 'active' && e.leaseUntil?.getTime() === leases.get(e.id));
    const journeys = new Map(
      (
        await trx
          .selectFrom('journeys')
          .select(['id', 'name'])
          .where('id', 'in', [...new Set(mine.map((e) => e.journeyId)), 0])
          .execute()
      ).map((j) => [j.id, j]),
    );
    const contactIds = mine.map((e) => e.contactId).filter((id): id is number => id !== null);
    const people = new Map(
      (contactIds.length
        ? await trx
            .selectFrom('contacts')
            .select(['id', 'firstName', 'lastName', 'email', 'phoneE164', 'emailConsent', 'smsConsent', 'tags'])
            .where('id', 'in', contactIds)
            .execute()
        : []
      ).map((c) => [c.id, { ...c, contactId: c.id }]),
    );
    const blocked = new Map<'email' | 'sms', Promise<Blocked>>();
    const readBlocked = (channel: 'email' | 'sms') => {
      const addresses = new Set<string>();
      for (const p of people.values()) {
        if (channel === 'email' && p.email?.trim()) addresses.add(p.email.trim().toLowerCase());
        if (channel === 'sms' && p.phoneE164) addresses.add(p.phoneE164);
      }
      if (channel === 'email')
        for (const e of mine) if (e.test) addresses.add((e.testEmail ?? church.accountEmail).trim().toLowerCase());
      return blockedAddresses(trx, userId, channel, [...addresses]);
    };
    const out: GroupOut = {
      events: [],
      usage: { email: 0, sms: 0 },
      people,
      blocked: (channel) => {
        let read = blocked.get(channel);
        if (!read) blocked.set(channel, (read = readBlocked(channel)));
        return read;
      },
      deliveryIds: new DeliveryIds(trx, Math.max(16, mine.length)),
      deliveries: new Map(),
      tagAdds: [],
      runs: [],
      updates: [],
    };
    const delivered = new Set<number>();
    for (const e of mine) {
      const journey = journeys.get(e.journeyId)!;
      const d = defs.get(`${e.journeyId}:${e.version}`)!;
      if (await visit(trx, { e, d, church, journey, opts, out })) delivered.add(e.journeyId);
    }
    if (out.deliveries.size > 0) {
      const rows = [...out.deliveries.values()];
      const { rows: inserted } = await sql<{ id: number }>`
        insert into deliveries (id, user_id, kind, channel, journey_id, journey_enrollment_id, journey_step_id, contact_id,
                                address, first_name, last_name, token)
        select v.id, v.user_id, 'journey', v.channel, v.journey_id, v.enrollment_id, v.step_id, v.contact_id,
               v.address, v.first_name, v.last_name, ${token}
        from jsonb_to_recordset(${JSON.stringify(
          rows.map((r) => ({
            id: r.id,
            user_id: r.userId,
            channel: r.channel,
            journey_id: r.journeyId,
            enrollment_id: r.enrollmentId,
            step_id: r.stepId,
            contact_id: r.contactId,
            address: r.address,
            first_name: r.firstName,
            last_name: r.lastName,
          })),
        )}::jsonb) as v(id bigint, user_id integer, channel text, journey_id integer, enrollment_id bigint, step_id text,
                         contact_id integer, address text, first_name text, last_name text)
        on conflict do nothing
        returning id`.execute(trx);
      // A message of (enrolment, step, address) already there: another worker ran the step. Nothing of this group stands.
      if (inserted.length !== rows.length) throw new LostClaim();
    }
    if (out.tagAdds.length > 0) await addTags(trx, out, opts.now);
    if (out.runs.length > 0) {
      const inserted = await trx
        .insertInto('journeyStepRuns')
        .values(out.runs)
        .onConflict((oc) => oc.columns(['enrollmentId', 'stepId']).doNothing())
        .returning('id')
        .execute();
      // A step run already there: another worker ran it (its lease ran out meanwhile). Nothing of this group stands.
      if (inserted.length !== out.runs.length) throw new LostClaim();
    }
    if (out.updates.length > 0) {
      await sql`
        update journey_enrollments e
        set status = v.status, ended_at = v.ended_at, exit_reason = v.exit_reason, next_run_at = v.next_run_at,
            wait_until = v.wait_until, current_step_id = v.current_step_id,
            last_email_delivery_id = v.last_email_delivery_id, lease_until = null, last_error = null
        from jsonb_to_recordset(${JSON.stringify(
          out.updates.map((u) => ({
            id: u.id,
            status: u.status,
            ended_at: u.endedAt,
            exit_reason: u.exitReason,
            next_run_at: u.nextRunAt,
            wait_until: u.waitUntil,
            current_step_id: u.currentStepId,
            last_email_delivery_id: u.lastEmailDeliveryId,
          })),
        )}::jsonb) as v(
          id bigint, status text, ended_at timestamptz, exit_reason text, next_run_at timestamptz,
          wait_until timestamptz, current_step_id text, last_email_delivery_id integer)
        where e.id = v.id`.execute(trx);
    }
    for (const channel of ['email', 'sms'] as const) {
      if (out.usage[channel] > 0)
        await trx
          .insertInto('campaignRecipientUsage')
          .values({ userId, channel, kind: 'journey', campaignId: null, recipients: out.usage[channel] })
          .execute();
    }
    // Last in the transaction: the church's event writers wait from here to the commit.
    await recordEvents(trx, userId, out.events, { actor: { kind: 'system', id: null } });
    return { moved: mine.length, journeys: delivered };
  });
}

/** One enrolment's visit: its steps until a wait or the end; true when it queued a message. */
async function visit(
  trx: Db,
  v: {
    e: Enrollment;
    d: JourneyDefinition;
    church: Church;
    journey: { id: number; name: string };
    opts: RunnerOptions;
    out: GroupOut;
  },
): Promise<boolean> {
  const { e, d, church, journey, opts, out } = v;
  const now = opts.now;
  const ref = { id: journey.id, name: journey.name };
  const person = personFor(e, church, out.people);
  const events = out.events;
  const about = person ? personOf({ ...person, phone: person.phoneE164 }) : undefined;
  const contactId = e.contactId;
  let delivered = false;
  let ended: { status: 'completed' | 'converted' | 'exited'; reason?: string } | null = null;
  let nextRunAt: Date | null = e.nextRunAt;
  let waitUntil = e.waitUntil;
  let lastEmail = e.lastEmailDeliveryId;
  let current = e.currentStepId;

  if (!person) ended = { status: 'exited', reason: 'Contact deleted' };
  else if (d.goal && contactId && (await goalReached(trx, e, d.goal, contactId))) ended = { status: 'converted' };

  for (let i = 0; !ended && i < MAX_STEPS_PER_VISIT; i++) {
    const at = stepById(d, current);
    if (!at) {
      ended = { status: 'completed' };
      break;
    }
    const step = at.step;
    let r: StepResult | 'later';
    if (step.kind === 'wait') {
      if (waitUntil && waitUntil.getTime() <= now.getTime()) {
        r = { outcome: 'done', detail: 'The wait is over', next: step.next };
        waitUntil = null;
      } else {
        waitUntil ??= waitEnd(step, now, church.timeZone, e.test);
        nextRunAt = waitUntil;
        r = 'later';
      }
    } else if (step.kind === 'sms' && !e.test && quietHoursEnd(now, church.timeZone)) {
      // Quiet hours: the text waits for 8:00 in the church's time zone.
      nextRunAt = quietHoursEnd(now, church.timeZone);
      r = 'later';
    } else {
      r = await runStep(trx, { e, step, person: person!, church, now, journeyName: journey.name, opts, out });
      if (r !== 'later' && r.deliveryId && step.kind === 'email' && r.outcome === 'done') lastEmail = r.deliveryId;
      if (r !== 'later' && r.deliveryId) delivered = true;
      if (r === 'later') nextRunAt = new Date(now.getTime() + OVER_LIMIT_RETRY_MS);
    }
    if (r === 'later') break;
    out.runs.push({
      userId: e.userId,
      enrollmentId: e.id,
      stepId: step.id,
      kind: step.kind,
      outcome: r.outcome,
      detail: r.detail,
      deliveryId: r.deliveryId ?? null,
      createdAt: now,
    });
    // A task step's own event ('Task *Call Maria* assigned to Pastor John') tells it: one line, not two.
    if (contactId && !(step.kind === 'task' && r.outcome === 'done'))
      events.push({
        type: 'journey.step_done',
        contactId,
        payload: {
          person: about,
          journey: ref,
          enrollmentId: e.id,
          step: { id: step.id, kind: step.kind, name: stepName(step) },
          outcome: r.outcome,
          detail: r.detail,
        },
      });
    if (r.end) ended = r.end;
    else current = r.next;
  }

  if (ended) {
    out.updates.push({
      id: e.id,
      status: ended.status,
      endedAt: now,
      exitReason: ended.reason ?? null,
      nextRunAt: null,
      waitUntil: null,
      currentStepId: ended.status === 'completed' ? null : current,
      lastEmailDeliveryId: lastEmail,
    });
    if (contactId) {
      const base = { person: about, journey: ref, enrollmentId: e.id };
      if (ended.status === 'completed') events.push({ type: 'journey.completed', contactId, payload: base });
      else if (ended.status === 'converted')
        events.push({ type: 'journey.converted', contactId, payload: { ...base, goal: goalWords(d.goal) } });
      else events.push({ type: 'journey.exited', contactId, payload: { ...base, reason: ended.reason ?? '' } });
    }
  } else {
    out.updates.push({
      id: e.id,
      status: 'active',
      endedAt: null,
      exitReason: null,
      nextRunAt,
      waitUntil,
      currentStepId: current,
      lastEmailDeliveryId: lastEmail,
    });
  }
  return delivered;
}

/** When a wait that starts `now` ends (a test's waits last seconds). */
function waitEnd(step: Extract<JourneyStep, { kind: 'wait' }>, now: Date, timeZone: string, test: boolean): Date {
  const w = step.wait;
  if (test) {
    const seconds = w.mode === 'duration' ? Math.min(w.amount, TEST_WAIT_MAX_SECONDS) : 5;
    return new Date(now.getTime() + seconds * 1000);
  }
  if (w.mode === 'duration') return new Date(now.getTime() + waitMinutes(w) * 60_000);
  return nextWeekdayAt(now, timeZone, w.weekday, w.time);
}

function personFor(e: Enrollment, church: Church, people: Map<number, Person>): Person | null {
  if (e.contactId === null) {
    if (!e.test) return null;
    return {
      contactId: null,
      firstName: church.churchName,
      lastName: '',
      email: e.testEmail ?? church.accountEmail,
      phoneE164: null,
      emailConsent: 'subscribed',
      smsConsent: 'subscribed',
      tags: [],
    };
  }
  return people.get(e.contactId) ?? null;
}

/** The name a step has in the Activity ('Welcome', 'Call Maria', 'wait 2 days'). */
function stepName(step: JourneyStep): string {
  switch (step.kind) {
    case 'email':
    case 'sms':
      return step.name;
    case 'task':
      return step.title;
    case 'notify':
      return step.subject;
    default:
      return describeStep(step).replace(/\*/g, '');
  }
}

function goalWords(goal: JourneyDefinition['goal']): string {
  if (!goal) return '';
  if (goal.kind === 'gave') return 'gave';
  if (goal.kind === 'tag_added') return `tagged ${goal.tag}`;
  return 'joined the list';
}

async function goalReached(
  trx: Db,
  e: Enrollment,
  goal: NonNullable<JourneyDefinition['goal']>,
  contactId: number,
): Promise<boolean> {
  switch (goal.kind) {
    case 'joined_list': {
      const r = await trx
        .selectFrom('contactsInLists')
        .select('contactId')
        .where('contactId', '=', contactId)
        .where('listId', '=', goal.listId)
        .executeTakeFirst();
      return !!r;
    }
    case 'gave':
      return hasEventSince(trx, e.userId, contactId, 'donation.succeeded', e.enteredAt);
    case 'tag_added': {
      const r = await trx
        .selectFrom('contacts')
        .select('id')
        .where('id', '=', contactId)
        .where(sql<boolean>`${goal.tag} = any(tags)`)
        .executeTakeFirst();
      return !!r;
    }
  }
}

async function hasEventSince(trx: Db, userId: number, contactId: number, type: string, since: Date) {
  const r = await trx
    .selectFrom('events')
    .select('id')
    .where('userId', '=', userId)
    .where('contactId', '=', contactId)
    .where('type', '=', type)
    .where('occurredAt', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return !!r;
}

async function conditionHolds(trx: Db, e: Enrollment, c: BranchCondition, person: Person, now: Date) {
  const contactId = person.contactId;
  switch (c.kind) {
    case 'opened_previous_email':
    case 'clicked_previous_email': {
      if (!e.lastEmailDeliveryId) return false;
      const types = c.kind === 'opened_previous_email' ? ['open', 'click'] : ['click'];
      const r = await trx
        .selectFrom('deliveryEvents')
        .select('id')
        .where('deliveryId', '=', e.lastEmailDeliveryId)
        .where('type', 'in', types as ('open' | 'click')[])
        .limit(1)
        .executeTakeFirst();
      return !!r;
    }
    case 'has_tag':
      return person.tags.includes(c.tag);
    case 'on_list': {
      if (!contactId) return false;
      const r = await trx
        .selectFrom('contactsInLists')
        .select('contactId')
        .where('contactId', '=', contactId)
        .where('listId', '=', c.listId)
        .executeTakeFirst();
      return !!r;
    }
    case 'gave_within':
      return (
        !!contactId &&
        hasEventSince(trx, e.userId, contactId, 'donation.succeeded', new Date(now.getTime() - c.days * 86_400_000))
      );
    case 'replied_by_text':
      return !!contactId && hasEventSince(trx, e.userId, contactId, 'sms.received', e.enteredAt);
  }
}

interface StepContext {
  e: Enrollment;
  step: JourneyStep;
  person: Person;
  church: Church;
  now: Date;
  journeyName: string;
  opts: RunnerOptions;
  out: GroupOut;
}

const token = sql<string>`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;

/**
 * One delivery of the journey's step to `address` (kind 'journey'), inserted with the group's at
 * the end of its transaction; its id. One per (enrolment, step, address), as the table's unique key.
 */
async function queueDelivery(
  x: StepContext,
  o: { channel: 'email' | 'sms'; address: string; contactId: number | null; firstName: string; lastName: string },
): Promise<number> {
  const key = `${x.e.id}:${x.step.id}:${o.address.toLowerCase()}`;
  const queued = x.out.deliveries.get(key);
  if (queued) return queued.id;
  const id = await x.out.deliveryIds.take();
  x.out.deliveries.set(key, {
    id,
    userId: x.e.userId,
    journeyId: x.e.journeyId,
    enrollmentId: x.e.id,
    stepId: x.step.id,
    ...o,
  });
  return id;
}

/**
 * The group's tags, added at once: each contact's new tags appended (a tag it already has is
 * left), and a `contact.updated` event for each contact whose tags changed.
 */
async function addTags(trx: Db, out: GroupOut, now: Date) {
  const { rows } = await sql<{ id: number }>`
    with v as (
      select id, array_agg(distinct tag) as tags
      from unnest(${out.tagAdds.map((t) => t.person.contactId)}::int[], ${out.tagAdds.map((t) => t.tag)}::text[]) as x(id, tag)
      group by id
    )
    update contacts c
    set tags = c.tags || array(select t from unnest(v.tags) t where not (t = any(c.tags))), updated_at = ${now}
    from v
    where c.id = v.id and exists (select 1 from unnest(v.tags) t where not (t = any(c.tags)))
    returning c.id`.execute(trx);
  const changed = new Set(rows.map((r) => r.id));
  for (const { person } of out.tagAdds) {
    if (!changed.delete(person.contactId)) continue;
    out.events.push({
      type: 'contact.updated',
      contactId: person.contactId,
      payload: { person: personOf({ ...person, phone: person.phoneE164 }), changed: ['tags'] },
    });
  }
}

/**
 * The church's daily limit for a message to a person (staff emails are not counted): true when it
 * was taken, false when the church is over its limit (the step is tried again later).
 */
async function takeAllowance(trx: Db, x: StepContext, channel: 'email' | 'sms'): Promise<boolean> {
  if (x.church.unlimited) {
    // Recorded once for the transaction's visits (moveGroup).
    x.out.usage[channel]++;
    return true;
  }
  try {
    await takeDailyAllowance(trx, x.e.userId, {
      channel,
      kind: 'journey',
      campaignId: null,
      recipients: 1,
      unverifiedLimit: x.opts.unverifiedDailyRecipients ?? UNVERIFIED_DAILY_RECIPIENTS,
    });
    return true;
  } catch (err) {
    // Refused before writing anything: the transaction goes on.
    if (err instanceof AppError && err.code === 'TOO_MANY_REQUESTS') return false;
    throw err;
  }
}

/** Whether any of the church's contacts with this address unsubscribed from the channel. */
async function unsubscribed(x: StepContext, channel: 'email' | 'sms', address: string): Promise<boolean> {
  const p = x.person;
  if (p.contactId === null) return false;
  if ((channel === 'email' ? p.emailConsent : p.smsConsent) === 'unsubscribed') return true;
  const blocked = await x.out.blocked(channel);
  return blocked.unsubscribed.has(channel === 'email' ? address.toLowerCase() : address);
}

/** Staff members' addresses: service-staff contacts with an email; none chosen (or none left) → the account. */
async function staffRecipients(trx: Db, x: StepContext, ids: number[]) {
  const rows = ids.length
    ? await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email'])
        .where('userId', '=', x.e.userId)
        .where('id', 'in', ids)
        .where('email', 'is not', null)
        .where('email', '<>', '')
        .execute()
    : [];
  const staff = rows.map((r) => ({
    contactId: r.id,
    name: `${r.firstName} ${r.lastName}`.trim() || r.email!,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email!,
  }));
  if (staff.length > 0) return staff;
  return [
    {
      contactId: null,
      name: x.church.churchName,
      firstName: x.church.churchName,
      lastName: '',
      email: x.church.accountEmail,
    },
  ];
}

async function runStep(trx: Db, x: StepContext): Promise<StepResult | 'later'> {
  const { step, person } = x;
  const merge = (s: string) =>
    fillMergeTags(
      s,
      { firstName: person.firstName, lastName: person.lastName, churchName: x.church.churchName },
      { html: false },
    );
  switch (step.kind) {
    case 'email': {
      const address = person.email?.trim();
      if (!address) return { outcome: 'skipped', detail: 'No email address', next: step.next };
      if (await unsubscribed(x, 'email', address))
        return { outcome: 'skipped', detail: 'Unsubscribed from email', next: step.next };
      // Issue 32 §6: an address on the church's suppression list (bounced or complained) is skipped.
      if ((await x.out.blocked('email')).suppressed.has(address.toLowerCase()))
        return { outcome: 'skipped', detail: 'The address is suppressed (bounced or complained)', next: step.next };
      if (!(await takeAllowance(trx, x, 'email'))) return 'later';
      const deliveryId = await queueDelivery(x, {
        channel: 'email',
        address,
        contactId: person.contactId,
        firstName: person.firstName,
        lastName: person.lastName,
      });
      return { outcome: 'done', detail: `Sent “${merge(step.subject)}”`, next: step.next, deliveryId };
    }
    case 'sms': {
      const address = person.phoneE164;
      if (!address) return { outcome: 'skipped', detail: 'No mobile number', next: step.next };
      if (await unsubscribed(x, 'sms', address))
        return { outcome: 'skipped', detail: 'Unsubscribed from texts', next: step.next };
      if (!(await takeAllowance(trx, x, 'sms'))) return 'later';
      const deliveryId = await queueDelivery(x, {
        channel: 'sms',
        address,
        contactId: person.contactId,
        firstName: person.firstName,
        lastName: person.lastName,
      });
      return { outcome: 'done', detail: 'Text sent', next: step.next, deliveryId };
    }
    case 'add_to_list':
    case 'remove_from_list': {
      const list = await trx
        .selectFrom('contactLists')
        .select(['id', 'name'])
        .where('id', '=', step.listId)
        .where('userId', '=', x.e.userId)
        .executeTakeFirst();
      if (!list) return { outcome: 'skipped', detail: 'The list was deleted', next: step.next };
      if (!person.contactId) return { outcome: 'skipped', detail: 'Not a contact (a test)', next: step.next };
      const changed =
        step.kind === 'add_to_list'
          ? Number(
              (
                await trx
                  .insertInto('contactsInLists')
                  .values({ userId: x.e.userId, listId: list.id, contactId: person.contactId })
                  .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
                  .executeTakeFirst()
              ).numInsertedOrUpdatedRows ?? 0,
            )
          : Number(
              (
                await trx
                  .deleteFrom('contactsInLists')
                  .where('listId', '=', list.id)
                  .where('contactId', '=', person.contactId)
                  .executeTakeFirst()
              ).numDeletedRows,
            );
      if (changed > 0)
        x.out.events.push({
          type: step.kind === 'add_to_list' ? 'list.member_added' : 'list.member_removed',
          contactId: person.contactId,
          payload: {
            person: personOf({ ...person, phone: person.phoneE164 }),
            list: { id: list.id, name: list.name },
          },
        });
      const verb = step.kind === 'add_to_list' ? 'Added to' : 'Removed from';
      return { outcome: 'done', detail: `${verb} ${list.name}`, next: step.next };
    }
    case 'add_tag': {
      const contactId = person.contactId;
      if (!contactId) return { outcome: 'skipped', detail: 'Not a contact (a test)', next: step.next };
      // Written with the group's at the end; a later step of this visit already sees it.
      if (!person.tags.includes(step.tag)) person.tags = [...person.tags, step.tag];
      x.out.tagAdds.push({ person: { ...person, contactId }, tag: step.tag });
      return { outcome: 'done', detail: `Tagged ${step.tag}`, next: step.next };
    }
    case 'task': {
      const [assignee] = await staffRecipients(trx, x, step.assigneeContactId ? [step.assigneeContactId] : []);
      const title = merge(step.title).trim();
      const task = await trx
        .insertInto('tasks')
        .values({
          userId: x.e.userId,
          title,
          notes: merge(step.notes),
          dueOn: localDate(x.now, x.church.timeZone, step.dueInDays),
          assigneeContactId: assignee!.contactId,
          contactId: person.contactId,
          journeyId: x.e.journeyId,
          enrollmentId: x.e.id,
          createdAt: x.now,
          updatedAt: x.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const deliveryId = await queueDelivery(x, {
        channel: 'email',
        address: assignee!.email,
        contactId: null,
        firstName: assignee!.firstName,
        lastName: assignee!.lastName,
      });
      if (person.contactId)
        x.out.events.push({
          type: 'task.assigned',
          contactId: person.contactId,
          payload: {
            person: personOf({ ...person, phone: person.phoneE164 }),
            task: { id: task.id, name: title },
            assignee: assignee!.name,
            journey: { id: x.e.journeyId, name: x.journeyName },
          },
        });
      return { outcome: 'done', detail: `Task “${title}” assigned to ${assignee!.name}`, next: step.next, deliveryId };
    }
    case 'notify': {
      const staff = await staffRecipients(trx, x, step.contactIds);
      let deliveryId: number | undefined;
      for (const s of staff) {
        deliveryId = await queueDelivery(x, {
          channel: 'email',
          address: s.email,
          contactId: null,
          firstName: s.firstName,
          lastName: s.lastName,
        });
      }
      return { outcome: 'done', detail: `Told ${staff.map((s) => s.name).join(', ')}`, next: step.next, deliveryId };
    }
    case 'branch': {
      if (!step.condition) return { outcome: 'no', detail: 'No condition', next: step.no };
      const yes = await conditionHolds(trx, x.e, step.condition, person, x.now);
      const words = describeCondition(step.condition).replace(/\*/g, '');
      return yes
        ? { outcome: 'yes', detail: `Yes: ${words}`, next: step.yes }
        : { outcome: 'no', detail: `No: not ${words}`, next: step.no };
    }
    case 'exit':
      return {
        outcome: 'done',
        detail: 'Left the journey',
        next: null,
        end: { status: 'exited', reason: 'Reached an exit step' },
      };
    case 'wait':
      // Handled by the visit (it stops there); never run as a step.
      return { outcome: 'done', detail: '', next: step.next };
  }
}
