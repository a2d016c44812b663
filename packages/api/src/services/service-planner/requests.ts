import { memberTargets, queueNotice } from './notices.js';
import { alreadyCoveredMessage, coveredBy } from './offer-state.js';
import crypto from 'node:crypto';
import { sql, type Db } from '@lampstand/db';
import { conflict, notFound } from '../../errors.js';
import type { EmailTransport } from '../../providers/email.js';
import type { DeliveryConfig } from '../delivery/config.js';
import type { JobQueue } from '../../jobs.js';
import { takeDailyAllowance } from '../delivery/daily-limit.js';
import { skipReasonSql } from '../delivery/contact-rule.js';
import { recordEvent, recordEvents } from '../events/record.js';
import type { NewEvent } from '../../schemas/events.js';
import { assignmentsJoined } from './assignments-joined.js';
import { churchLocale, effectiveCountry } from '../../shared/locale.js';

/** Scheduling requests: asking the people scheduled on a plan, and their answers by link. */

/** A plan event (`plan.request_sent`, `plan.accepted`, `plan.declined`) of one assignment. */
function planEvent(
  type: 'plan.request_sent' | 'plan.accepted' | 'plan.declined',
  a: { id: number; contactId: number | null; name: string; email: string | null; planId: number; planTitle: string },
  positionName: string | null,
): NewEvent {
  return {
    type,
    contactId: a.contactId,
    payload: {
      person: { name: a.name, email: a.email },
      plan: { id: a.planId, name: a.planTitle },
      position: positionName ?? '',
      assignmentId: a.id,
    },
  };
}

/**
 * Ask everyone scheduled on the plans (one plan, or the plans of one auto-schedule) who has not
 * been asked yet, by email with Accept and Decline links: as deliveries of the one engine, like
 * campaign mail. A person asked for several slots gets one email listing them all, each with its
 * own links: one delivery per person, naming its assignments (`request_delivery_id`). In one
 * transaction, each request is claimed (`requested_at` set only where it is still null, rows
 * locked in id order), written as a delivery of kind 'planner-request', and counted against the
 * church's daily limit (over it: 429 with the campaign's message, nothing is queued); then the
 * deliver job is queued. The engine sends them with the email rate slot, retries with backoff,
 * and on a final failure gives the claims back with the reason shown on the assignment. Two
 * presses at once thus queue each request once.
 */
