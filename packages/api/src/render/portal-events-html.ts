import { escapeHtml as e } from './html.js';
import { formatCents } from '../shared/giving.js';
import type { AnswerValue } from '../schemas/calendar-registrations.js';
import type { Question } from '../services/calendar/answers.js';
import type { MemberEvent, PortalRegistration, PortalRegistrationDetail } from '../services/calendar/portal-events.js';
import { EVENTS_CSS, whenText } from './events-html.js';

// 'My events' in the members' portal: the person's registrations (cancel one, change the
// answers), and the events they may register for; forms without script, each with the session's token.

type Zone = { locale: string; timeZone: string };

const STATUS: Record<string, string> = {
  confirmed: 'Registered',
  held: 'Waiting for payment',
  pending_approval: 'Waiting for approval',
  waitlisted: 'On the waitlist',
  offered: 'A seat is offered: see your email',
  cancelled: 'Cancelled',
  declined: 'Not approved',
};

const OPEN = ['confirmed', 'held', 'pending_approval', 'waitlisted', 'offered'];

function registrationItem(base: string, csrf: string, r: PortalRegistration, z: Zone): string {
  const refund =
    r.totalCents > 0 && r.status === 'confirmed'
      ? r.refundPolicy === 'full'
        ? ` You will be refunded ${formatCents(r.totalCents)}.`
        : ' This event does not refund what was paid.'
      : '';
  const actions = OPEN.includes(r.status)
    ? `<p><a href="${e(base)}/events/registrations/${r.id}">Change answers</a></p><form method="post" action="${e(base)}/events/registrations/${r.id}/cancel"><input type="hidden" name="csrf" value="${e(csrf)}"><p class="muted">${e(refund.trim())}</p><button class="btn2" type="submit">Cancel this registration</button></form>`
    : '';
  const tickets =
    r.status === 'confirmed'
      ? `<ul>${r.attendees.map((a) => `<li><a href="/tickets/${e(a.ticketToken)}">${e(a.name)}: ticket</a></li>`).join('')}</ul>`
      : `<p>${r.attendees.map((a) => e(a.name)).join(', ')}</p>`;
  return `<li><h3>${e(r.title)}</h3><p class="when">${e(whenText(r.startsAt, z))}</p><p>${e(STATUS[r.status] ?? r.status)}${
    r.totalCents > 0 ? ` · ${formatCents(r.totalCents)}` : ''
  }</p>${tickets}${actions}</li>`;
}

/** The 'My events' section. */
export function myEventsSection(
  base: string,
  csrf: string,
  regs: PortalRegistration[],
  events: MemberEvent[],
  z: Zone,
): string {
  const mine = regs.length
    ? `<ul class="events">${regs.map((r) => registrationItem(base, csrf, r, z)).join('')}</ul>`
    : '<p>You have not registered for an event yet.</p>';
  const coming = events.length
    ? `<ul class="events">${events
        .map(
          (x) =>
            `<li><h3><a href="${e(base)}/events/${e(x.slug)}">${e(x.title)}</a></h3><p class="when">${e(whenText(x.startsAt, z))}</p>${
              x.visibility === 'members' ? '<p class="muted">For members</p>' : ''
            }</li>`,
        )
        .join('')}</ul>`
    : '<p>No events are coming up right now.</p>';
  return `<style>${EVENTS_CSS}</style><h2>My registrations</h2>${mine}<h2>Coming up</h2>${coming}`;
}

function answerField(q: Question, name: string, v: AnswerValue | undefined): string {
  const label = `${q.label}${q.required ? '' : ' (optional)'}`;
  const text = v === undefined ? '' : Array.isArray(v) ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
  const id = `f-${name.replace(/[^A-Za-z0-9]/g, '-')}`;
  switch (q.kind) {
    case 'choice':
      return `<label for="${id}">${e(label)}</label><select id="${id}" name="${name}"><option value="">Choose…</option>${q.choices
        .map((c) => `<option${c === text ? ' selected' : ''}>${e(c)}</option>`)
        .join('')}</select>`;
    case 'multiple_choice':
      return `<fieldset><legend>${e(label)}</legend>${q.choices
        .map(
          (c) =>
            `<label class="opt"><input type="checkbox" name="${name}" value="${e(c)}"${Array.isArray(v) && v.includes(c) ? ' checked' : ''}>${e(c)}</label>`,
        )
        .join('')}</fieldset>`;
    case 'yes_no':
      return `<fieldset><legend>${e(label)}</legend>${['yes', 'no']
        .map(
          (x) =>
            `<label class="opt"><input type="radio" name="${name}" value="${x}"${text === x ? ' checked' : ''}>${x === 'yes' ? 'Yes' : 'No'}</label>`,
        )
        .join('')}</fieldset>`;
    case 'long_text':
      return `<label for="${id}">${e(label)}</label><textarea id="${id}" name="${name}" rows="3">${e(text)}</textarea>`;
    default:
      return `<label for="${id}">${e(label)}</label><input id="${id}" name="${name}" type="${q.kind === 'date' ? 'date' : q.kind === 'number' ? 'number' : 'text'}" value="${e(text)}">`;
  }
}

/** A registration's answers to change (the registration's, then each attendee's). */
export function answersSection(base: string, csrf: string, r: PortalRegistrationDetail, error?: string): string {
  const regQs = r.questions.filter((q) => q.scope === 'registration');
  const attQs = r.questions.filter((q) => q.scope === 'attendee');
  const fields = `${regQs.map((q) => answerField(q, `answers.${q.id}`, r.answers[`${q.id}`])).join('')}${r.attendees
    .map(
      (a) =>
        `<fieldset><legend>${e(a.name)}</legend><label for="f-att-${a.id}">Name</label><input id="f-att-${a.id}" name="attendee.${a.id}.name" value="${e(a.name)}">${attQs
          .map((q) => answerField(q, `attendee.${a.id}.answers.${q.id}`, r.answers[`${a.id}.${q.id}`]))
          .join('')}</fieldset>`,
    )
    .join('')}`;
  return `<style>${EVENTS_CSS}</style><h2>${e(r.title)}</h2>${error ? `<p class="err" role="alert">${e(error)}</p>` : ''}<form class="reg" method="post" action="${e(base)}/events/registrations/${r.id}"><input type="hidden" name="csrf" value="${e(csrf)}">${fields}<button class="btn" type="submit">Save</button></form><p><a href="${e(base)}/events">Back to My events</a></p>`;
}
