import { escapeHtml } from './html.js';
import { CSS } from './landing-page-html.js';
import { attributionText, MAP_CSS, tileAddress, tileOf } from './map-tile.js';
import { formatCents } from '../shared/giving.js';
import type { Question } from '../services/calendar/answers.js';
import type { EventListItem, EventPage, EventsChurch } from '../services/calendar/public-pages.js';

// A church's public events at /c/{handle}/events and an event's page with its registration form,
// rendered on the server with the landing pages' stylesheet and no script: the form posts to the
// server, which answers with the outcome or the form again with each error by its field. Its
// fields are named by the paths the register route's errors name (`attendees.0.answers.7`).

export const EVENTS_CSS = `header{background:#fff;box-shadow:0 1px 0 #e5e7eb}.ev{max-width:720px;margin:0 auto;padding:24px}.ev h1{font-size:clamp(1.6rem,5vw,2.2rem);margin:8px 0 4px}
ul.events{list-style:none;padding:0;margin:0 0 24px;display:grid;gap:16px}ul.events>li{border:1px solid #e5e7eb;border-radius:12px;padding:16px;background:#fff}ul.events h2{margin:0 0 4px;font-size:1.25rem}
.when{font-weight:600;margin:0}.hero{width:100%;max-height:320px;object-fit:cover;border-radius:12px}.muted{color:#495057}
table.seats{border-collapse:collapse;width:100%;margin:8px 0}table.seats th,table.seats td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb}
form.reg{display:grid;gap:16px;margin-top:16px}form.reg label{display:grid;gap:4px;font-weight:600}form.reg input,form.reg select,form.reg textarea{font:inherit;font-weight:400;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff;width:100%}
form.reg input:not([type=checkbox]):not([type=radio]),form.reg select{min-height:48px}form.reg .opt{display:flex;gap:8px;align-items:center;font-weight:400}form.reg .opt input{width:20px;height:20px;flex:none}
fieldset{border:1px solid #e5e7eb;border-radius:12px;padding:16px;display:grid;gap:12px;margin:0;min-width:0}legend{font-weight:700;padding:0 6px}.row2{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.err{color:#c92a2a;font-weight:600;margin:0}.done{border:1px solid #b2f2bb;background:#ebfbee;border-radius:12px;padding:4px 20px;margin:16px 0}.wait{border:1px solid #ffd8a8;background:#fff4e6;border-radius:12px;padding:4px 20px;margin:16px 0}
.actions{display:flex;flex-wrap:wrap;gap:12px;align-items:center}.btn2{font:inherit;padding:10px 16px;border:1px solid #364fc7;color:#364fc7;background:#fff;border-radius:8px;cursor:pointer}
fieldset.who legend .opt{font-weight:700}fieldset.who:has(legend input:not(:checked))>:not(legend){display:none}
.map .pin{position:absolute;width:18px;height:18px;margin:-9px 0 0 -9px;border-radius:50%;background:#364fc7;border:3px solid #fff;box-shadow:0 0 0 2px #364fc7}
@media (max-width:480px){.row2{grid-template-columns:1fr}}${MAP_CSS}`;

/** Date and time in the church's time zone ('Sunday, December 20, 2026 at 6:00 PM'). */
export function whenText(at: Date, c: Pick<EventsChurch, 'locale' | 'timeZone'>, end?: Date | null): string {
  const f = new Intl.DateTimeFormat(c.locale, { dateStyle: 'full', timeStyle: 'short', timeZone: c.timeZone });
  if (!end) return f.format(at);
  const t = new Intl.DateTimeFormat(c.locale, { timeStyle: 'short', timeZone: c.timeZone });
  return `${f.format(at)} – ${t.format(end)}`;
}

/** A page of the church's public events (the layout the other event pages share). */
export function eventsLayout(c: Pick<EventsChurch, 'handle' | 'churchName'>, title: string, inner: string): string {
  const home = `/c/${escapeHtml(c.handle)}`;
  const top = c.handle
    ? `<a class="brand" href="${home}">${escapeHtml(c.churchName)}</a><nav aria-label="${escapeHtml(
        c.churchName,
      )}"><a href="${home}/events">Events</a> <a href="${home}/me">Members</a></nav>`
    : `<span class="brand">${escapeHtml(c.churchName)}</span>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(
    title,
  )}</title><style>${CSS}${EVENTS_CSS}</style></head><body><header>${top}</header><main><div class="ev">${inner}</div></main><footer><p>${escapeHtml(
    c.churchName,
  )}</p></footer></body></html>`;
}

