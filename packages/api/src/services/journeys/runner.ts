import { sql, type Db } from '@lampstand/db';
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

/**
 * The journey runner (issue 29 §6): workers claim due enrolments (`next_run_at <= now`) with FOR
 * UPDATE SKIP LOCKED and a lease, then move each one, in a transaction of its own, through its
 * steps until a wait (or the end). The transaction locks the enrolment and checks the lease is
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
  const batchSize = opts.batchSize ?? 200;
  for (;;) {
    const claimed = await claimDue(db, opts.now, batchSize, opts.leaseSeconds ?? 120);
    if (claimed.length === 0) return result;
    let next = 0;
    const workers = Array.from({ length: Math.min(opts.concurrency ?? 4, claimed.length) }, async () => {
      while (next < claimed.length) {
        const c = claimed[next++]!;
        const outcome = await moveEnrollment(db, cache, c, opts).catch(async (err: unknown) => {
          await noteFailure(db, c.id, c.leaseUntil, opts.now, err);
          return null;
        });
        if (outcome) {
          result.moved++;
          if (outcome.delivered) result.journeysToDeliver.add(outcome.journeyId);
        }
      }
    });
    await Promise.all(workers);
    if (claimed.length < batchSize) return result;
  }
}

async function claimDue(db: Db, now: Date, limit: number, leaseSeconds: number) {
  const { rows } = await sql<{ id: number; leaseUntil: Date; journeyId: number; version: number; userId: number }>`
    update journey_enrollments e
    set lease_until = date_trunc('milliseconds', ${now}::timestamptz + make_interval(secs => ${leaseSeconds})),
        attempts = e.attempts + 1
    where e.id in (
      select x.id from journey_enrollments x
      join journeys j on j.id = x.journey_id
      where x.status = 'active' and x.next_run_at <= ${now}
        and (x.lease_until is null or x.lease_until < ${now})
        and (j.status = 'active' or x.test)
      order by x.next_run_at, x.id
      limit ${limit}
      for update of x skip locked
    )
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

/**
 * One visit of one enrolment, in one transaction: null when the claim was lost (another worker
 * took over), else whether any delivery was queued.
 */
async function moveEnrollment(
  db: Db,
  cache: RunCache,
  claim: { id: number; leaseUntil: Date; journeyId: number; version: number; userId: number },
  opts: RunnerOptions,
): Promise<{ journeyId: number; delivered: boolean } | null> {
  const now = opts.now;
  const { id, leaseUntil: lease } = claim;
  // Read before the transaction: a visit holds one connection, never waits for a second.
  const d = await cache.definition(claim.journeyId, claim.version);
  const church = await cache.church(claim.userId);
  try {
    return await db.transaction().execute(async (trx) => {
      const e = (await trx
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
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst()) as Enrollment | undefined;
      if (!e || e.status !== 'active' || e.leaseUntil?.getTime() !== lease.getTime()) throw new LostClaim();
      const journey = await trx
        .selectFrom('journeys')
        .select(['id', 'name'])
        .where('id', '=', e.journeyId)
        .executeTakeFirstOrThrow();
      const ref = { id: journey.id, name: journey.name };
      const person = await loadPerson(trx, e, church);
      const events: NewEvent[] = [];
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
          r = await runStep(trx, { e, step, person: person!, church, now, journeyName: journey.name, opts });
          if (r !== 'later' && r.deliveryId && step.kind === 'email' && r.outcome === 'done') lastEmail = r.deliveryId;
          if (r !== 'later' && r.deliveryId) delivered = true;
          if (r === 'later') nextRunAt = new Date(now.getTime() + OVER_LIMIT_RETRY_MS);
        }
        if (r === 'later') break;
        const run = await trx
          .insertInto('journeyStepRuns')
          .values({
            userId: e.userId,
            enrollmentId: e.id,
            stepId: step.id,
            kind: step.kind,
            outcome: r.outcome,
            detail: r.detail,
            deliveryId: r.deliveryId ?? null,
            createdAt: now,
          })
          .onConflict((oc) => oc.columns(['enrollmentId', 'stepId']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!run) throw new LostClaim();
        if (contactId)
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
        await trx
          .updateTable('journeyEnrollments')
          .set({
            status: ended.status,
            endedAt: now,
            exitReason: ended.reason ?? null,
            nextRunAt: null,
            waitUntil: null,
            currentStepId: ended.status === 'completed' ? null : current,
            lastEmailDeliveryId: lastEmail,
            leaseUntil: null,
            lastError: null,
          })
          .where('id', '=', e.id)
          .execute();
        if (contactId) {
          const base = { person: about, journey: ref, enrollmentId: e.id };
          if (ended.status === 'completed') events.push({ type: 'journey.completed', contactId, payload: base });
          else if (ended.status === 'converted')
            events.push({ type: 'journey.converted', contactId, payload: { ...base, goal: goalWords(d.goal) } });
          else events.push({ type: 'journey.exited', contactId, payload: { ...base, reason: ended.reason ?? '' } });
        }
      } else {
        await trx
          .updateTable('journeyEnrollments')
          .set({
            currentStepId: current,
            nextRunAt,
            waitUntil,
            lastEmailDeliveryId: lastEmail,
            leaseUntil: null,
            lastError: null,
          })
          .where('id', '=', e.id)
          .execute();
      }
      // Last in the transaction: the church's event writers wait from here to the commit.
      await recordEvents(trx, e.userId, events, { actor: { kind: 'system', id: null } });
      return { journeyId: e.journeyId, delivered };
    });
  } catch (err) {
    if (err instanceof LostClaim) return null;
    throw err;
  }
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

