import crypto from 'node:crypto';
import { encodeWords, foldHeader, quotedPrintable } from './mime-encoding.js';

/** What `composeMime` writes: a message with a text and an HTML part, no attachments. */
export interface MimeInput {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  /** Without angle brackets. */
  messageId: string;
  /** Extra headers (List-Unsubscribe, …), written as given after the names are checked. */
  headers: Record<string, string>;
  text: string;
  html: string;
  date?: Date;
}

const ASCII_ADDRESS = /^[\x21-\x7e]+@[\x21-\x7e]+$/;
const HEADER_NAME = /^[!-9;-~]+$/;
/** One random part per process and a counter: no boundary repeats, none can be guessed by content. */
const BOUNDARY_PREFIX = `=_lampstand_${crypto.randomBytes(8).toString('hex')}_`;
let boundaryCount = 0;

/** True when `composeMime` can write this message (its addresses plain ASCII, no attachments). */
export function canComposeMime(m: { from: string; to: string; replyTo?: string; attachments?: unknown[] }): boolean {
  if (m.attachments?.length) return false;
  return [m.from, m.to, ...(m.replyTo ? [m.replyTo] : [])].every((a) => ASCII_ADDRESS.test(addressOf(a)));
}

/** The address of a From or Reply-To ('"Grace" <a@b.org>' → 'a@b.org'). */
export const addressOf = (value: string) => /<([^>]+)>/.exec(value)?.[1] ?? value.trim();

/** `"Name" <a@b>` with the name quoted (or encoded when it is not ASCII). */
function addressHeader(value: string): string {
  const address = addressOf(value);
  const name = value.includes('<')
    ? value
        .slice(0, value.lastIndexOf('<'))
        .trim()
        .replace(/^"(.*)"$/, '$1')
    : '';
  if (!name) return address;
  const quoted = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : encodeWords(name, 52);
  return `${quoted} <${address}>`;
}

/** One header line, its value stripped of line breaks, non-ASCII encoded (RFC 2047), folded at 76. */
function header(name: string, value: string): string {
  const clean = value.replace(/\r?\n|\r/g, ' ');
  const v = /^[\x20-\x7e]*$/.test(clean) ? clean : encodeWords(clean, 52);
  return foldHeader(`${name}: ${v}`, 76);
}

/** A line over SMTP's 998 characters (a linear scan: a regex for it backtracks at every position). */
function hasLongLine(s: string): boolean {
  if (s.length <= 998) return false;
  let start = 0;
  for (let end = s.indexOf('\n'); ; end = s.indexOf('\n', start)) {
    const length = end === -1 ? s.length - start : end - start - (s[end - 1] === '\r' ? 1 : 0);
    if (length > 998) return true;
    if (end === -1) return false;
    start = end + 1;
  }
}

/** A text part: 7bit when it is ASCII with short lines, quoted-printable otherwise. CRLF line ends. */
function part(contentType: string, body: string): string {
  const crlf = body.replace(/\r\n|\r|\n/g, '\r\n');
  const plain = /^[\t\r\n -~]*$/.test(crlf) && !hasLongLine(crlf);
  return (
    `Content-Type: ${contentType}; charset=utf-8\r\n` +
    `Content-Transfer-Encoding: ${plain ? '7bit' : 'quoted-printable'}\r\n\r\n` +
    (plain ? crlf : quotedPrintable(crlf, 76))
  );
}

/**
 * A whole message (multipart/alternative, text then HTML) as the bytes handed to SMTP, written in
 * one pass of string building instead of nodemailer's tree of streams: the send path writes it to
 * the connection as one buffer. Headers as nodemailer writes them (RFC 2047 words, folding); the
 * DKIM signature, when the church signs, is added by the transport over these bytes.
 */
export function composeMime(m: MimeInput): Buffer {
  const boundary = `${BOUNDARY_PREFIX}${(boundaryCount++).toString(36)}`;
  const lines: string[] = [];
  for (const [name, value] of Object.entries(m.headers)) {
    if (!HEADER_NAME.test(name)) throw new Error(`Bad header name: ${name}`);
    lines.push(header(name, value));
  }
  lines.push(`From: ${addressHeader(m.from)}`, `To: ${addressHeader(m.to)}`);
  if (m.replyTo) lines.push(`Reply-To: ${addressHeader(m.replyTo)}`);
  lines.push(
    header('Subject', m.subject),
    `Message-ID: <${m.messageId.replace(/[<>\s]/g, '')}>`,
    `Date: ${(m.date ?? new Date()).toUTCString().replace(/GMT$/, '+0000')}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`,
  );
  const message =
    `${lines.join('\r\n')}\r\n\r\n` +
    `--${boundary}\r\n${part('text/plain', m.text)}\r\n` +
    `--${boundary}\r\n${part('text/html', m.html)}\r\n` +
    `--${boundary}--\r\n`;
  return Buffer.from(message, 'utf8');
}
