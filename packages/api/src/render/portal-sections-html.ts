import { escapeHtml as e } from './html.js';
import { formatPhone } from './phone.js';
import { csrfField } from './portal-html.js';
import type { PortalPerson } from '../services/portal/member.js';
import { PROPOSAL_FIELD_LABELS, type ProposalField } from '../schemas/portal.js';

// The signed-in portal's sections: one card per person of the session (a household sharing one
// email sees each person).

type Person = PortalPerson;
const nameOf = (p: Person) => [p.firstName, p.lastName].filter(Boolean).join(' ') || p.email || 'You';

export function homeSection(base: string, people: Person[]): string {
  const names = people.map(nameOf);
  return (
    `<p>Signed in as ${e(names.join(', '))}.</p><div class="card"><ul class="plain">` +
    `<li><a href="${e(base)}/subscriptions">Subscriptions</a>: choose which emails, texts and lists you get.</li>` +
    `<li><a href="${e(base)}/details">My details</a>: your name, email, phone, address and birthday.</li>` +
    `<li><a href="${e(base)}/household">My household</a>: your family and children.</li>` +
    `<li><a href="${e(base)}/schedule">My schedule</a>: when you serve, your answers and the dates you are away.</li></ul></div>`
  );
}

/** A checkbox with its label; the hint (the address, the list's description) describes it. */
const check = (name: string, id: string, label: string, on: boolean, hint = '', value = 'on') =>
  `<div class="check"><input type="checkbox" id="${id}" name="${name}" value="${e(value)}"${on ? ' checked' : ''}${
    hint ? ` aria-describedby="${id}-hint"` : ''
  }><div><label for="${id}">${e(label)}</label>${hint ? `<small id="${id}-hint">${e(hint)}</small>` : ''}</div></div>`;

export function subscriptionsSection(
  base: string,
  csrf: string,
  people: { person: Person; lists: { id: number; name: string; description: string; member: boolean }[] }[],
  /** The church's calling code ('+61'): the mobile number as the church writes it. */
  countryCode?: string,
): string {
  return people
    .map(({ person: p, lists }) => {
      const id = (s: string) => `p${p.id}-${s}`;
      const listBoxes = lists
        .map((l) => check('list', id(`l${l.id}`), l.name, l.member, l.description, String(l.id)))
        .join('');
      return (
        `<section class="card" aria-labelledby="${id('h')}"><h2 id="${id('h')}">${e(nameOf(p))}</h2>` +
        `<form method="post" action="${e(base)}/subscriptions/${p.id}">${csrfField(csrf)}<fieldset style="border:0;padding:0;margin:0 0 12px"><legend class="muted">Channels</legend>` +
        check('email', id('email'), 'Email', p.emailConsent === 'subscribed', p.email ?? 'No email address') +
        check(
          'sms',
          id('sms'),
          'Text messages (SMS)',
          p.smsConsent === 'subscribed',
          p.phone ? formatPhone(p, countryCode) : 'No mobile number',
        ) +
        `</fieldset>${lists.length ? `<fieldset style="border:0;padding:0;margin:0 0 12px"><legend class="muted">Lists</legend>${listBoxes}</fieldset>` : ''}` +
        `<button class="btn" type="submit">Save subscriptions</button></form>` +
        `<form method="post" action="${e(base)}/subscriptions/${p.id}/unsubscribe-all" style="margin-top:12px">${csrfField(csrf)}` +
        `<button class="btn light" type="submit">Unsubscribe from everything</button></form></section>`
      );
    })
    .join('');
}

const input = (
  pid: number,
  name: string,
  label: string,
  value: string | null,
  type: string,
  errors: Record<string, string>,
  autocomplete: string,
) => {
  const id = `p${pid}-${name}`;
  const err = errors[name];
  return (
    `<div class="field"><label for="${id}">${e(label)}</label><input id="${id}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${e(value ?? '')}"${
      err ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''
    }>` +
    (err ? `<p class="err" id="${id}-error">${e(err)}</p>` : '') +
    '</div>'
  );
};