export async function sendRequests(
  deps: { db: Db; email: EmailTransport; jobs: JobQueue; config: DeliveryConfig },
  tenantId: number,
  input: { planId: number } | { planIds: number[] },
): Promise<{ sent: number; people: number; skippedNoEmail: string[]; message: string }> {
  const { db, email, jobs, config } = deps;
  const planIds = 'planId' in input ? [input.planId] : [...new Set(input.planIds)];
  const { queued, people, emailPlans, textPlans, skippedNoEmail, skippedSuppressed, skippedUnsubscribed, unasked } =
    await db.transaction().execute(async (trx) => {
      const textPlans = new Set<number>();
      const plans = planIds.length
        ? await trx
            .selectFrom('servicePlans')
            .select(['id', 'title', 'date', 'startTime'])
            .where('userId', '=', tenantId)
            .where('id', 'in', planIds)
            .execute()
        : [];
      if (plans.length !== planIds.length) throw notFound('Service plan not found');
      const planById = new Map(plans.map((p) => [p.id, p]));
      const locked = await trx
        .selectFrom('servicePlanAssignments as a')
        .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
        .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
        .select(['a.id', 'a.servicePlanId as planId', 'a.serviceTime', 'a.teamMemberId as memberId'])
        .select(['m.name', 'm.email', 'm.contactId', 'pos.name as positionName'])
        // The contact rule (operational): an address on the church's suppression list (it bounced or
        // complained) or unsubscribed from email is not asked by email.
        .select(skipReasonSql(tenantId, { channel: 'email', purpose: 'operational' }, sql.ref('m.email')).as('skip'))
        .where('a.servicePlanId', 'in', planIds.length ? planIds : [0])
        .where('a.userId', '=', tenantId)
        .where('a.status', '=', 'scheduled')
        .where('a.requestedAt', 'is', null)
        .orderBy('a.id')
        .forUpdate('a')
        .execute();
      // In the order a person reads them: by date and time, then as scheduled.
      const when = (a: (typeof locked)[number]) => {
        const p = planById.get(a.planId)!;
        return `${p.date} ${a.serviceTime ?? p.startTime ?? ''}`;
      };
      const pending = [...locked].sort((a, b) => when(a).localeCompare(when(b)) || a.id - b.id);
      const ask = pending.filter((a) => a.email && !a.skip);
      // The request as a text to the member's linked contact, by their consent (by
      // email and SMS): beside the email, or alone when the email address is missing or suppressed.
      const textOnly: typeof pending = [];
      for (const a of pending) {
        const phones = (await memberTargets(trx, tenantId, a.memberId)).filter((t) => t.channel === 'sms');
        if (phones.length === 0) continue;
        const notice = { planId: a.planId, assignmentId: a.id, notice: 'request', targets: phones };
        const queuedTexts = (await queueNotice(trx, tenantId, notice)).length;
        if (queuedTexts > 0) textPlans.add(a.planId);
        if (queuedTexts > 0 && !ask.includes(a)) textOnly.push(a);
      }
      const asked = [...ask, ...textOnly];
      const skipped = pending.filter((a) => !a.email && !textOnly.includes(a)).map((a) => a.name);
      const notAsked = (why: 'suppressed' | 'unsubscribed') =>
        pending.filter((a) => a.email && a.skip?.startsWith(why) && !textOnly.includes(a)).map((a) => a.name);
      const suppressed = notAsked('suppressed');
      const unsubscribed = notAsked('unsubscribed');
      if (asked.length > 0) {
        await trx
          .updateTable('servicePlanAssignments')
          .set({ requestedAt: new Date(), updatedAt: new Date() })
          .where(
            'id',
            'in',
            asked.map((a) => a.id),
          )
          .execute();
        await recordEvents(
          trx,
          tenantId,
          asked.map((a) =>
            planEvent('plan.request_sent', { ...a, planTitle: planById.get(a.planId)!.title }, a.positionName),
          ),
        );
      }
      // One email per person: their first slot names the delivery; every slot points at it.
      const byMember = new Map<number, typeof ask>();
      for (const a of ask) byMember.set(a.memberId, [...(byMember.get(a.memberId) ?? []), a]);
      const emailPlans = new Set<number>();
      if (byMember.size > 0) {
        const groups = [...byMember.values()];
        const made = await trx
          .insertInto('deliveries')
          .values(
            groups.map(([first]) => ({
              userId: tenantId,
              channel: 'email' as const,
              kind: 'planner-request' as const,
              servicePlanId: first!.planId,
              assignmentId: first!.id,
              address: first!.email!,
              firstName: first!.name,
              token: crypto.randomBytes(24).toString('hex'),
            })),
          )
          .returning(['id', 'assignmentId', 'servicePlanId'])
          .execute();
        for (const group of groups) {
          const d = made.find((m) => m.assignmentId === group[0]!.id)!;
          emailPlans.add(d.servicePlanId!);
          await trx
            .updateTable('servicePlanAssignments')
            .set({ requestDeliveryId: d.id })
            .where(
              'id',
              'in',
              group.map((a) => a.id),
            )
            .execute();
        }
        await takeDailyAllowance(trx, tenantId, {
          channel: 'email',
          kind: 'planner-request',
          campaignId: null,
          recipients: groups.length,
          unverifiedLimit: config.unverifiedDailyRecipients,
        });
      }
      return {
        queued: ask.length + textOnly.length,
        people: new Set(asked.map((a) => a.memberId)).size,
        emailPlans,
        textPlans,
        skippedNoEmail: skipped,
        skippedSuppressed: suppressed,
        skippedUnsubscribed: unsubscribed,
        unasked: pending.length,
      };
    });
  for (const planId of emailPlans) await jobs.send('planner-request-deliver', { planId });
  for (const planId of textPlans) await jobs.send('planner-notice-deliver', { planId });
  const count = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  const message =
    unasked === 0
      ? 'Everyone scheduled has already been asked'
      : `Requests sent to ${count(people)}` +
        (skippedNoEmail.length ? `; no email address for ${skippedNoEmail.join(', ')}` : '') +
        (skippedSuppressed.length
          ? `; the email address of ${skippedSuppressed.join(', ')} is suppressed (it bounced or complained)`
          : '') +
        (skippedUnsubscribed.length ? `; ${skippedUnsubscribed.join(', ')} unsubscribed from email` : '') +
        (email.kind === 'outbox' ? ' (saved to your outbox: email sending is not set up on this server yet)' : '');
  return { sent: queued, people, skippedNoEmail, message };
}