export function renderEventList(c: EventsChurch, events: EventListItem[]): string {
  const items = events
    .map(
      (e) =>
        `<li><h2><a href="/c/${escapeHtml(c.handle)}/events/${escapeHtml(e.slug)}">${escapeHtml(e.title)}</a></h2><p class="when">${escapeHtml(
          whenText(e.nextStartsAt, c),
        )}${e.times > 1 ? ` (and ${e.times - 1} more ${e.times === 2 ? 'time' : 'times'})` : ''}</p>${
          e.locationName ? `<p class="muted">${escapeHtml(e.locationName)}</p>` : ''
        }</li>`,
    )
    .join('');
  const body = events.length
    ? `<ul class="events">${items}</ul>`
    : '<p class="card">No events are coming up right now. Check back soon.</p>';
  return eventsLayout(
    c,
    `Events at ${c.churchName}`,
    `<h1>Events</h1><p><a href="/c/${escapeHtml(c.handle)}/events.ics">Subscribe to the calendar</a></p>${body}`,
  );
}

export interface RegisterFormState {
  values: Record<string, string | string[]>;
  errors: Record<string, string>;
  /** How many attendees the form has. */
  attendees: number;
}

/** A signed-in member's household: a box each in the form's first attendee rows. */
export interface HouseholdOption {
  name: string;
  email: string | null;
}

export const emptyForm = (attendees = 1): RegisterFormState => ({ values: {}, errors: {}, attendees });

const idOf = (name: string) => `f-${name.replace(/[^A-Za-z0-9]/g, '-')}`;

function fieldError(s: RegisterFormState, name: string): { attrs: string; after: string } {
  const e = s.errors[name];
  if (!e) return { attrs: '', after: '' };
  return {
    attrs: ` aria-invalid="true" aria-describedby="${idOf(name)}-err"`,
    after: `<p class="err" id="${idOf(name)}-err">${escapeHtml(e)}</p>`,
  };
}