export interface DetailsView {
  person: Person;
  /** What was typed when the form came back with errors. */
  values?: Partial<Record<string, string>>;
  errors?: Record<string, string>;
  /** Open proposals; an unconfirmed one says which channel's proof it still waits for. */
  waiting: { id: number; status: string; fields: string[]; awaitingEmail: boolean; awaitingPhone: boolean }[];
}

export function detailsSection(base: string, csrf: string, views: DetailsView[]): string {
  return views
    .map(({ person: p, values, errors = {}, waiting }) => {
      const v = (k: keyof Person) => (values && k in values ? (values[k] ?? null) : (p[k] as string | null));
      const pending = waiting
        .map((w) =>
          w.status === 'unconfirmed'
            ? (w.awaitingEmail
                ? `<p class="note">Please confirm your new email address: we have sent you a link.</p>`
                : '') +
              (w.awaitingPhone
                ? `<div class="note"><form method="post" action="${e(base)}/details/${p.id}/confirm-phone/${w.id}">${csrfField(csrf)}` +
                  `<div class="field"><label for="p${p.id}-code${w.id}">Enter the 6-digit code we texted to your new number</label>` +
                  `<input id="p${p.id}-code${w.id}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></div>` +
                  `<button class="btn" type="submit">Confirm my phone</button></form></div>`
                : '')
            : `<p class="note">Waiting for the church to approve: ${e(w.fields.map((f) => PROPOSAL_FIELD_LABELS[f as ProposalField] ?? f).join(', '))}.</p>`,
        )
        .join('');
      return (
        `<section class="card" aria-labelledby="p${p.id}-h"><h2 id="p${p.id}-h">${e(nameOf(p))}</h2>${pending}` +
        `<form method="post" action="${e(base)}/details/${p.id}" novalidate>${csrfField(csrf)}` +
        input(p.id, 'firstName', 'First name', v('firstName'), 'text', errors, 'given-name') +
        input(p.id, 'lastName', 'Last name', v('lastName'), 'text', errors, 'family-name') +
        input(p.id, 'email', 'Email', v('email'), 'email', errors, 'email') +
        input(p.id, 'phone', 'Phone', v('phone'), 'tel', errors, 'tel') +
        `<fieldset class="address"><legend>Address</legend>` +
        input(p.id, 'address', 'Street address', v('address'), 'text', errors, 'street-address') +
        input(p.id, 'city', 'City or town', v('city'), 'text', errors, 'address-level2') +
        `<div class="row">` +
        input(p.id, 'state', 'State or region', v('state'), 'text', errors, 'address-level1') +
        input(p.id, 'postalCode', 'Postcode', v('postalCode'), 'text', errors, 'postal-code') +
        `</div>` +
        input(p.id, 'country', 'Country', v('country'), 'text', errors, 'country-name') +
        `</fieldset>` +
        input(p.id, 'dateOfBirth', 'Birthday', v('dateOfBirth'), 'date', errors, 'bday') +
        (errors._ ? `<p class="err">${e(errors._)}</p>` : '') +
        `<button class="btn" type="submit">Propose changes</button><p class="muted">The church checks each change before it is made.</p></form></section>`
      );
    })
    .join('');
}

export function householdSection(
  households: {
    person: Person;
    family: { name: string; relationship: string }[];
    children: { name: string; group: string | null }[];
  }[],
): string {
  return households
    .map(({ person: p, family, children }) => {
      const fam = family.length
        ? `<ul class="plain">${family.map((f) => `<li>${e(f.name)} <span class="muted">(${e(f.relationship)})</span></li>`).join('')}</ul>`
        : '<p class="muted">No family members are linked to you yet.</p>';
      const kids = children.length
        ? `<ul class="plain">${children.map((c) => `<li>${e(c.name)}${c.group ? ` <span class="muted">(${e(c.group)})</span>` : ''}</li>`).join('')}</ul>`
        : '<p class="muted">No children are listed.</p>';
      return (
        `<section class="card" aria-labelledby="h${p.id}"><h2 id="h${p.id}">${e(nameOf(p))}</h2>` +
        `<h3 style="font-size:1rem;margin:8px 0 4px">Family</h3>${fam}<h3 style="font-size:1rem;margin:12px 0 4px">Children</h3>${kids}</section>`
      );
    })
    .join('');
}