function requestQuery(db: Db, token: string) {
  return assignmentsJoined(db)
    .innerJoin('users as u', 'u.id', 'a.userId')
    .leftJoin('churchSettings as s', 's.userId', 'a.userId')
    .select(['a.id', 'a.status', 'a.serviceTime', 'u.churchName', 'm.name as memberName', 'pos.name as positionName'])
    .select(['p.title as planTitle', 'p.date', 'p.startTime', 'p.location', 's.country', 's.timeZone'])
    .where('a.token', '=', token);
}

/** What a request link shows. Reading it never answers: mail scanners open links too. */
export async function getRequest(db: Db, input: { token: string }) {
  const row = await requestQuery(db, input.token).executeTakeFirst();
  if (!row) throw notFound('This link is not valid');
  const { id: _id, country, timeZone, ...rest } = row;
  // The locale the answer page writes the date in ('Sunday 7 December 2026' in Australia).
  const locale = churchLocale(effectiveCountry({ country, timeZone }));
  return { ...rest, positionName: rest.positionName ?? null, locale };
}

/** The person's answer (a POST from the confirmation page). They may change it later. */
export async function respondToRequest(db: Db, input: { token: string; response: 'accept' | 'decline' }) {
  const status = input.response === 'accept' ? 'confirmed' : 'declined';
  await db.transaction().execute(async (trx) => {
    const a = await assignmentsJoined(trx)
      .select(['a.id', 'a.userId', 'a.status', 'm.name', 'm.email', 'm.contactId', 'pos.name as positionName'])
      .select(['p.id as planId', 'p.title as planTitle'])
      .where('a.token', '=', input.token)
      .forUpdate('a')
      .executeTakeFirst();
    if (!a) throw notFound('This link is not valid');
    // A teammate covers the slot: its old links answer who, and change nothing.
    const cover = await coveredBy(trx, a.id);
    if (cover !== null) throw conflict(alreadyCoveredMessage(cover), 'token');
    await trx
      .updateTable('servicePlanAssignments')
      .set({ status, respondedAt: new Date(), updatedAt: new Date() })
      .where('id', '=', a.id)
      .execute();
    // They can serve after all: teammates still being asked to cover are no longer asked.
    if (status === 'confirmed')
      await trx
        .updateTable('substituteOffers')
        .set({ status: 'cancelled', updatedAt: new Date() })
        .where('assignmentId', '=', a.id)
        .where('kind', '=', 'substitute')
        .where('status', '=', 'open')
        .execute();
    // The same answer again (a second press) is not news.
    if (a.status !== status) {
      const type = status === 'confirmed' ? 'plan.accepted' : 'plan.declined';
      await recordEvent(trx, a.userId, planEvent(type, a, a.positionName));
    }
  });
  return getRequest(db, input);
}