const valueOf = (s: RegisterFormState, name: string) => {
  const v = s.values[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};

function input(
  s: RegisterFormState,
  name: string,
  label: string,
  o: { type?: string; auto?: string; required?: boolean } = {},
) {
  const { attrs, after } = fieldError(s, name);
  return `<label for="${idOf(name)}">${escapeHtml(label)}${o.required ? '' : ' (optional)'}</label><input id="${idOf(name)}" name="${name}" type="${o.type ?? 'text'}" autocomplete="${o.auto ?? 'off'}" value="${escapeHtml(valueOf(s, name))}"${o.required ? ' required' : ''}${attrs}>${after}`;
}

/** One question's field, by its kind. */
function questionField(s: RegisterFormState, q: Question, name: string): string {
  const label = `${q.label}${q.required ? '' : ' (optional)'}`;
  const { attrs, after } = fieldError(s, name);
  const v = valueOf(s, name);
  const req = q.required ? ' required' : '';
  const id = idOf(name);
  switch (q.kind) {
    case 'long_text':
      return `<label for="${id}">${escapeHtml(label)}</label><textarea id="${id}" name="${name}" rows="3"${req}${attrs}>${escapeHtml(v)}</textarea>${after}`;
    case 'choice':
      return `<label for="${id}">${escapeHtml(label)}</label><select id="${id}" name="${name}"${req}${attrs}><option value="">Choose…</option>${q.choices
        .map((c) => `<option${c === v ? ' selected' : ''}>${escapeHtml(c)}</option>`)
        .join('')}</select>${after}`;
    case 'multiple_choice': {
      const picked = ([] as string[]).concat(s.values[name] ?? []);
      return `<fieldset id="${id}"${attrs}><legend>${escapeHtml(label)}</legend>${q.choices
        .map(
          (c) =>
            `<label class="opt"><input type="checkbox" name="${name}" value="${escapeHtml(c)}"${picked.includes(c) ? ' checked' : ''}>${escapeHtml(c)}</label>`,
        )
        .join('')}${after}</fieldset>`;
    }
    case 'yes_no':
      return `<fieldset id="${id}"${attrs}><legend>${escapeHtml(label)}</legend>${['yes', 'no']
        .map(
          (x) =>
            `<label class="opt"><input type="radio" name="${name}" value="${x}"${v === x ? ' checked' : ''}>${x === 'yes' ? 'Yes' : 'No'}</label>`,
        )
        .join('')}${after}</fieldset>`;
    default: {
      const type = q.kind === 'date' ? 'date' : q.kind === 'number' ? 'number' : 'text';
      return `<label for="${id}">${escapeHtml(label)}</label><input id="${id}" name="${name}" type="${type}"${type === 'number' ? ' step="any"' : ''} value="${escapeHtml(v)}"${req}${attrs}>${after}`;
    }
  }
}

const price = (cents: number) => (cents === 0 ? 'Free' : formatCents(cents));

/**
 * An attendee row: a household member (a box to tick, their name kept), or someone typed in
 * ('Attendee N' on the public page; after the household in the portal, 'Someone else N').
 */
function attendeeFields(e: EventPage, s: RegisterFormState, i: number, household: HouseholdOption[]): string {
  const p = `attendees.${i}`;
  const member = household[i];
  const t = fieldError(s, `${p}.ticketTypeId`);
  const chosen = valueOf(s, `${p}.ticketTypeId`);
  const tickets = e.ticketTypes
    .map(
      (k) =>
        `<option value="${k.id}"${String(k.id) === chosen ? ' selected' : ''}>${escapeHtml(k.name)} — ${price(k.priceCents)}</option>`,
    )
    .join('');
  const who = member
    ? `<legend><label class="opt"><input type="checkbox" name="${p}.coming" value="yes"${valueOf(s, `${p}.coming`) ? ' checked' : ''}>${escapeHtml(
        member.name,
      )}</label></legend><input type="hidden" name="${p}.name" value="${escapeHtml(member.name)}">${
        member.email ? `<input type="hidden" name="${p}.email" value="${escapeHtml(member.email)}">` : ''
      }${fieldError(s, `${p}.name`).after}`
    : `<legend>${household.length ? `Someone else ${i - household.length + 1}` : `Attendee ${i + 1}`}</legend>${input(
        s,
        `${p}.name`,
        'Name',
        { auto: i === 0 ? 'name' : 'off', required: true },
      )}${input(s, `${p}.email`, 'Email', { type: 'email' })}`;
  return `<fieldset${member ? ' class="who"' : ''}>${who}
<label for="${idOf(`${p}.ticketTypeId`)}">Ticket</label><select id="${idOf(`${p}.ticketTypeId`)}" name="${p}.ticketTypeId"${t.attrs}>${tickets}</select>${t.after}
${e.questions
  .filter((q) => q.scope === 'attendee')
  .map((q) => questionField(s, q, `${p}.answers.${q.id}`))
  .join('')}</fieldset>`;
}

/** The church's map tiles (MAP_TILE_URL and its attribution). */
export interface MapTiles {
  tileUrl: string;
  attribution: string;
}

export interface EventPageOptions {
  /** Where the form posts (the public page's route, or the portal's). */
  action: string;
  /** The map tiles: a tile around the event's place when it has coordinates. */
  map?: MapTiles;
  /** The portal's form token, for a member's form. */
  csrf?: string;
  household?: HouseholdOption[];
  /** The 'Add to calendar' file's address. */
  icsUrl: string;
  /** The form's key: posted twice, it is one registration. */
  idempotencyKey: string;
}

function seatsTable(c: EventsChurch, e: EventPage): string {
  if (e.times.length === 0) return '<p class="card">This event has no times still to come.</p>';
  const head = e.ticketTypes.map((k) => `<th scope="col">${escapeHtml(k.name)} (${price(k.priceCents)})</th>`).join('');
  const rows = e.times
    .map((t) => {
      const cells = e.ticketTypes
        .map((k) => {
          const left = t.ticketsLeft[k.id];
          return `<td>${left === null || left === undefined ? 'Open' : left === 0 ? (e.waitlist ? 'Full: waitlist' : 'Sold out') : `${left} left`}</td>`;
        })
        .join('');
      return `<tr><th scope="row">${escapeHtml(whenText(t.startsAt, c, t.endsAt))}</th>${cells}</tr>`;
    })
    .join('');
  return `<table class="seats" aria-label="Seats left"><thead><tr><th scope="col">When</th>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

/** The registration form: registrant, time, attendees with their tickets and answers, code. */
export function registerForm(c: EventsChurch, e: EventPage, s: RegisterFormState, o: EventPageOptions): string {
  if (e.closed) return `<p class="card" role="status">${escapeHtml(e.closed)}.</p>`;
  if (e.times.length === 0 || e.ticketTypes.length === 0) return '';
  const timeErr = fieldError(s, 'timeId');
  const chosenTime = valueOf(s, 'timeId');
  const time =
    e.times.length > 1
      ? `<label for="f-timeId">Time</label><select id="f-timeId" name="timeId"${timeErr.attrs}>${e.times
          .map(
            (t) =>
              `<option value="${t.id}"${String(t.id) === chosenTime ? ' selected' : ''}>${escapeHtml(whenText(t.startsAt, c))}</option>`,
          )
          .join('')}</select>${timeErr.after}`
      : `<input type="hidden" name="timeId" value="${e.times[0]!.id}">${timeErr.after}`;
  const household = o.household ?? [];
  const least = Math.max(1, household.length);
  const n = Math.max(least, s.attendees);
  const attendees = Array.from({ length: n }, (_, i) => attendeeFields(e, s, i, household)).join('');
  const regQuestions = e.questions.filter((q) => q.scope === 'registration');
  const paid = e.ticketTypes.some((k) => k.priceCents > 0);
  const general = s.errors._ ?? s.errors.attendees;
  return `<form class="reg" method="post" action="${escapeHtml(o.action)}" novalidate><h2>Register</h2>${
    general ? `<p class="err" role="alert">${escapeHtml(general)}</p>` : ''
  }${o.csrf ? `<input type="hidden" name="csrf" value="${escapeHtml(o.csrf)}">` : ''}<input type="hidden" name="count" value="${n}"><input type="hidden" name="key" value="${escapeHtml(o.idempotencyKey)}">
<fieldset><legend>You</legend>${input(s, 'registrant.name', 'Name', { auto: 'name', required: true })}${input(
    s,
    'registrant.email',
    'Email',
    {
      type: 'email',
      auto: 'email',
      required: true,
    },
  )}${input(s, 'registrant.phone', 'Phone', { type: 'tel', auto: 'tel' })}${time}</fieldset>
${household.length ? '<h3>Who is coming</h3><p class="muted">Tick each person from your household who is coming; add anyone else below.</p>' : ''}${attendees}<div class="actions"><button class="btn2" type="submit" name="change" value="add">${
    household.length ? 'Add someone else' : 'Add another attendee'
  }</button>${
    n > least ? '<button class="btn2" type="submit" name="change" value="remove">Remove the last attendee</button>' : ''
  }</div>
${regQuestions.length ? `<fieldset><legend>A few questions</legend>${regQuestions.map((q) => questionField(s, q, `answers.${q.id}`)).join('')}</fieldset>` : ''}
${paid ? input(s, 'discountCode', 'Discount code') : ''}
<button class="btn" type="submit">${paid ? 'Continue to payment' : 'Register'}</button>${
    paid ? `<p class="muted">Your seats are held for 10 minutes while you pay.</p>` : ''
  }</form>`;
}

const PLACE_ZOOM = 15;

/** One tile around the event's place with a pin on it (an image: no script), when it has coordinates. */
function placeTile(e: EventPage, where: string, tiles: MapTiles | undefined): string {
  if (!tiles || e.latitude === null || e.longitude === null) return '';
  const t = tileOf(e.latitude, e.longitude, PLACE_ZOOM);
  return `<div class="map"><img src="${escapeHtml(tileAddress(tiles.tileUrl, t))}" alt="Map of ${escapeHtml(
    where || e.title,
  )}" width="256" height="256" loading="lazy"><span class="pin" style="left:${t.left}px;top:${t.top}px"></span><small>${escapeHtml(
    attributionText(tiles.attribution),
  )}</small></div>`;
}

/** An event's details, seats left, 'Add to calendar', and the registration form (the page's or the portal's). */
export function eventBody(c: EventsChurch, e: EventPage, s: RegisterFormState, o: EventPageOptions): string {
  const where = [e.locationName, e.address].filter(Boolean).join(', ');
  const map = e.address
    ? ` <a href="https://www.openstreetmap.org/search?query=${encodeURIComponent(e.address)}" rel="noopener">Map</a>`
    : '';
  const cancelled = e.status === 'cancelled' ? '<p class="wait" role="status">This event was cancelled.</p>' : '';
  return `${e.imageUrl ? `<img class="hero" src="${escapeHtml(e.imageUrl)}" alt="">` : ''}<h1>${escapeHtml(e.title)}</h1>${cancelled}
${e.times[0] ? `<p class="when">${escapeHtml(whenText(e.times[0].startsAt, c, e.times[0].endsAt))}${e.times.length > 1 ? ` and ${e.times.length - 1} more` : ''}</p>` : ''}
${where ? `<p>${escapeHtml(where)}${map}</p>` : ''}${placeTile(e, where, o.map)}<p><a href="${escapeHtml(o.icsUrl)}">Add to calendar</a></p>
<div>${e.descriptionHtml}</div>${e.status === 'cancelled' ? '' : `${seatsTable(c, e)}${registerForm(c, e, s, o)}`}`;
}

/** An event's public page. */
export function renderEventPage(c: EventsChurch, e: EventPage, s: RegisterFormState, o: EventPageOptions): string {
  return eventsLayout(c, e.title, eventBody(c, e, s, o));
}

/** A page saying one thing (not found, closed, an offer that ran out). */
export function renderEventMessage(
  c: Pick<EventsChurch, 'handle' | 'churchName'>,
  title: string,
  text: string,
): string {
  return eventsLayout(c, title, `<h1>${escapeHtml(title)}</h1><p class="card" role="status">${escapeHtml(text)}</p>`);
}
