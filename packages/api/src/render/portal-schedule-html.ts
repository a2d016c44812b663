import { escapeHtml as e } from './html.js';
import { csrfField } from './portal-html.js';
import { MATRIX_STATUS_LABELS } from '../schemas/service-planner.js';
import type { PortalBlockout, PortalVolunteer } from '../services/portal/schedule.js';
import { longDate } from '../services/service-planner/request-channel.js';
import type { Locale } from '../shared/format.js';

// 'My schedule' in the members' portal: plain forms, no JavaScript.

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const NTH = [
  ['1', '1st'],
  ['2', '2nd'],
  ['3', '3rd'],
  ['4', '4th'],
  ['5', '5th'],
  ['-1', 'last'],
] as const;

/** 'Every 2nd Sunday', 'Every 2 weeks on Sunday'; empty for every day of the range. */
export function recurrenceWords(r: PortalBlockout['recurrence']): string {
  if (!r) return '';
  const day = WEEKDAYS[r.weekday] ?? '';
  if (r.every === 'weeks') return r.interval === 1 ? `Every ${day}` : `Every ${r.interval} weeks on ${day}`;
  return `Every ${NTH.find(([v]) => Number(v) === r.nth)?.[1] ?? ''} ${day} of the month`;
}

const datesWords = (b: { startsOn: string; endsOn: string }, o: Locale) =>
  b.startsOn === b.endsOn ? longDate(b.startsOn, o) : `${longDate(b.startsOn, o)} to ${longDate(b.endsOn, o)}`;

/** What the blockout form sends back when it has errors. */
export interface BlockoutFormState {
  memberId: number;
  values: Record<string, string>;
  errors: Record<string, string>;
}

const STATUS_STYLE = {
  pending: 'background:#fff3bf;color:#5c3d00',
  accepted: 'background:#d3f9d8;color:#1b5e20',
  declined: 'background:#ffe3e3;color:#a51d1d',
} as const;

function blockoutForm(base: string, csrf: string, memberId: number, state?: BlockoutFormState): string {
  const v = (k: string, d = '') => (state?.memberId === memberId ? (state.values[k] ?? d) : d);
  const err = (k: string) => (state?.memberId === memberId ? state.errors[k] : undefined);
  const id = (k: string) => `m${memberId}-${k}`;
  const described = (k: string) => (err(k) ? ` aria-invalid="true" aria-describedby="${id(k)}-error"` : '');
  const errLine = (k: string) => (err(k) ? `<p class="err" id="${id(k)}-error">${e(err(k)!)}</p>` : '');
  const field = (k: string, label: string, type: string, hint = '') =>
    `<div class="field"><label for="${id(k)}">${e(label)}</label>${hint ? `<small class="muted" id="${id(k)}-hint" style="display:block">${e(hint)}</small>` : ''}` +
    `<input id="${id(k)}" name="${k}" type="${type}" value="${e(v(k))}"${described(k) || (hint ? ` aria-describedby="${id(k)}-hint"` : '')}>${errLine(k)}</div>`;
  const select = (k: string, label: string, options: readonly (readonly [string, string])[], d: string) =>
    `<div class="field"><label for="${id(k)}">${e(label)}</label><select id="${id(k)}" name="${k}"${described(k)}>` +
    options
      .map(([val, text]) => `<option value="${e(val)}"${v(k, d) === val ? ' selected' : ''}>${e(text)}</option>`)
      .join('') +
    `</select>${errLine(k)}</div>`;
  return (
    `<form method="post" action="${e(base)}/schedule/blockouts" novalidate>${csrfField(csrf)}<input type="hidden" name="memberId" value="${memberId}">` +
    `<h3 style="font-size:1rem;margin:16px 0 8px">Add dates you are away</h3>` +
    field('startsOn', 'From', 'date') +
    field('endsOn', 'To', 'date', 'Leave empty for one day.') +
    field('reason', 'Reason (optional)', 'text') +
    `<fieldset style="border:0;padding:0;margin:0 0 12px"><legend class="muted">Repeat (optional)</legend>` +
    select(
      'repeat',
      'Repeat',
      [
        ['none', 'Every day from … to …'],
        ['month', 'One weekday each month'],
        ['weeks', 'Every few weeks'],
      ],
      'none',
    ) +
    select('nth', 'Which week of the month', NTH, '1') +
    select(
      'weekday',
      'Weekday',
      WEEKDAYS.map((d, i) => [String(i), d] as const),
      '0',
    ) +
    select(
      'interval',
      'Every how many weeks',
      Array.from({ length: 8 }, (_, i) => [String(i + 1), i === 0 ? 'Every week' : `Every ${i + 1} weeks`] as const),
      '2',
    ) +
    `<p class="muted">A repeat counts only inside the dates above: set To far ahead for 'until then'.</p></fieldset>` +
    (err('_') ? `<p class="err">${e(err('_')!)}</p>` : '') +
    `<button class="btn" type="submit">Add dates you are away</button></form>`
  );
}

