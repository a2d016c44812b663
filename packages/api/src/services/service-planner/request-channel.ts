import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { escapeHtml } from '../../render/html.js';
import { formatLongDate, formatWallTime, type Locale } from '../../shared/format.js';
import { churchLocale } from '../../shared/locale.js';
import { effectiveCountry } from '../settings/church-settings.js';

/**
 * Planner requests as an entry of the one delivery engine: the deliveries of kind
 * 'planner-request' of one service plan are claimed, paced (the email rate slot and in-flight
 * limit), retried, fenced and recorded exactly like a campaign's; only the message and what is
 * recorded at the end differ. They were counted against the daily limit when queued (`sendRequests`).
 */
export const PLANNER_REQUESTS: DeliveryGroup = { kind: 'planner-request', column: 'service_plan_id' };

interface PlanForRequests {
  id: number;
  userId: number;
  title: string;
  date: string;
  startTime: string | null;
  location: string | null;
  churchName: string;
  /** 'en-AU': how the church writes dates and times (the US's when left out). */
  locale?: string;
}

/** 'Sunday, December 6, 2026' from 'YYYY-MM-DD' (no time zone shift); 'Sunday 6 December 2026' in Australia. */
export function longDate(date: string, o: Locale = {}): string {
  return formatLongDate(date, o);
}

/** '10:30 AM' from 'HH:MM'; '10:30 am' in Australia, '10:30' in the UK. */
export function shortTime(hhmm: string, o: Locale = {}): string {
  return formatWallTime(hhmm, o);
}

/** The page the links in a request open (answers need a button press there: a POST). */
const requestUrl = (publicUrl: string, token: string, answer: 'accept' | 'decline') =>
  `${publicUrl}/serve/${token}?answer=${answer}`;

/** The request email: who is asked, for what, with Accept and Decline links. */
export function renderRequest(
  plan: PlanForRequests,
  a: { name: string; token: string; positionName: string | null; serviceTime?: string | null },
  publicUrl: string,
): { subject: string; html: string; text: string } {
  // The assignment's own service time when it has one, else the plan's start.
  const time = a.serviceTime ?? plan.startTime;
  const o = { locale: plan.locale };
  const when = `${longDate(plan.date, o)}${time ? ` at ${shortTime(time, o)}` : ''}`;
  const role = a.positionName ? ` as ${a.positionName}` : '';
  const accept = requestUrl(publicUrl, a.token, 'accept');
  const decline = requestUrl(publicUrl, a.token, 'decline');
  const subject = `Can you serve${role} on ${longDate(plan.date, o)}?`;
  const html =
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
    `<p>Hi ${escapeHtml(a.name)},</p>` +
    `<p>${escapeHtml(plan.churchName)} has scheduled you${escapeHtml(role)} for <strong>${escapeHtml(plan.title)}</strong> on ${escapeHtml(when)}` +
    `${plan.location ? ` at ${escapeHtml(plan.location)}` : ''}.</p><p>Can you serve?</p>` +
    `<p><a href="${escapeHtml(accept)}" style="background:#364fc7;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Accept</a> ` +
    `&nbsp; <a href="${escapeHtml(decline)}" style="color:#364fc7">Decline</a></p>` +
    `<p style="color:#6b7280;font-size:13px">${escapeHtml(plan.churchName)}</p></body></html>`;
  const text =
    `Hi ${a.name},\n\n${plan.churchName} has scheduled you${role} for ${plan.title} on ${when}` +
    `${plan.location ? ` at ${plan.location}` : ''}.\n\nCan you serve?\n\nAccept: ${accept}\nDecline: ${decline}\n\n${plan.churchName}\n`;
  return { subject, html, text };
}

/** One slot of a request that lists several: its plan, when, the position and its own links. */
export interface RequestSlot {
  token: string;
  positionName: string | null;
  serviceTime: string | null;
  plan: { title: string; date: string; startTime: string | null; location: string | null };
}

/**
 * The request email for several slots of one person (one scheduling action): each date with its
 * plan, position and own Accept and Decline links, in date order.
 */
export function renderRequests(
  church: { churchName: string; locale?: string },
  person: { name: string },
  slots: RequestSlot[],
  publicUrl: string,
): { subject: string; html: string; text: string } {
  const o = { locale: church.locale };
  const line = (x: RequestSlot) => {
    const time = x.serviceTime ?? x.plan.startTime;
    const when = `${longDate(x.plan.date, o)}${time ? ` at ${shortTime(time, o)}` : ''}`;
    const role = x.positionName ? ` as ${x.positionName}` : '';
    const where = x.plan.location ? ` at ${x.plan.location}` : '';
    return { when, what: `${x.plan.title}${role}${where}` };
  };
  const dates = new Set(slots.map((x) => x.plan.date)).size;
  const subject = `Can you serve on ${dates === 1 ? longDate(slots[0]!.plan.date, o) : `${dates} dates`}?`;
  const items = slots
    .map((x) => {
      const l = line(x);
      const accept = requestUrl(publicUrl, x.token, 'accept');
      const decline = requestUrl(publicUrl, x.token, 'decline');
      return (
        `<li style="margin-bottom:14px"><strong>${escapeHtml(l.when)}</strong><br>${escapeHtml(l.what)}<br>` +
        `<a href="${escapeHtml(accept)}" style="color:#364fc7;font-weight:600">Accept</a> &nbsp;·&nbsp; ` +
        `<a href="${escapeHtml(decline)}" style="color:#364fc7">Decline</a></li>`
      );
    })
    .join('');
  const html =
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
    `<p>Hi ${escapeHtml(person.name)},</p>` +
    `<p>${escapeHtml(church.churchName)} has scheduled you on these dates. Can you serve? Answer each on its own.</p>` +
    `<ul style="padding-left:20px">${items}</ul>` +
    `<p style="color:#6b7280;font-size:13px">${escapeHtml(church.churchName)}</p></body></html>`;
  const text =
    `Hi ${person.name},\n\n${church.churchName} has scheduled you on these dates. Can you serve? Answer each on its own.\n\n` +
    slots
      .map((x) => {
        const l = line(x);
        return `${l.when}\n${l.what}\nAccept: ${requestUrl(publicUrl, x.token, 'accept')}\nDecline: ${requestUrl(publicUrl, x.token, 'decline')}`;
      })
      .join('\n\n') +
    `\n\n${church.churchName}\n`;
  return { subject, html, text };
}

