import { sql, type Channel, type Db, type DeliveryKind } from '@lampstand/db';
import type { RawBuilder } from 'kysely';
import { finishLeased } from '../background/claim.js';
import { quietHoursEnd } from '../journeys/time.js';
import { DELIVERY_LEASES, leaseOf, type Delivery } from './leases.js';

/**
 * The contact rule: whether a church may send a message on a channel to an address,
 * for a purpose, now. Every kind of delivery is checked by the engine just before its send
 * (`engine.ts`), and every direct send asks `contactVerdict` first; no sender keeps its own copy.
 * The exceptions are named in one table, `docs/contact-rule.md`.
 *
 * - **marketing** (campaigns, journeys): the person's consent for the channel (no contact of the
 *   church with the address unsubscribed), no suppression, no STOP, and texts outside quiet hours.
 * - **operational** (planner requests, reminders, cover offers and notices, staff notices): the
 *   same; a person who unsubscribed from a channel is not reached on it for anything they did not
 *   ask for.
 *   One exception: a journey's welcome to a first-time family (a delivery `given_at_checkin`) is an
 *   operational message to the address the parent gave at a check-in station, where no consent to
 *   campaigns is asked: a contact whose consent is still the station's 'not given' (source
 *   'checkin') does not stop it; one who has opted out since (STOP, an unsubscribe) does.
 * - **transactional** (a sign-in link or code, a confirmation, a receipt, a giving statement): sent
 *   even to a person who unsubscribed (they asked for it, or the law wants it), but never to a
 *   suppressed address (it bounced, complained or staff blocked it) and never as a text after STOP.
 *
 * Quiet hours (21:00–8:00 in the church's time zone) hold a text that is not an answer to the
 * person: it waits until they end; a reply in a conversation or a code the person asked for is an
 * answer.
 */
export type ContactPurpose = 'marketing' | 'operational' | 'transactional';

/** Why a message is not sent (recorded on the delivery as its last error). */
export type SkipReason = 'suppressed' | 'unsubscribed' | 'stopped' | 'quiet-hours';

export type ContactVerdict =
  | { send: true }
  | { send: false; reason: Exclude<SkipReason, 'quiet-hours'>; detail: string }
  /** Not now: a text in quiet hours, sent when they end. */
  | { send: false; reason: 'quiet-hours'; until: Date; detail: string };

export interface KindRule {
  purpose: ContactPurpose;
  /** An answer to the person (a reply, something they asked for): quiet hours do not hold it. */
  answer?: boolean;
  /**
   * Operational only: the address the person gave at a check-in station. A contact whose consent is
   * the station's 'not given' (unsubscribed with source 'checkin', never changed since) does not
   * stop it; any other unsubscribed contact with the address does.
   */
  givenAtCheckin?: boolean;
}

/** The question a journey's welcome to a first-time family asks (a delivery `given_at_checkin`). */
export const CHECKIN_WELCOME_RULE: KindRule = { purpose: 'operational', givenAtCheckin: true };

/**
 * Staff's message to an event's registrants (a delivery of kind 'registration' whose notice is
 * 'message'): about the person's registration, so transactional, but written by staff, not an
 * answer to something the person just did: a text waits for the end of quiet hours.
 */
export const REGISTRATION_MESSAGE_RULE: KindRule = { purpose: 'transactional' };

/** The rule a delivery is asked under: its kind's, or one of the two per-delivery exceptions above. */
export function deliveryRule(d: Pick<Delivery, 'kind' | 'givenAtCheckin' | 'registrationNotice'>): KindRule {
  if (d.kind === 'journey' && d.givenAtCheckin) return CHECKIN_WELCOME_RULE;
  if (d.kind === 'registration' && d.registrationNotice === 'message') return REGISTRATION_MESSAGE_RULE;
  return DELIVERY_KIND_RULES[d.kind];
}

/**
 * Every kind of delivery the engine knows, with its purpose. Typed over `DeliveryKind` (the
 * deliveries table's `kind` check), so a new kind does not compile until it has its rule here.
 */
