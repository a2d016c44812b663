import { sql, type Db } from '@lampstand/db';
import { type ChannelDriver, type Delivery, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { fillMergeTags, renderEmail } from '../email-campaigns/render.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { verpAddress } from '../deliverability/reports.js';
import { escapeHtml } from '../../render/html.js';
import { parseDefinition, stepById, type JourneyDefinition } from './definitions.js';
import { giveLinkOf } from '../giving/renewals.js';

/**
 * A journey's messages as an entry of the one delivery engine: the deliveries of kind
 * 'journey' of one journey are claimed, paced (the channel's rate slot and in-flight limit),
 * retried, fenced and recorded exactly as a campaign's. What differs is the message: the step's
 * email (merge tags, tracking, the footer with the unsubscribe and subscriptions links) or text,
 * or a staff member's email about a task or a notice. They were counted against the daily limit
 * when the runner queued them. One driver per channel: email and SMS have their own pace.
 */
export const JOURNEY_DELIVERIES: DeliveryGroup = { kind: 'journey', column: 'journey_id' };

interface JourneyForSending {
  id: number;
  userId: number;
  name: string;
  churchName: string;
  postalAddress: string | null;
  smsFromNumber: string | null;
  /** Every version's definition, as of `loadedAt` (the database's clock). */
  versions: Map<number, JourneyDefinition>;
  loadedAt: Date;
  /** Read the versions again (one read shared by the sends waiting for it). */
  reload: () => Promise<void>;
}

/**
 * The step a delivery belongs to, from the journey's versions read once per run (the enrolment's
 * version is looked up only when the journey has several), and the person a staff email is about.
 */
async function stepOf(db: Db, j: JourneyForSending, d: Delivery) {
  // A delivery made after the versions were read may belong to a newer one: they are read again
  // (the runner queues while the job sends), and only with several is the enrolment's looked up.
  if (d.createdAt >= j.loadedAt) await j.reload();
  const known = j.versions.size === 1 && d.createdAt < j.loadedAt;
  let version = known ? [...j.versions.keys()][0]! : null;
  let about = { firstName: '', lastName: '' };
  const staffMessage = d.contactId === null;
  if (version === null || staffMessage) {
    const e = await db
      .selectFrom('journeyEnrollments as e')
      .leftJoin('contacts as c', 'c.id', 'e.contactId')
      .select(['e.version', 'c.firstName', 'c.lastName'])
      .where('e.id', '=', d.journeyEnrollmentId!)
      .executeTakeFirst();
    if (!e) throw Object.assign(new Error('The enrolment was deleted'), { permanent: true });
    version = e.version;
    // A test on the account's own address is about the church itself (as the runner names it).
    about =
      e.firstName === null
        ? { firstName: j.churchName, lastName: '' }
        : { firstName: e.firstName, lastName: e.lastName ?? '' };
  }
  const def = j.versions.get(version);
  const at = def ? stepById(def, d.journeyStepId) : null;
  if (!at) throw Object.assign(new Error('The step no longer exists'), { permanent: true });
  return { step: at.step, about };
}

/**
 * A staff member's email (a task to do, a notice about a person): its lines, a link into Lampstand,
 * and a footer naming where it comes from ('Grace Church · the journey Welcome').
 */
export function staffMessage(o: { subject: string; lines: string[]; link: string; footer: string }): {
  subject: string;
  html: string;
  text: string;
} {
  const html =
    `<!doctype html><html><head><meta charset="utf-8"></head><body style="font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
    o.lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, '<br>')}</p>`).join('') +
    `<p><a href="${escapeHtml(o.link)}" style="color:#364fc7">Open in Lampstand</a></p>` +
    `<p style="color:#6b7280;font-size:13px">${escapeHtml(o.footer)}</p></body></html>`;
  const text = `${o.lines.join('\n\n')}\n\nOpen in Lampstand: ${o.link}\n\n${o.footer}\n`;
  return { subject: o.subject, html, text };
}

const staffEmail = (j: JourneyForSending, o: { to: string; subject: string; lines: string[]; link: string }) =>
  staffMessage({ ...o, footer: `${j.churchName} · the journey ${j.name}` });

