import QRCode from 'qrcode';
import type { EmailAttachment } from '../../providers/email.js';
import { escapeHtml } from '../../render/html.js';
import { formatCents } from '../../shared/giving.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import type { ChannelDriver, DeliveryGroup, RunResult } from '../delivery/engine.js';
import { deliverGroup, requeueStalled } from '../delivery/groups.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { churchLocaleOf } from '../settings/church-settings.js';
import { OFFER_HOURS } from '../../schemas/calendar-events.js';
import type { RegistrationNotice } from './deps.js';
import { ticketUrl } from './door.js';
import { eventIcs } from './files.js';
import { staffMessageEmail, staffMessageOf, staffMessageText } from './staff-messages.js';

// A registration's messages as deliveries of kind 'registration' of the one engine (its contact
// rule, claim, retries, `email.sent`), grouped by church: written from the registration when sent.
// The confirmation carries the details, the calendar file and a QR ticket per attendee.

export const REGISTRATION_DELIVERIES: DeliveryGroup = { kind: 'registration', column: 'user_id' };

/** A seat offered from the waitlist: the page that claims it (mounted by the public pages). */
export const offerUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/events/offers/${token}`;

interface Church {
  id: number;
  churchName: string;
  locale: string;
  timeZone: string;
  smsFromNumber: string | null;
}

const permanent = (message: string) => Object.assign(new Error(message), { permanent: true });

export interface RegistrationEmail {
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
}

/** The email of one notice about one registration. */
export async function registrationEmail(
  deps: Pick<DeliveryDeps, 'db' | 'config'>,
  church: Church,
  registrationId: number,
  notice: RegistrationNotice,
): Promise<RegistrationEmail | null> {
  const { db } = deps;
  const publicUrl = deps.config.publicUrl;
  const reg = await db
    .selectFrom('calendarRegistrations as r')
    .innerJoin('calendarEvents as e', 'e.id', 'r.eventId')
    .innerJoin('calendarEventTimes as t', 't.id', 'r.timeId')
    .select([
      'r.id',
      'r.userId',
      'r.name',
      'r.totalCents',
      'r.refundedCents',
      'r.refundDueCents',
      'r.offerToken',
      'r.eventId',
      'r.timeId',
      'e.title',
      'e.locationName',
      'e.address',
      't.startsAt',
    ])
    .where('r.id', '=', registrationId)
    .executeTakeFirst();
  if (!reg) return null;
  const when = new Intl.DateTimeFormat(church.locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: church.timeZone,
  }).format(reg.startsAt);
  const where = [reg.locationName, reg.address].filter(Boolean).join(', ');
  const details = [`${reg.title}`, when, ...(where ? [where] : [])];
  const attachments: EmailAttachment[] = [];
  let subject: string;
  let lines: string[];
  switch (notice) {
    case 'confirmed': {
      const attendees = await db
        .selectFrom('calendarAttendees as a')
        .innerJoin('calendarTicketTypes as k', 'k.id', 'a.ticketTypeId')
        .select(['a.name', 'a.ticketToken', 'k.name as ticket'])
        .where('a.registrationId', '=', reg.id)
        .orderBy('a.id')
        .execute();
      subject = `You're registered: ${reg.title}`;
      lines = [
        `Hello ${reg.name}, you're registered.`,
        ...details,
        ...attendees.map((a) => `${a.name} (${a.ticket}): your ticket is attached; show its QR code at the door.`),
        'The calendar file is attached too.',
      ];
      for (const [i, a] of attendees.entries()) {
        attachments.push({
          fileName: `ticket-${i + 1}-${a.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 40) || 'attendee'}.png`,
          contentType: 'image/png',
          content: await QRCode.toBuffer(ticketUrl(publicUrl, a.ticketToken), {
            type: 'png',
            errorCorrectionLevel: 'M',
            margin: 2,
            width: 320,
          }),
        });
      }
      const ics = await eventIcs(db, reg.userId, { id: reg.eventId, timeId: reg.timeId }, publicUrl);
      attachments.push({ fileName: ics.fileName, contentType: 'text/calendar', content: Buffer.from(ics.text) });
      break;
    }
    case 'waitlisted':
      subject = `You're on the waitlist: ${reg.title}`;
      lines = [
        `Hello ${reg.name}, this time is full, so you are on the waitlist.`,
        ...details,
        'If a seat comes free we will email you a link to claim it. Nothing has been charged.',
      ];
      break;
    case 'pending_approval':
      subject = `Registration received: ${reg.title}`;
      lines = [`Hello ${reg.name}, your registration waits for the church to approve it.`, ...details];
      break;
    case 'offered':
      if (!reg.offerToken) return null;
      subject = `A seat came free: ${reg.title}`;
      lines = [
        `Hello ${reg.name}, a seat came free for you.`,
        ...details,
        `Claim it within ${OFFER_HOURS} hours: ${offerUrl(publicUrl, reg.offerToken)}`,
        'If you do not, it goes to the next person waiting.',
      ];
      break;
    case 'late_refund':
      subject = `Your payment was refunded: ${reg.title}`;
      lines = [
        `Hello ${reg.name}, your payment came after your held seats were released, and the event is now full.`,
        `We have refunded the full ${formatCents(reg.refundDueCents + reg.refundedCents)}; nothing is charged.`,
        ...details,
      ];
      break;
    case 'cancelled': {
      const refund = reg.refundDueCents + reg.refundedCents;
      subject = `Registration cancelled: ${reg.title}`;
      lines = [
        `Hello ${reg.name}, your registration is cancelled.`,
        ...details,
        ...(refund > 0 ? [`A refund of ${formatCents(refund)} goes back to your card.`] : []),
      ];
      break;
    }
    case 'declined':
      subject = `Registration not approved: ${reg.title}`;
      lines = [`Hello ${reg.name}, the church could not approve your registration.`, ...details];
      break;
  }
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('')}<p>${escapeHtml(church.churchName)}</p></body></html>`;
  return { subject, html, text: `${lines.join('\n\n')}\n\n${church.churchName}\n`, attachments };
}

/** The church a registration message is sent for. */
async function loadChurch(db: DeliveryDeps['db'], userId: number): Promise<Church | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('churchSettings as s', 's.userId', 'u.id')
    .select(['u.id', 'u.churchName', 's.smsFromNumber'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row ? { ...row, ...(await churchLocaleOf(db, userId)) } : null;
}

/** A staff message's words (notice 'message'): `staff-messages.ts`. */
async function staffMessage(deps: DeliveryDeps, d: { calendarMessageId: number | null }) {
  const m = d.calendarMessageId ? await staffMessageOf(deps.db, d.calendarMessageId) : null;
  if (!m) throw permanent('The message is gone');
  return m;
}

/** The engine's driver of a church's registration emails. */
export function registrationDriver(deps: DeliveryDeps): ChannelDriver<Church> {
  const { db, email, config } = deps;
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  return {
    channel: 'email',
    group: REGISTRATION_DELIVERIES,
    ratePerSecond: config.emailRatePerSecond,
    concurrency: Math.min(config.emailConcurrency, 4),
    load: (userId) => loadChurch(db, userId),
    async send(church, d) {
      if (!d.registrationId || !d.registrationNotice) throw permanent('The delivery names no registration');
      const m =
        d.registrationNotice === 'message'
          ? { ...staffMessageEmail(await staffMessage(deps, d), church.churchName), attachments: [] }
          : await registrationEmail(deps, church, d.registrationId, d.registrationNotice);
      if (!m) throw permanent('The registration is gone');
      return email.send({
        from: formatFrom(church.churchName, config.emailFrom),
        onBehalfOf: church.id,
        to: d.address,
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers: {},
        attachments: m.attachments,
        messageId: `registration-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta: { userId: church.id, deliveryId: d.id },
      });
    },
    async finish() {},
  };
}