export const DELIVERY_KIND_RULES: Record<DeliveryKind, KindRule> = {
  campaign: { purpose: 'marketing' },
  journey: { purpose: 'marketing' },
  'planner-request': { purpose: 'operational' },
  'planner-notice': { purpose: 'operational' },
  'task-notice': { purpose: 'operational' },
  'conversation-digest': { purpose: 'operational' },
  'conversation-reply': { purpose: 'operational', answer: true },
  'giving-statement': { purpose: 'transactional' },
  /** The members' portal: a sign-in link or code, a change's confirmation (asked for by the person). */
  portal: { purpose: 'transactional', answer: true },
  /**
   * An event registration's confirmation, waitlist place, seat offer, refund or cancellation (staff's
   * own messages to registrants: REGISTRATION_MESSAGE_RULE).
   */
  registration: { purpose: 'transactional', answer: true },
  /** A leader's message to their group's members. */
  'group-message': { purpose: 'operational' },
};

/** What a direct send (not a delivery) asks: its purpose per sender, named once. */
export const DIRECT_SEND_RULES = {
  /** A donor's receipt for a gift (giving, Show Up), or a notice about their own payment. */
  'donor-payment': { purpose: 'transactional', answer: true },
  /** The confirmation a person gets after signing up on a landing page. */
  'signup-confirmation': { purpose: 'transactional', answer: true },
  /** The church's own account email: its verification link, a webhook's failure notice. */
  'staff-account': { purpose: 'transactional', answer: true },
  /** A campaign's test email, to the address staff typed. */
  'test-email': { purpose: 'transactional', answer: true },
} as const satisfies Record<string, KindRule>;

export interface ContactQuestion extends KindRule {
  channel: Channel;
}

/**
 * SQL: why the church may not send this purpose on the channel to `address` (a value or a column
 * reference), quiet hours aside: 'suppressed:<reason>', 'unsubscribed', 'stopped', or null when it
 * may. `email_lower` and `phone_e164` are compared with `=`, so the indexes serve it under the
 * row policy (migration 0100).
 */
export function skipReasonSql(
  userId: unknown,
  q: { channel: Channel; purpose: ContactPurpose; givenAtCheckin?: boolean },
  address: unknown,
): RawBuilder<string | null> {
  // The station's 'not given' does not stop a welcome to the address given at check-in.
  const atCheckin = q.purpose === 'operational' && q.givenAtCheckin === true;
  const notGiven = (source: 'email' | 'sms') =>
    atCheckin ? sql` and u.${sql.raw(`${source}_consent_source`)} is distinct from 'checkin'` : sql``;
  if (q.channel === 'email') {
    const consent =
      q.purpose === 'transactional'
        ? sql`false`
        : sql`exists (select 1 from contacts u where u.user_id = ${userId} and u.email_lower = lower(${address})
                       and u.email_consent = 'unsubscribed'${notGiven('email')})`;
    return sql<string | null>`coalesce(
      (select 'suppressed:' || s.reason from email_suppressions s
        where s.user_id = ${userId} and s.email = lower(${address}) and s.removed_at is null limit 1),
      case when ${consent} then 'unsubscribed' end)`;
  }
  // A text: any of the church's contacts with the number unsubscribed from texts (STOP does that);
  // a number with no contact: its newest STOP/START text was a STOP. For every purpose alike.
  return sql<string | null>`case when (case
      when exists (select 1 from contacts u where u.user_id = ${userId} and u.phone_e164 = ${address})
        then exists (select 1 from contacts u where u.user_id = ${userId} and u.phone_e164 = ${address}
                     and u.sms_consent = 'unsubscribed'${notGiven('sms')})
      else coalesce((
        select m.keyword = 'STOP' from conversation_messages m join conversations k on k.id = m.conversation_id
        where k.user_id = ${userId} and k.phone_e164 = ${address} and m.keyword in ('STOP', 'START')
        order by m.id desc limit 1), false)
    end) then 'stopped' end`;
}

const SUPPRESSION_WORDS: Record<string, string> = {
  hard_bounce: 'hard bounce',
  soft_bounces: 'repeated soft bounces',
  complaint: 'complaint',
};

/** The verdict for a reason `skipReasonSql` gave (null: send). */
function verdictOf(channel: Channel, reason: string | null): ContactVerdict {
  if (!reason) return { send: true };
  if (reason.startsWith('suppressed:')) {
    const why = reason.slice('suppressed:'.length);
    return { send: false, reason: 'suppressed', detail: `suppressed (${SUPPRESSION_WORDS[why] ?? why})` };
  }
  if (reason === 'stopped') return { send: false, reason: 'stopped', detail: 'unsubscribed from texts (STOP)' };
  return {
    send: false,
    reason: 'unsubscribed',
    detail: `unsubscribed from ${channel === 'email' ? 'email' : 'texts'}`,
  };
}

/**
 * The rule for many addresses of one church and one question, in one statement: each address's
 * verdict (addresses as given; email compared in lower case).
 */
