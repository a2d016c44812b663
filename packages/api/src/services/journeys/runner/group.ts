import { sql, type Db } from '@lampstand/db';
import { stillHeld } from '../../background/claim.js';
import { personOf, recordEvents } from '../../events/record.js';
import { CHECKIN_WELCOME_RULE, DELIVERY_KIND_RULES, contactVerdicts } from '../../delivery/contact-rule.js';
import type { JourneyDefinition } from '../definitions.js';
import { DeliveryIds } from './delivery-ids.js';
import type { RunCache } from './run-cache.js';
import { visit } from './visit.js';
import { LostClaim, type Blocked, type Claim, type Enrollment, type GroupOut, type RunnerOptions } from './types.js';

async function blockedAddresses(
  trx: Db,
  userId: number,
  channel: 'email' | 'sms',
  addresses: string[],
  welcome: boolean,
): Promise<Blocked> {
  const blocked: Blocked = { unsubscribed: new Set(), suppressed: new Set() };
  // The contact rule (contact-rule.ts), for the whole group in one statement; quiet hours are the
  // runner's own wait (a text step waits for them to end before its delivery is written).
  const verdicts = await contactVerdicts(trx, userId, {
    channel,
    ...(welcome ? CHECKIN_WELCOME_RULE : DELIVERY_KIND_RULES.journey),
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
export async function moveGroup(
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
  const leases = new Map(group.map((c) => [c.id, c.lease]));
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
        'triggerKey',
        'lastEmailDeliveryId',
        'waitUntil',
        'leaseUntil',
        'attempts',
        'triggerKey',
      ])
      .where('id', 'in', [...leases.keys()])
      .orderBy('id')
      .forUpdate()
      .execute()) as Enrollment[];
    // Still ours: active, and the lease we took (another worker may have taken it over).
    const mine = rows.filter(
      (e) => e.status === 'active' && stillHeld(leases.get(e.id)!, { lease: e.leaseUntil, attempt: e.attempts }),
    );
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
    const blocked = new Map<string, Promise<Blocked>>();
    const readBlocked = (channel: 'email' | 'sms', welcome: boolean) => {
      const addresses = new Set<string>();
      for (const p of people.values()) {
        if (channel === 'email' && p.email?.trim()) addresses.add(p.email.trim().toLowerCase());
        if (channel === 'sms' && p.phoneE164) addresses.add(p.phoneE164);
      }
      if (channel === 'email')
        for (const e of mine) if (e.test) addresses.add((e.testEmail ?? church.accountEmail).trim().toLowerCase());
      return blockedAddresses(trx, userId, channel, [...addresses], welcome);
    };
    const out: GroupOut = {
      events: [],
      usage: { email: 0, sms: 0 },
      people,
      blocked: (channel, o = {}) => {
        const key = `${channel}/${o.welcome === true}`;
        let read = blocked.get(key);
        if (!read) blocked.set(key, (read = readBlocked(channel, o.welcome === true)));
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
                                address, first_name, last_name, given_at_checkin, token)
        select v.id, v.user_id, 'journey', v.channel, v.journey_id, v.enrollment_id, v.step_id, v.contact_id,
               v.address, v.first_name, v.last_name, v.given_at_checkin, ${token}
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
            given_at_checkin: r.givenAtCheckin,
          })),
        )}::jsonb) as v(id bigint, user_id integer, channel text, journey_id integer, enrollment_id bigint, step_id text,
                         contact_id integer, address text, first_name text, last_name text, given_at_checkin boolean)
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
    await recordEvents(trx, userId, out.events, { actor: { kind: 'system', id: null } });
    return { moved: mine.length, journeys: delivered };
  });
}

const token = sql<string>`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;

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
