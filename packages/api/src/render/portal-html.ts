import { escapeHtml as e } from './html.js';

// The members' portal, rendered on the server: plain HTML forms, no JavaScript, designed
// for a 390 px phone first. Pure string building.

const CSS = `*{box-sizing:border-box}body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2937;background:#f8f9fa;line-height:1.5;font-size:16px}
a{color:#364fc7}.in,main,footer{max-width:720px;margin:0 auto;padding-left:16px;padding-right:16px}header{background:#fff;border-bottom:1px solid #e5e7eb;padding:12px 0}
header .church{font-weight:700;font-size:1.05rem;margin:0}header .church a{color:inherit;text-decoration:none}nav{background:#fff;border-bottom:1px solid #e5e7eb}nav ul{display:flex;flex-wrap:wrap;column-gap:4px;list-style:none;margin:0 0 0 -10px;padding:0}
nav a{display:block;padding:10px 10px;text-decoration:none;color:#374151;white-space:nowrap;border-bottom:3px solid transparent}nav a[aria-current=page]{color:#364fc7;border-color:#364fc7;font-weight:600}
main{padding-top:16px;padding-bottom:16px}h1{font-size:1.5rem;margin:8px 0 16px;line-height:1.25}h2{font-size:1.15rem;margin:0 0 12px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px;margin:0 0 16px}
label{display:block;font-weight:600;margin:0 0 4px}input[type=text],input[type=email],input[type=tel],input[type=date],select{width:100%;font:inherit;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff}
.field{margin:0 0 14px}.check{display:flex;gap:10px;align-items:flex-start;padding:8px 0;font-weight:400}.check input{width:22px;height:22px;margin:1px 0 0;accent-color:#364fc7;flex:none}
.check label{font-weight:400;margin:0}.check small{display:block;color:#4b5563}.btn{display:inline-block;background:#364fc7;color:#fff;border:0;border-radius:8px;padding:12px 20px;font:inherit;font-weight:600;cursor:pointer;text-decoration:none}
.btn.light{background:#fff;color:#364fc7;border:1px solid #364fc7}.row{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.btn:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f59f00;outline-offset:2px}.err{color:#c92a2a;font-size:.95rem;margin:4px 0 0}
.note{background:#edf2ff;border-radius:8px;padding:12px;margin:0 0 16px}.ok{background:#ebfbee}.muted{color:#4b5563}ul.plain{list-style:none;padding:0;margin:0}ul.plain li{padding:6px 0;border-bottom:1px solid #f1f3f5}
footer{padding-top:8px;padding-bottom:32px}footer form{display:inline}
select{width:100%;font:inherit;padding:10px 12px;border:1px solid #868e96;border-radius:8px;background:#fff}h3{font-size:1.05rem;margin:0 0 8px}
details{margin:8px 0}summary{cursor:pointer;color:#364fc7;font-weight:600;padding:6px 0}.row .field{flex:1 1 140px}fieldset{border:0;padding:0;margin:0}legend{font-weight:700;font-size:1.05rem;padding:0;margin:4px 0 8px}select:focus-visible,summary:focus-visible{outline:3px solid #f59f00;outline-offset:2px}`;

export interface PortalChurchView {
  churchName: string;
  /** `/c/{handle}/me` */
  base: string;
}

/**
 * The portal's sections (its home is the church's name in the header). Later issues add 'My giving'
 * and 'My schedule' here, each once its page exists; on a narrow phone the bar wraps onto a second
 * line, so every section stays in sight.
 */
export const PORTAL_SECTIONS = [
  { path: '/subscriptions', label: 'Subscriptions' },
  { path: '/details', label: 'My details' },
  { path: '/household', label: 'My household' },
  { path: '/schedule', label: 'My schedule' },
  { path: '/giving', label: 'My giving' },
  { path: '/groups', label: 'My groups' },
  { path: '/events', label: 'My events' },
] as const;

