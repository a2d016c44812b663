import { escapeHtml as e } from './html.js';
import { csrfField } from './portal-html.js';

// A leader's message to their group, on the leader's page of the group: email or text, a subject
// for an email, the words. Sent through the one delivery engine under the leader's name.

export interface MessageFormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

export function groupMessageSection(at: string, csrf: string, state?: MessageFormState): string {
  const v = (k: string, d = '') => state?.values[k] ?? d;
  const err = (k: string) => state?.errors[k];
  const described = (k: string) => (err(k) ? ` aria-invalid="true" aria-describedby="msg-${k}-error"` : '');
  const errLine = (k: string) => (err(k) ? `<p class="err" id="msg-${k}-error">${e(err(k)!)}</p>` : '');
  const channel = v('channel', 'email');
  const radio = (value: string, label: string) =>
    `<label style="margin-right:16px"><input type="radio" name="channel" value="${value}"${channel === value ? ' checked' : ''}> ${label}</label>`;
  return (
    `<section class="card" aria-labelledby="message"><h2 id="message">Message the group</h2>` +
    `<p class="muted">It goes to the group's members under your name. Anyone who has not agreed to messages on that channel is left out; a reply to a text reaches the church.</p>` +
    (err('_') ? `<p class="err" role="alert">${e(err('_')!)}</p>` : '') +
    `<form method="post" action="${e(at)}/message" novalidate>${csrfField(csrf)}` +
    `<fieldset style="border:0;padding:0;margin:0 0 12px"><legend class="muted">Send by</legend>${radio('email', 'Email')}${radio('sms', 'Text')}${errLine('channel')}</fieldset>` +
    `<div class="field"><label for="msg-subject">Subject (for an email)</label><input id="msg-subject" name="subject" type="text" maxlength="200" value="${e(v('subject'))}"${described('subject')}>${errLine('subject')}</div>` +
    `<div class="field"><label for="msg-body">Message</label><textarea id="msg-body" name="body" rows="5" maxlength="5000"${described('body')}>${e(v('body'))}</textarea>${errLine('body')}</div>` +
    `<button class="btn" type="submit">Send to the group</button></form></section>`
  );
}
