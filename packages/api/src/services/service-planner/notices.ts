import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import { type ChannelDriver, type Delivery, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { takeDailyAllowance } from '../delivery/daily-limit.js';
import { contactVerdict } from '../delivery/contact-rule.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { escapeHtml } from '../../render/html.js';
import { longDate, shortTime } from './request-channel.js';
import { formatDayAndTime, type Locale } from '../../shared/format.js';
import { churchLocale } from '../../shared/locale.js';
import { effectiveCountry } from '../settings/church-settings.js';

/**
 * The planner's other messages as an entry of the one delivery engine: reminders,
 * offers to cover a slot, 'it is filled', and the leader's notices. Deliveries of kind
 * 'planner-notice', grouped by plan; `planner_notice` says which message:
 * - `request`           the request to serve as a text (its email is a 'planner-request' delivery);
 * - `reminder:<days>`   a reminder to the assignment's person, <days> before the plan;
 * - `offer:<candidate>` 'Can you cover …?' to a teammate (the candidate row holds their Accept link);
 * - `filled:<candidate>` to a teammate who was offered the slot: someone else took it;
 * - `covered`           to the person who asked: a teammate covers their slot;
 * - `leader-filled` / `leader-unfilled`  to the church's account email: who covers, or nobody did.
 * One (assignment, notice, channel) is one delivery (a unique index): a notice goes out once.
 */
export const PLANNER_NOTICES: DeliveryGroup = { kind: 'planner-notice', column: 'service_plan_id' };

/** One address a notice goes to. */
export interface NoticeTarget {
  channel: 'email' | 'sms';
  address: string;
  contactId: number | null;
  firstName: string;
}

/**
 * Where a team member can be reached, by the contact rule (operational: `contact-rule.ts`): email
 * at the member's address (or their contact's) unless it is suppressed or unsubscribed from email;
 * a text to the linked contact's mobile unless it texted STOP. The engine asks the rule again just
 * before each send.
 */
export async function memberTargets(db: Db, tenantId: number, memberId: number): Promise<NoticeTarget[]> {
  const m = await db
    .selectFrom('teamMembers as m')
    .leftJoin('contacts as c', (j) => j.onRef('c.id', '=', 'm.contactId').on('c.userId', '=', tenantId))
    .select(['m.name', 'm.contactId', 'm.email', 'c.email as contactEmail', 'c.phoneE164'])
    .where('m.id', '=', memberId)
    .where('m.userId', '=', tenantId)
    .executeTakeFirst();
  if (!m) return [];
  const targets: NoticeTarget[] = [];
  const email = (m.email || m.contactEmail || '').trim();
  // Quiet hours aside (`answer`): a text in them is queued and waits in the engine until they end.
  const reachable = async (channel: 'email' | 'sms', address: string) =>
    (await contactVerdict(db, tenantId, { channel, address, purpose: 'operational', answer: true })).send;
  const base = { contactId: m.contactId, firstName: m.name };
  if (email && (await reachable('email', email))) targets.push({ channel: 'email', address: email, ...base });
  if (m.phoneE164 && (await reachable('sms', m.phoneE164)))
    targets.push({ channel: 'sms', address: m.phoneE164, ...base });
  return targets;
}

/** The church's account email: where a leader's notice goes (the staff who schedule). */
export async function leaderTarget(db: Db, tenantId: number): Promise<NoticeTarget> {
  const u = await db
    .selectFrom('users')
    .select(['email', 'churchName'])
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return { channel: 'email', address: u.email, contactId: null, firstName: u.churchName };
}

/**
 * Inside the caller's transaction: the notice's deliveries (each (assignment, notice, channel) once;
 * one written before is left alone), counted against the church's daily limit (a message to the
 * leader is not). Over the limit: the 429 rolls the caller's transaction back. Returns the channels
 * written now (empty when the notice went out before).
 */
export async function queueNotice(
  trx: Db,
  tenantId: number,
  o: { planId: number; assignmentId: number; notice: string; offerId?: number | null; targets: NoticeTarget[] },
): Promise<('email' | 'sms')[]> {
  if (o.targets.length === 0) return [];
  const rows = await trx
    .insertInto('deliveries')
    .values(
      o.targets.map((t) => ({
        userId: tenantId,
        kind: 'planner-notice' as const,
        channel: t.channel,
        servicePlanId: o.planId,
        assignmentId: o.assignmentId,
        plannerNotice: o.notice,
        substituteOfferId: o.offerId ?? null,
        contactId: t.contactId,
        address: t.address,
        firstName: t.firstName,
        token: crypto.randomBytes(24).toString('hex'),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['assignmentId', 'plannerNotice', 'channel']).where('kind', '=', 'planner-notice').doNothing(),
    )
    .returning(['channel'])
    .execute();
  // A message to the church's own staff is not counted (as a journey's staff email is not).
  if (!o.notice.startsWith('leader-')) {
    for (const channel of ['email', 'sms'] as const) {
      const n = rows.filter((r) => r.channel === channel).length;
      if (n > 0)
        await takeDailyAllowance(trx, tenantId, { channel, kind: 'planner-notice', campaignId: null, recipients: n });
    }
  }
  return rows.map((r) => r.channel);
}

interface PlanForNotices {
  id: number;
  userId: number;
  title: string;
  date: string;
  startTime: string | null;
  serviceTimes: string[];
  location: string | null;
  churchName: string;
  smsFromNumber: string | null;
  /** 'en-AU': how the church writes dates and times. */
  locale: string;
}

/** The plan's first time ('HH:MM'): its start, else its first service time; null when it has none. */
export const planTime = (p: { startTime: string | null; serviceTimes: string[] }) =>
  p.startTime ?? p.serviceTimes[0] ?? null;

/**
 * The plan as one assignment sees it: its own service time as the start when it has
 * one, else the plan's own times.
 */
export const atServiceTime = <P extends { startTime: string | null }>(p: P, serviceTime: string | null): P =>
  serviceTime ? { ...p, startTime: serviceTime } : p;

/**
 * 'Sunday, December 7 at 9:00 AM' (the plan's day and first time) as the offer's question names
 * it, in the church's locale: 'Sunday 7 December at 9:00 am' in Australia.
 */
export function dayAndTime(
  p: { date: string; startTime: string | null; serviceTimes: string[] },
  o: Locale = {},
): string {
  return formatDayAndTime(p.date, planTime(p), o);
}

const when = (p: PlanForNotices) => {
  const t = planTime(p);
  const o = { locale: p.locale };
  return `${longDate(p.date, o)}${t ? ` at ${shortTime(t, o)}` : ''}`;
};

interface Message {
  subject: string;
  lines: string[];
  link?: { label: string; url: string };
}

/** A message as email (HTML and text) or as a text message. */
function render(plan: PlanForNotices, m: Message) {
  const html =
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
    m.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    (m.link
      ? `<p><a href="${escapeHtml(m.link.url)}" style="background:#364fc7;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(m.link.label)}</a></p>`
      : '') +
    `<p style="color:#6b7280;font-size:13px">${escapeHtml(plan.churchName)}</p></body></html>`;
  const text = `${m.lines.join('\n\n')}${m.link ? `\n\n${m.link.label}: ${m.link.url}` : ''}\n\n${plan.churchName}\n`;
  const sms = `${m.lines.slice(1).join(' ')}${m.link ? ` ${m.link.label}: ${m.link.url}` : ''}`;
  return { subject: m.subject, html, text, sms };
}

/** What a delivery says, read at send time (a name or item may have changed since it was queued). */
async function compose(db: Db, planRow: PlanForNotices, d: Delivery, publicUrl: string): Promise<Message> {
  const gone = () => Object.assign(new Error('No longer scheduled'), { permanent: true });
  const a = await db
    .selectFrom('servicePlanAssignments as a')
    .innerJoin('teamMembers as m', 'm.id', 'a.teamMemberId')
    .leftJoin('teamPositions as pos', 'pos.id', 'a.positionId')
    .select(['a.id', 'a.token', 'a.status', 'a.serviceTime', 'a.teamMemberId', 'm.name', 'pos.name as positionName'])
    .where('a.id', '=', d.assignmentId!)
    .executeTakeFirst();
  if (!a) throw gone();
  // The slot's own time: a plan held at 9:00 and 11:00 reminds the 11:00 team of 11:00.
  const plan = atServiceTime(planRow, a.serviceTime);
  const position = a.positionName ?? 'your position';
  const slot = `${position} on ${dayAndTime(plan, { locale: plan.locale })}`;
  const [notice, arg] = (d.plannerNotice ?? '').split(':') as [string, string | undefined];
  const hi = `Hi ${d.firstName || 'there'},`;
  const place = plan.location ? ` at ${plan.location}` : '';
  if (notice === 'request')
    return {
      subject: `Can you serve as ${position} on ${when(plan)}?`,
      lines: [hi, `Can you serve as ${position} at ${plan.title} on ${when(plan)}${place}?`],
      link: { label: 'Answer', url: `${publicUrl}/serve/${a.token}` },
    };
  if (notice === 'reminder') {
    const items = await db
      .selectFrom('servicePlanAssignments as x')
      .innerJoin('serviceItems as i', 'i.id', 'x.serviceItemId')
      .select(['i.title'])
      .where('x.servicePlanId', '=', plan.id)
      .where('x.teamMemberId', '=', a.teamMemberId)
      .where('x.status', '<>', 'declined')
      .orderBy('i.position')
      .execute();
    const pending = a.status === 'scheduled';
    return {
      subject: `Reminder: ${plan.title} on ${when(plan)}`,
      lines: [
        hi,
        `A reminder: you serve as ${position} at ${plan.title} on ${when(plan)}${place}.`,
        ...(items.length ? [`Your items: ${items.map((i) => i.title).join(', ')}.`] : []),
        ...(pending ? ['You have not answered yet: can you serve?'] : []),
      ],
      link: { label: pending ? 'Answer' : 'Change my answer', url: `${publicUrl}/serve/${a.token}` },
    };
  }
  if (notice === 'offer' || notice === 'filled') {
    const c = await db
      .selectFrom('substituteOfferCandidates')
      .select(['token'])
      .where('id', '=', Number(arg))
      .executeTakeFirst();
    if (!c) throw gone();
    if (notice === 'offer')
      return {
        subject: `Can you cover ${slot}?`,
        lines: [
          hi,
          `Can you cover ${slot}? ${a.name} can't serve at ${plan.title} on ${when(plan)}${place}. The first teammate to accept gets it.`,
        ],
        link: { label: 'Accept', url: `${publicUrl}/serve/cover/${c.token}` },
      };
    return {
      subject: `${slot} is covered`,
      lines: [hi, `${slot} is covered: another teammate said yes first. Thank you for being ready to help!`],
    };
  }
  const offer = await db
    .selectFrom('substituteOffers as o')
    .leftJoin('servicePlanAssignments as f', 'f.id', 'o.filledAssignmentId')
    .leftJoin('teamMembers as fm', 'fm.id', 'f.teamMemberId')
    .select(['o.id', 'fm.name as coverName'])
    .where('o.id', '=', d.substituteOfferId!)
    .executeTakeFirst();
  if (!offer) throw gone();
  const cover = offer.coverName ?? 'A teammate';
  const planLink = { label: 'Open the plan', url: `${publicUrl}/service-planner/plans/${plan.id}` };
  if (notice === 'covered')
    return {
      subject: `${cover} covers ${slot}`,
      lines: [hi, `${cover} covers ${slot} at ${plan.title} for you.`],
    };
  if (notice === 'leader-filled')
    return {
      subject: `${cover} covers ${slot}`,
      lines: [hi, `${cover} accepted to cover ${slot} at ${plan.title} for ${a.name}.`],
      link: planLink,
    };
  if (notice === 'leader-unfilled')
    return {
      subject: `Nobody has covered ${slot}`,
      lines: [hi, `Nobody has accepted to cover ${slot} at ${plan.title} for ${a.name}. Please find someone.`],
      link: planLink,
    };
  throw Object.assign(new Error(`Unknown notice ${d.plannerNotice}`), { permanent: true });
}

/** The engine's driver of a plan's notices, one per channel (each has its own pace). */
export function plannerNoticeDriver(deps: DeliveryDeps, channel: 'email' | 'sms'): ChannelDriver<PlanForNotices> {
  const { db, email, sms, config } = deps;
  return {
    channel,
    group: PLANNER_NOTICES,
    ...(channel === 'email'
      ? { ratePerSecond: config.emailRatePerSecond, concurrency: config.emailConcurrency }
      : { ratePerSecond: config.smsRatePerSecond, concurrency: config.smsConcurrency }),
    async load(planId) {
      const plan = await db
        .selectFrom('servicePlans as p')
        .innerJoin('users as u', 'u.id', 'p.userId')
        .leftJoin('churchSettings as s', 's.userId', 'p.userId')
        .select(['p.id', 'p.userId', 'p.title', 'p.date', 'p.startTime', 'p.serviceTimes', 'p.location'])
        .select(['u.churchName', 's.smsFromNumber', 's.country', 's.timeZone'])
        .where('p.id', '=', planId)
        .executeTakeFirst();
      return plan ? { ...plan, locale: churchLocale(effectiveCountry(plan)) } : null;
    },
    async send(plan, d) {
      const m = render(plan, await compose(db, plan, d, config.publicUrl));
      const meta = { userId: plan.userId, deliveryId: d.id };
      if (d.channel === 'sms')
        return sms.send({
          to: d.address,
          from: plan.smsFromNumber || config.smsFromNumber,
          body: m.sms,
          statusCallback: `${config.publicUrl}/api/sms/status`,
          meta,
        });
      const host = new URL(config.publicUrl).hostname || 'lampstand.local';
      return email.send({
        from: formatFrom(plan.churchName, config.emailFrom),
        to: d.address,
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers: {},
        // The same id on every try of one message: a receiver can drop a duplicate.
        messageId: `serve-notice-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta,
      });
    },
    async finish() {},
  };
}

/** The 'planner-notice-deliver' job: a plan's pending notices, email and texts; later for retries. */
const PLANNER_NOTICE_JOB = { name: 'planner-notice-deliver', payload: (planId: number) => ({ planId }) } as const;

export async function deliverPlannerNotices(deps: DeliveryDeps, planId: number): Promise<RunResult[]> {
  const drivers = [plannerNoticeDriver(deps, 'email'), plannerNoticeDriver(deps, 'sms')];
  return deliverGroup(deps, drivers, planId, PLANNER_NOTICE_JOB);
}

/** Part of the planner's due job: plans with notices a dead worker left (or a lost job), queued again. */
export async function sweepPlannerNotices(deps: DeliveryDeps): Promise<void> {
  await requeueStalled(deps, PLANNER_NOTICES, PLANNER_NOTICE_JOB);
}