/** The engine's driver of a plan's requests. */
export function plannerRequestDriver(deps: DeliveryDeps): ChannelDriver<PlanForRequests> {
  const { db, email, config } = deps;
  return {
    channel: 'email',
    group: PLANNER_REQUESTS,
    // The same pace as campaign email: one rate bucket and one in-flight limit for all email.
    ratePerSecond: config.emailRatePerSecond,
    concurrency: config.emailConcurrency,
    async load(planId) {
      const plan = await db
        .selectFrom('servicePlans as p')
        .innerJoin('users as u', 'u.id', 'p.userId')
        .leftJoin('churchSettings as s', 's.userId', 'p.userId')
        .select(['p.id', 'p.userId', 'p.title', 'p.date', 'p.startTime', 'p.location', 'u.churchName'])
        .select(['s.country', 's.timeZone'])
        .where('p.id', '=', planId)
        .executeTakeFirst();
      return plan ? { ...plan, locale: churchLocale(effectiveCountry(plan)) } : null;
    },
    async send(plan, d) {
      // Read at send time: the position may have changed since the request was queued. The
      // delivery's own assignment, and the others of the same request (one email for several).
      const slots = await db
        .selectFrom('servicePlanAssignments as a')
        .innerJoin('servicePlans as p', 'p.id', 'a.servicePlanId')
        .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
        .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
        .select(['a.id', 'a.token', 'a.serviceTime', 'm.name', 'pos.name as positionName'])
        .select(['p.title', 'p.date', 'p.startTime', 'p.location'])
        .where('a.userId', '=', plan.userId)
        .where((eb) => eb.or([eb('a.id', '=', d.assignmentId!), eb('a.requestDeliveryId', '=', d.id)]))
        .orderBy('p.date')
        .orderBy('p.startTime')
        .orderBy('a.id')
        .execute();
      const a = slots.find((x) => x.id === d.assignmentId);
      // Removed from the plan meanwhile (its deliveries go with it; this is the race in between).
      if (!a) throw Object.assign(new Error('No longer scheduled'), { permanent: true });
      const host = new URL(config.publicUrl).hostname || 'lampstand.local';
      const message =
        slots.length === 1
          ? renderRequest(plan, a, config.publicUrl)
          : renderRequests(
              plan,
              a,
              slots.map((x) => ({
                token: x.token,
                positionName: x.positionName,
                serviceTime: x.serviceTime,
                plan: { title: x.title, date: x.date, startTime: x.startTime, location: x.location },
              })),
              config.publicUrl,
            );
      return email.send({
        from: formatFrom(plan.churchName, config.emailFrom),
        onBehalfOf: plan.userId,
        to: d.address,
        ...message,
        headers: {},
        // The same id on every try of one request: a receiver can drop a duplicate.
        messageId: `serve-${a.id}.${d.token.slice(0, 12)}@${host}`,
        meta: { userId: plan.userId, deliveryId: d.id },
      });
    },
    // Nothing to mark on the plan: each assignment shows its own request (see assignments.ts).
    async finish() {},
    async failed(d) {
      // Not asked after all (every slot the email listed): the planner sees why (the delivery's
      // last error, which each slot still names) and can send again.
      await db
        .updateTable('servicePlanAssignments')
        .set({ requestedAt: null, updatedAt: new Date() })
        .where((eb) => eb.or([eb('id', '=', d.assignmentId!), eb('requestDeliveryId', '=', d.id)]))
        .where('userId', '=', d.userId)
        .execute();
    },
  };
}

/** The 'planner-request-deliver' job: send a plan's pending requests; come back later for retries. */
const PLANNER_REQUEST_JOB = { name: 'planner-request-deliver', payload: (planId: number) => ({ planId }) } as const;

export async function deliverPlannerRequests(deps: DeliveryDeps, planId: number): Promise<RunResult> {
  return (await deliverGroup(deps, [plannerRequestDriver(deps)], planId, PLANNER_REQUEST_JOB))[0]!;
}

/**
 * Part of the sweep: plans with requests a dead worker left (or a lost job), queued again. Without
 * `force`, only when work is claimable now yet nothing moved for 30 s.
 */
export async function sweepPlannerRequests(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, PLANNER_REQUESTS, PLANNER_REQUEST_JOB, opts);
}