/** The engine's driver of a church's registration texts (staff messages to registrants). */
export function registrationSmsDriver(deps: DeliveryDeps): ChannelDriver<Church> {
  const { db, sms, config } = deps;
  return {
    channel: 'sms',
    group: REGISTRATION_DELIVERIES,
    ratePerSecond: config.smsRatePerSecond,
    concurrency: config.smsConcurrency,
    load: (userId) => loadChurch(db, userId),
    async send(church, d) {
      if (d.registrationNotice !== 'message') throw permanent('Only staff messages are texted');
      return sms.send({
        to: d.address,
        from: church.smsFromNumber || config.smsFromNumber,
        body: staffMessageText(await staffMessage(deps, d), church.churchName),
        statusCallback: `${config.publicUrl}/api/sms/status`,
        meta: { userId: church.id, deliveryId: d.id },
      });
    },
    async finish() {},
  };
}

const REGISTRATION_JOB = { name: 'registration-deliver', payload: (userId: number) => ({ userId }) } as const;

/** The 'registration-deliver' job: send a church's pending registration messages; come back for retries. */
export async function deliverRegistrationMessages(deps: DeliveryDeps, userId: number): Promise<RunResult[]> {
  return deliverGroup(deps, [registrationDriver(deps), registrationSmsDriver(deps)], userId, REGISTRATION_JOB);
}

/** Part of the delivery sweep: churches whose registration messages a dead worker (or a lost job) left. */
export async function sweepRegistrationMessages(deps: DeliveryDeps, opts: { force?: boolean } = {}): Promise<void> {
  await requeueStalled(deps, REGISTRATION_DELIVERIES, REGISTRATION_JOB, opts);
}