function doc(title: string, church: PortalChurchView, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><meta name="description" content="${e(
    `${church.churchName}: members' page`,
  )}"><title>${e(title)} · ${e(church.churchName)}</title><style>${CSS}</style></head><body><header><div class="in"><p class="church"><a href="${e(church.base)}">${e(
    church.churchName,
  )}</a></p></div></header>${body}</body></html>`;
}

/** A page of the signed-in portal: navigation, the section, sign-out buttons. */
export function portalLayout(
  church: PortalChurchView,
  opts: { title: string; active: string; csrf: string; notice?: string },
  content: string,
): string {
  const nav = PORTAL_SECTIONS.map(
    (s) =>
      `<li><a href="${e(church.base + s.path)}"${s.path === opts.active ? ' aria-current="page"' : ''}>${e(s.label)}</a></li>`,
  ).join('');
  const notice = opts.notice ? `<p class="note ok" role="status">${e(opts.notice)}</p>` : '';
  return doc(
    opts.title,
    church,
    `<nav aria-label="Members' page"><div class="in"><ul>${nav}</ul></div></nav><main><h1>${e(opts.title)}</h1>${notice}${content}</main>` +
      `<footer class="row"><form method="post" action="${e(church.base)}/sign-out">${csrfField(opts.csrf)}<button class="btn light" type="submit">Sign out</button></form>` +
      `<form method="post" action="${e(church.base)}/sign-out-everywhere">${csrfField(opts.csrf)}<button class="btn light" type="submit">Sign out everywhere</button></form></footer>`,
  );
}

export const csrfField = (token: string) => `<input type="hidden" name="csrf" value="${e(token)}">`;

/** A page for someone not signed in (the sign-in form, a link's button, an answer). */
export function portalPublicPage(church: PortalChurchView, title: string, content: string): string {
  return doc(title, church, `<main><h1>${e(title)}</h1>${content}</main>`);
}

export function signInForm(church: PortalChurchView, opts: { address?: string; error?: string } = {}): string {
  return portalPublicPage(
    church,
    'Sign in',
    `<div class="card"><form method="post" action="${e(church.base)}/sign-in" novalidate><div class="field"><label for="address">Enter your email or mobile number</label>` +
      `<input id="address" name="address" type="text" inputmode="email" autocomplete="email" required value="${e(opts.address ?? '')}"${
        opts.error ? ' aria-invalid="true" aria-describedby="address-error"' : ''
      }>${opts.error ? `<p class="err" id="address-error">${e(opts.error)}</p>` : ''}</div>` +
      `<button class="btn" type="submit">Send me a link</button></form></div><p class="muted">No password needed: we send you a link that signs you in.</p>`,
  );
}

export const SENT_MESSAGE = 'If we know this address, we have sent you a link';

export function signInSent(church: PortalChurchView, opts: { phone?: string; error?: string }): string {
  const codeForm = opts.phone
    ? `<div class="card"><form method="post" action="${e(church.base)}/code"><input type="hidden" name="address" value="${e(opts.phone)}">` +
      `<div class="field"><label for="code">6-digit code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required${
        opts.error ? ' aria-invalid="true" aria-describedby="code-error"' : ''
      }>${opts.error ? `<p class="err" id="code-error">${e(opts.error)}</p>` : ''}</div><button class="btn" type="submit">Sign in</button></form></div>`
    : '';
  return portalPublicPage(
    church,
    'Check your messages',
    `<p class="note" role="status">${e(SENT_MESSAGE)}${opts.phone ? ' (or a code by text message)' : ''}.</p>` +
      `<p>It works once, for 15 minutes.</p>${codeForm}<p><a href="${e(church.base)}">Start again</a></p>`,
  );
}

/** A button, not an automatic action: mail scanners open links, people press buttons. */
export function buttonPage(church: PortalChurchView, title: string, text: string, button: string): string {
  return portalPublicPage(
    church,
    title,
    `<div class="card"><p>${e(text)}</p><form method="post"><button class="btn" type="submit">${e(button)}</button></form></div>`,
  );
}

export function messagePage(church: PortalChurchView, title: string, text: string): string {
  return portalPublicPage(church, title, `<p>${e(text)}</p><p><a href="${e(church.base)}">Sign in</a></p>`);
}
