import crypto from 'node:crypto';
import { htmlToText, sanitizeEmailHtml } from './sanitize.js';
import { escapeHtml } from '../../render/html.js';

export interface MergeValues {
  firstName: string;
  lastName: string;
  churchName: string;
  /** A recurring giver's personal link to the giving page (the journey that asks them back). */
  giveLink?: string;
}

const MERGE_TAG = /\{\{\s*(firstName|lastName|churchName|giveLink)\s*\}\}/g;
/** Attributes whose value is a URL. */
const URL_ATTRIBUTE =
  /(\s(?:href|src|action|formaction|background|poster|cite|xlink:href)\s*=\s*)("([^"]*)"|'([^']*)')/gi;
const HAS_MERGE_TAG = new RegExp(MERGE_TAG.source);
const SAFE_URL = /^(https?:\/\/|mailto:)/i;

/**
 * Fill {{firstName}}, {{lastName}} and {{churchName}} (spaces inside the braces allowed), escaped
 * for where they stand: in plain text as they are; in HTML text and attributes HTML-escaped; inside
 * a URL attribute (href, src, …) percent-encoded, and the attribute becomes "#" unless the filled
 * URL is http(s) or mailto. A contact named `javascript:alert(1)//` cannot make a link.
 */
export function fillMergeTags(template: string, values: MergeValues, opts: { html: boolean }): string {
  const value = (key: string) => values[key as keyof MergeValues] ?? '';
  if (!opts.html) return template.replace(MERGE_TAG, (_, key: string) => value(key));
  const inUrls = template.replace(URL_ATTRIBUTE, (whole, pre: string, _q: string, dq?: string, sq?: string) => {
    const url = dq ?? sq ?? '';
    if (!HAS_MERGE_TAG.test(url)) return whole;
    // The give link is a whole URL of our own (handle and token are URL-safe): it is the link.
    const filled = url.replace(MERGE_TAG, (_m, key: string) =>
      key === 'giveLink' ? value(key) : encodeURIComponent(value(key)),
    );
    return `${pre}"${SAFE_URL.test(decodeEntities(filled).trim()) ? escapeHtml(decodeEntities(filled)) : '#'}"`;
  });
  return inUrls.replace(MERGE_TAG, (_, key: string) => escapeHtml(value(key)));
}

function signLink(secret: string, token: string, url: string): string {
  return crypto.createHmac('sha256', secret).update(`${token}\n${url}`).digest('base64url').slice(0, 32);
}

export function verifyLink(secret: string, token: string, url: string, signature: string): boolean {
  const expected = Buffer.from(signLink(secret, token, url));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export interface TrackingLinks {
  publicUrl: string;
  secret: string;
  token: string;
}

const unsubscribeUrl = (t: { publicUrl: string; token: string }) => `${t.publicUrl}/u/${t.token}`;
/** The members' portal for this recipient only, signed in by the same token. */
const manageUrl = (t: { publicUrl: string; token: string }) => `${t.publicUrl}/u/${t.token}/manage`;
const openPixelUrl = (t: { publicUrl: string; token: string }) => `${t.publicUrl}/t/o/${t.token}.gif`;
function clickUrl(t: TrackingLinks, url: string): string {
  return `${t.publicUrl}/t/c/${t.token}?u=${encodeURIComponent(url)}&s=${signLink(t.secret, t.token, url)}`;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/**
 * What every message of one content shares, made once (a campaign's or a journey step's 100,000
 * messages parse their HTML once, not 100,000 times): the sanitized HTML, and the plain text when
 * the content has no merge tag (with tags, the text is made per message from the filled HTML).
 */
interface PreparedContent {
  sanitized: string;
  hasTags: boolean;
  text: string | null;
}
const preparedContents = new Map<string, PreparedContent>();
const PREPARED_MAX = 64;

function prepare(html: string): PreparedContent {
  const hit = preparedContents.get(html);
  if (hit) return hit;
  const hasTags = HAS_MERGE_TAG.test(html);
  const sanitized = sanitizeEmailHtml(html);
  const prepared = { sanitized, hasTags, text: hasTags ? null : htmlToText(html) };
  if (preparedContents.size >= PREPARED_MAX) preparedContents.delete(preparedContents.keys().next().value!);
  preparedContents.set(html, prepared);
  return prepared;
}

export interface RenderInput {
  subject: string;
  html: string;
  churchName: string;
  postalAddress: string | null;
  recipient: { firstName: string; lastName: string; giveLink?: string };
  /** Omit for a test email: no tracking, a sample unsubscribe link. */
  tracking?: TrackingLinks;
  publicUrl: string;
}

/**
 * One recipient's message: merge tags filled, http(s) links routed through the signed click
 * tracker, an open pixel, and a footer with the church's postal address and an unsubscribe link;
 * RFC 8058 one-click unsubscribe headers.
 */
export function renderEmail(input: RenderInput): {
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
} {
  const values: MergeValues = {
    firstName: input.recipient.firstName,
    lastName: input.recipient.lastName,
    churchName: input.churchName,
    giveLink: input.recipient.giveLink,
  };
  const prepared = prepare(input.html);
  // The author's HTML was sanitized (once per content, `prepare`); the merge values are escaped for
  // where they stand (fillMergeTags): nothing a contact's name brings can run.
  let body = prepared.hasTags ? fillMergeTags(prepared.sanitized, values, { html: true }) : prepared.sanitized;
  const t = input.tracking;
  if (t) {
    body = body.replace(/(<a\b[^>]*?\bhref=")(https?:\/\/[^"]+)(")/gi, (_, pre: string, href: string, post: string) => {
      return `${pre}${escapeHtml(clickUrl(t, decodeEntities(href)))}${post}`;
    });
  }
  const unsub = t ? unsubscribeUrl(t) : `${input.publicUrl}/u/preview`;
  const manage = t ? manageUrl(t) : `${input.publicUrl}/u/preview/manage`;
  const address = input.postalAddress?.trim();
  const footer =
    `<div style="margin-top:32px;padding-top:16px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:12px;line-height:1.5">` +
    `<div>${escapeHtml(input.churchName)}</div>` +
    (address ? `<div>${escapeHtml(address).replace(/\n/g, '<br>')}</div>` : '') +
    `<div style="margin-top:8px">You are receiving this because you are in the contacts of ${escapeHtml(input.churchName)}. ` +
    `<a href="${escapeHtml(manage)}" style="color:#6b7280">Manage your subscriptions</a> · ` +
    `<a href="${escapeHtml(unsub)}" style="color:#6b7280">Unsubscribe</a></div></div>`;
  const pixel = t
    ? `<img src="${escapeHtml(openPixelUrl(t))}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`
    : '';
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"></head>` +
    `<body style="margin:0;padding:0;background:#f9fafb"><div style="max-width:640px;margin:0 auto;padding:24px;background:#ffffff;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#111827">` +
    `${body}${footer}${pixel}</div></body></html>`;
  const text =
    `${prepared.text ?? htmlToText(fillMergeTags(input.html, values, { html: true }))}\n\n--\n${input.churchName}` +
    (address ? `\n${address}` : '') +
    `\nManage your subscriptions: ${manage}\nUnsubscribe: ${unsub}\n`;
  return {
    subject: fillMergeTags(input.subject, values, { html: false }),
    html,
    text,
    headers: t ? { 'List-Unsubscribe': `<${unsub}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
  };
}