export async function contactVerdicts(
  db: Db,
  tenantId: number,
  q: ContactQuestion & { addresses: readonly string[]; now?: Date },
): Promise<Map<string, ContactVerdict>> {
  const out = new Map<string, ContactVerdict>();
  const addresses = [...new Set(q.addresses)];
  if (addresses.length === 0) return out;
  const { rows } = await sql<{ address: string; reason: string | null; timeZone: string | null }>`
    select a.address, ${skipReasonSql(tenantId, q, sql.ref('a.address'))} as reason,
      (select s.time_zone from church_settings s where s.user_id = ${tenantId}) as time_zone
    from unnest(${addresses}::text[]) as a(address)`.execute(db);
  for (const r of rows) {
    let verdict = verdictOf(q.channel, r.reason);
    if (verdict.send && q.channel === 'sms' && !q.answer) {
      const until = quietHoursEnd(q.now ?? new Date(), r.timeZone ?? 'UTC');
      if (until) verdict = { send: false, reason: 'quiet-hours', until, detail: 'quiet hours' };
    }
    out.set(r.address, verdict);
  }
  return out;
}

/** The rule for one address: may the church send this now? */
export async function contactVerdict(
  db: Db,
  tenantId: number,
  q: ContactQuestion & { address: string; now?: Date },
): Promise<ContactVerdict> {
  const verdicts = await contactVerdicts(db, tenantId, { ...q, addresses: [q.address] });
  return verdicts.get(q.address) ?? { send: true };
}

/** True when the rule lets the message go now (a direct send's question). */
export async function mayContact(
  db: Db,
  tenantId: number,
  q: ContactQuestion & { address: string; now?: Date },
): Promise<boolean> {
  return (await contactVerdict(db, tenantId, q)).send;
}

/**
 * The engine's gate: the verdict of each claimed delivery (by id), asked per church in one
 * statement with its kind's rule. Only the deliveries that may not go now are in the map.
 */
export async function deliveryVerdicts(
  db: Db,
  channel: Channel,
  deliveries: readonly Delivery[],
  opts: { now?: Date; quietHours?: boolean } = {},
): Promise<Map<number, Exclude<ContactVerdict, { send: true }>>> {
  const out = new Map<number, Exclude<ContactVerdict, { send: true }>>();
  const groups = new Map<string, { rule: KindRule; list: Delivery[] }>();
  for (const d of deliveries) {
    const rule = deliveryRule(d);
    const key = `${d.userId}/${JSON.stringify(rule)}`;
    const g = groups.get(key) ?? { rule, list: [] };
    g.list.push(d);
    groups.set(key, g);
  }
  for (const { rule, list: group } of groups.values()) {
    const { userId } = group[0]!;
    const verdicts = await contactVerdicts(db, userId, {
      channel,
      ...rule,
      // Quiet hours switched off (SMS_QUIET_HOURS=off, and test apps): every text is taken as an answer.
      ...(opts.quietHours === false ? { answer: true } : {}),
      addresses: group.map((d) => d.address),
      now: opts.now,
    });
    for (const d of group) {
      const v = verdicts.get(d.address);
      if (v && !v.send) out.set(d.id, v);
    }
  }
  return out;
}

/**
 * A claimed delivery the rule holds back, recorded (only while the claim is still ours): a text in
 * quiet hours goes back to pending until they end (the try not counted); anything else is failed
 * with 'Skipped: <why>' as its last error. True when it was marked failed.
 */
export async function recordSkip(
  db: Db,
  delivery: Delivery,
  verdict: Exclude<ContactVerdict, { send: true }>,
): Promise<boolean> {
  const held = leaseOf(delivery);
  if (verdict.reason === 'quiet-hours') {
    // Let go, due again when quiet hours end; the try is not counted.
    await finishLeased(
      db,
      DELIVERY_LEASES,
      held,
      sql`status = 'pending', next_attempt_at = ${verdict.until}, attempts = greatest(t.attempts - 1, 0),
          last_error = ${`Waiting: quiet hours until ${verdict.until.toISOString()}`}, updated_at = now()`,
    );
    return false;
  }
  return finishLeased(
    db,
    DELIVERY_LEASES,
    held,
    sql`status = 'failed', last_error = ${skippedError(verdict)}, updated_at = now()`,
  );
}

/** A skipped delivery's last error: 'Skipped: suppressed (hard bounce)'. */
export const skippedError = (v: { detail: string }) => `Skipped: ${v.detail}`;