async function loadPerson(trx: Db, e: Enrollment, church: Church): Promise<Person | null> {
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
  const c = await trx
    .selectFrom('contacts')
    .select(['id', 'firstName', 'lastName', 'email', 'phoneE164', 'emailConsent', 'smsConsent', 'tags'])
    .where('id', '=', e.contactId)
    .executeTakeFirst();
  return c ? { ...c, contactId: c.id } : null;
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
}

const token = sql<string>`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;

/** One delivery of the journey's step to `address` (kind 'journey'); its id. */
async function queueDelivery(
  trx: Db,
  x: StepContext,
  o: { channel: 'email' | 'sms'; address: string; contactId: number | null; firstName: string; lastName: string },
): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    insert into deliveries (user_id, kind, channel, journey_id, journey_enrollment_id, journey_step_id, contact_id,
                            address, first_name, last_name, token)
    values (${x.e.userId}, 'journey', ${o.channel}, ${x.e.journeyId}, ${x.e.id}, ${x.step.id}, ${o.contactId},
            ${o.address}, ${o.firstName}, ${o.lastName}, ${token})
    on conflict do nothing
    returning id`.execute(trx);
  if (rows[0]) return rows[0].id;
  const existing = await trx
    .selectFrom('deliveries')
    .select('id')
    .where('journeyEnrollmentId', '=', x.e.id)
    .where('journeyStepId', '=', x.step.id)
    .where(sql<boolean>`lower(address) = lower(${o.address})`)
    .executeTakeFirstOrThrow();
  return existing.id;
}

/**
 * The church's daily limit for a message to a person (staff emails are not counted): true when it
 * was taken, false when the church is over its limit (the step is tried again later).
 */
async function takeAllowance(trx: Db, x: StepContext, channel: 'email' | 'sms'): Promise<boolean> {
  if (x.church.unlimited) {
    await trx
      .insertInto('campaignRecipientUsage')
      .values({ userId: x.e.userId, channel, kind: 'journey', campaignId: null, recipients: 1 })
      .execute();
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
async function unsubscribed(trx: Db, x: StepContext, channel: 'email' | 'sms', address: string): Promise<boolean> {
  const p = x.person;
  if (p.contactId === null) return false;
  if ((channel === 'email' ? p.emailConsent : p.smsConsent) === 'unsubscribed') return true;
  const r = await trx
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', x.e.userId)
    .where(
      channel === 'email'
        ? sql<boolean>`lower(email) = lower(${address}) and email_consent = 'unsubscribed'`
        : sql<boolean>`phone_e164 = ${address} and sms_consent = 'unsubscribed'`,
    )
    .limit(1)
    .executeTakeFirst();
  return !!r;
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
      if (await unsubscribed(trx, x, 'email', address))
        return { outcome: 'skipped', detail: 'Unsubscribed from email', next: step.next };
      if (!(await takeAllowance(trx, x, 'email'))) return 'later';
      const deliveryId = await queueDelivery(trx, x, {
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
      if (await unsubscribed(trx, x, 'sms', address))
        return { outcome: 'skipped', detail: 'Unsubscribed from texts', next: step.next };
      if (!(await takeAllowance(trx, x, 'sms'))) return 'later';
      const deliveryId = await queueDelivery(trx, x, {
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
        await recordEvents(
          trx,
          x.e.userId,
          [
            {
              type: step.kind === 'add_to_list' ? 'list.member_added' : 'list.member_removed',
              contactId: person.contactId,
              payload: {
                person: personOf({ ...person, phone: person.phoneE164 }),
                list: { id: list.id, name: list.name },
              },
            },
          ],
          { actor: { kind: 'system', id: null } },
        );
      const verb = step.kind === 'add_to_list' ? 'Added to' : 'Removed from';
      return { outcome: 'done', detail: `${verb} ${list.name}`, next: step.next };
    }
    case 'add_tag': {
      if (!person.contactId) return { outcome: 'skipped', detail: 'Not a contact (a test)', next: step.next };
      const r = await trx
        .updateTable('contacts')
        .set({ tags: sql`array_append(tags, ${step.tag}::text)`, updatedAt: x.now })
        .where('id', '=', person.contactId)
        .where(sql<boolean>`not (${step.tag} = any(tags))`)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) > 0) {
        person.tags = [...person.tags, step.tag];
        await recordEvents(
          trx,
          x.e.userId,
          [
            {
              type: 'contact.updated',
              contactId: person.contactId,
              payload: { person: personOf({ ...person, phone: person.phoneE164 }), changed: ['tags'] },
            },
          ],
          { actor: { kind: 'system', id: null } },
        );
      }
      return { outcome: 'done', detail: `Tagged ${step.tag}`, next: step.next };
    }
    case 'task': {
      const [assignee] = await staffRecipients(trx, x, step.assigneeContactId ? [step.assigneeContactId] : []);
      const title = merge(step.title);
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
      const deliveryId = await queueDelivery(trx, x, {
        channel: 'email',
        address: assignee!.email,
        contactId: null,
        firstName: assignee!.firstName,
        lastName: assignee!.lastName,
      });
      if (person.contactId)
        await recordEvents(
          trx,
          x.e.userId,
          [
            {
              type: 'task.assigned',
              contactId: person.contactId,
              payload: {
                person: personOf({ ...person, phone: person.phoneE164 }),
                task: { id: task.id, name: title },
                assignee: assignee!.name,
                journey: { id: x.e.journeyId, name: x.journeyName },
              },
            },
          ],
          { actor: { kind: 'system', id: null } },
        );
      return { outcome: 'done', detail: `Task “${title}” assigned to ${assignee!.name}`, next: step.next, deliveryId };
    }
    case 'notify': {
      const staff = await staffRecipients(trx, x, step.contactIds);
      let deliveryId: number | undefined;
      for (const s of staff) {
        deliveryId = await queueDelivery(trx, x, {
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