export function scheduleSection(
  base: string,
  csrf: string,
  volunteers: PortalVolunteer[],
  state?: BlockoutFormState,
  /** The church's locale: its dates as it writes them ('Sunday 7 December 2026' in Australia). */
  o: Locale = {},
): string {
  if (volunteers.length === 0)
    return `<div class="card"><p>You are not on a serving team yet.</p><p class="muted">When the church adds you to a team, what you are scheduled for shows here.</p></div>`;
  return volunteers
    .map((v) => {
      const h = `s${v.memberId}`;
      const upcoming = v.assignments.length
        ? `<ul class="plain">${v.assignments
            .map((a) => {
              const what = [longDate(a.date, o), a.time, a.positionName, a.location].filter(Boolean).join(' · ');
              const answer =
                a.status === 'pending'
                  ? `<div class="row" style="margin-top:8px">` +
                    `<form method="post" action="${e(base)}/schedule/${a.id}/accept">${csrfField(csrf)}<button class="btn" type="submit" aria-label="Accept ${e(a.planTitle)}, ${e(longDate(a.date, o))}">Accept</button></form>` +
                    `<form method="post" action="${e(base)}/schedule/${a.id}/decline">${csrfField(csrf)}<button class="btn light" type="submit" aria-label="Decline ${e(a.planTitle)}, ${e(longDate(a.date, o))}">Decline</button></form></div>`
                  : '';
              return (
                `<li data-assignment="${a.id}"><strong>${e(a.planTitle)}</strong> <span style="${STATUS_STYLE[a.status]};border-radius:6px;padding:1px 8px;font-size:.9rem;font-weight:600">${e(MATRIX_STATUS_LABELS[a.status])}</span>` +
                `<br><span>${e(what)}</span>${answer}</li>`
              );
            })
            .join('')}</ul>`
        : '<p class="muted">Nothing scheduled.</p>';
      const blockouts = v.blockouts.length
        ? `<ul class="plain">${v.blockouts
            .map((b) => {
              const words = [datesWords(b, o), recurrenceWords(b.recurrence), b.reason].filter(Boolean).join(' · ');
              return (
                `<li class="row" style="justify-content:space-between"><span>${e(words)}</span>` +
                `<form method="post" action="${e(base)}/schedule/blockouts/${b.id}/delete">${csrfField(csrf)}` +
                `<button class="btn light" type="submit" aria-label="Remove away ${e(datesWords(b, o))}">Remove</button></form></li>`
              );
            })
            .join('')}</ul>`
        : '<p class="muted">No dates away.</p>';
      return (
        `<section class="card" aria-labelledby="${h}"><h2 id="${h}">${e(v.name)}</h2>` +
        `<h3 style="font-size:1rem;margin:8px 0 4px">Upcoming</h3>${upcoming}` +
        (v.assignments.some((a) => a.status === 'accepted')
          ? `<p class="muted" style="margin:8px 0 0">Cannot make a date you accepted? <a href="${e(base)}/swaps">Swap a date</a>: your teammates are asked to cover it.</p>`
          : '') +
        `<h3 style="font-size:1rem;margin:16px 0 4px">Dates you are away</h3><p class="muted" style="margin:0 0 8px">Days you cannot serve: the church will not schedule you then.</p>${blockouts}` +
        blockoutForm(base, csrf, v.memberId, state) +
        `</section>`
      );
    })
    .join('');
}