export function journeyDriver(deps: DeliveryDeps, channel: 'email' | 'sms'): ChannelDriver<JourneyForSending> {
  const { db, email, sms, config } = deps;
  const host = () => new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel,
    group: JOURNEY_DELIVERIES,
    ...(channel === 'email'
      ? { ratePerSecond: config.emailRatePerSecond, concurrency: config.emailConcurrency }
      : { ratePerSecond: config.smsRatePerSecond, concurrency: config.smsConcurrency }),
    async load(journeyId) {
      const { rows } = await sql<Omit<JourneyForSending, 'versions' | 'loadedAt' | 'reload'>>`
        select j.id, j.user_id, j.name, u.church_name, s.postal_address, s.sms_from_number
        from journeys j join users u on u.id = j.user_id left join church_settings s on s.user_id = j.user_id
        where j.id = ${journeyId}`.execute(db);
      const row = rows[0];
      if (!row) return null;
      const readVersions = async () => {
        const { rows: versions } = await sql<{ version: number; definition: unknown; loadedAt: Date }>`
          select version, definition, now() as loaded_at from journey_versions where journey_id = ${journeyId}`.execute(
          db,
        );
        const loadedAt = versions[0] ? new Date(versions[0].loadedAt) : new Date(0);
        return {
          loadedAt,
          versions: new Map(versions.map((v) => [v.version, parseDefinition(row.name, v.definition)])),
        };
      };
      let reading: Promise<void> | null = null;
      const j: JourneyForSending = {
        ...row,
        ...(await readVersions()),
        reload: () =>
          (reading ??= readVersions().then((r) => {
            j.versions = r.versions;
            j.loadedAt = r.loadedAt;
            // The next delivery newer than this read reads again.
            reading = null;
          })),
      };
      return j;
    },
    async send(j, d) {
      const { step, about } = await stepOf(db, j, d);
      // A step that carries a recurring giver's personal link ({{giveLink}}) reads it now.
      const text = step.kind === 'sms' ? step.body : step.kind === 'email' ? step.content : '';
      const giveLink =
        text.includes('giveLink') && d.contactId ? await giveLinkOf(db, d.contactId, config.publicUrl) : undefined;
      const values = { firstName: about.firstName, lastName: about.lastName, churchName: j.churchName, giveLink };
      const meta = { userId: j.userId, deliveryId: d.id };
      if (step.kind === 'sms') {
        return sms.send({
          to: d.address,
          from: j.smsFromNumber || config.smsFromNumber,
          body: fillMergeTags(step.body, { ...values, firstName: d.firstName, lastName: d.lastName }, { html: false }),
          statusCallback: `${config.publicUrl}/api/sms/status`,
          meta,
        });
      }
      let message: { subject: string; html: string; text: string; headers?: Record<string, string> };
      if (step.kind === 'email') {
        message = renderEmail({
          subject: step.subject,
          html: step.content,
          churchName: j.churchName,
          postalAddress: j.postalAddress,
          recipient: { firstName: d.firstName, lastName: d.lastName, giveLink },
          tracking: { publicUrl: config.publicUrl, secret: config.trackingSecret, token: d.token },
          publicUrl: config.publicUrl,
        });
      } else if (step.kind === 'task') {
        const title = fillMergeTags(step.title, values, { html: false }).trim();
        const notes = fillMergeTags(step.notes, values, { html: false });
        message = staffEmail(j, {
          to: d.address,
          subject: `A follow-up for you: ${title}`,
          lines: [
            `Hello ${d.firstName || 'there'},`,
            `You have a follow-up: ${title}${about.firstName ? ` (about ${`${about.firstName} ${about.lastName}`.trim()})` : ''}.`,
            ...(notes ? [notes] : []),
          ],
          link: `${config.publicUrl}/tasks`,
        });
      } else if (step.kind === 'notify') {
        message = staffEmail(j, {
          to: d.address,
          subject: fillMergeTags(step.subject, values, { html: false }),
          lines: [
            fillMergeTags(step.message, values, { html: false }) ||
              fillMergeTags(step.subject, values, { html: false }),
          ],
          link: `${config.publicUrl}/journeys/${j.id}`,
        });
      } else {
        throw Object.assign(new Error(`A ${step.kind} step sends nothing`), { permanent: true });
      }
      return email.send({
        from: formatFrom(j.churchName, config.emailFrom),
        onBehalfOf: j.userId,
        to: d.address,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers ?? {},
        // The same id on every try of one message: a receiver can drop a duplicate.
        messageId: `journey-${d.id}.${d.token.slice(0, 12)}@${host()}`,
        // VERP, as a campaign's: a bounce comes back to an address naming this delivery.
        returnPath: verpAddress(d.token, config.bounceDomain ?? host()),
        meta,
      });
    },
    // Nothing to mark on the journey: each step counts its own deliveries (stats).
    async finish() {},
  };
}

const JOURNEY_JOB = { name: 'journey-deliver', payload: (journeyId: number) => ({ journeyId }) } as const;

/** The 'journey-deliver' job: send a journey's pending messages of both channels; come back for retries. */
export async function deliverJourney(deps: DeliveryDeps, journeyId: number): Promise<RunResult[]> {
  return deliverGroup(deps, [journeyDriver(deps, 'email'), journeyDriver(deps, 'sms')], journeyId, JOURNEY_JOB);
}

/**
 * Part of the runner's loop: journeys with messages a dead worker left (or a lost job), queued
 * again when work is claimable now yet nothing moved for 30 s.
 */
export async function sweepJourneyDeliveries(deps: DeliveryDeps): Promise<number> {
  return (await requeueStalled(deps, JOURNEY_DELIVERIES, JOURNEY_JOB)).length;
}
