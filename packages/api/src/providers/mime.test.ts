import { describe, expect, it } from 'vitest';
import { canComposeMime, composeMime, type MimeInput } from './mime.js';

const base: MimeInput = {
  from: '"Grace Church" <news@lampstand.example>',
  to: 'ann@example.org',
  subject: 'Welcome',
  messageId: 'journey-1.abc@lampstand.example',
  headers: { 'List-Unsubscribe': '<https://lampstand.example/u/abc>' },
  text: 'Hello\n\n--\nGrace\n',
  html: '<p>Hello</p>',
};
const raw = (m: Partial<MimeInput> = {}) => composeMime({ ...base, ...m }).toString('utf8');
/** Quoted-printable back to text (soft breaks dropped, =XX to its byte). */
const qpDecode = (s: string) =>
  Buffer.from(
    s.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
const headerBlock = (s: string) => s.slice(0, s.indexOf('\r\n\r\n'));

describe('composeMime', () => {
  it('writes the headers, a text and an HTML part, CRLF line ends', () => {
    const s = raw();
    const head = headerBlock(s);
    expect(head).toContain('From: "Grace Church" <news@lampstand.example>');
    expect(head).toContain('To: ann@example.org');
    expect(head).toContain('Message-ID: <journey-1.abc@lampstand.example>');
    expect(head).toContain('List-Unsubscribe: <https://lampstand.example/u/abc>');
    expect(head).toMatch(/^Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/m);
    const boundary = /boundary="([^"]+)"/.exec(head)![1]!;
    expect(s.split(`--${boundary}\r\n`)).toHaveLength(3);
    expect(s.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(s).toContain(
      'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nHello\r\n\r\n--\r\nGrace\r\n',
    );
    expect(s.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('encodes a name and a subject that are not ASCII, and a body with long lines, quoted-printable', () => {
    const html = `<p>Zoë</p>${'<p>x</p>'.repeat(200)}`;
    const s = raw({ from: '"Église Sainte-Anne" <news@lampstand.example>', subject: 'Bienvenue Zoë', html });
    const head = headerBlock(s);
    expect(head).toContain('From: =?UTF-8?Q?');
    expect(head).toMatch(/Subject: Bienvenue =\?UTF-8\?Q\?Zo=C3=AB\?=/);
    const htmlPart = s.slice(s.indexOf('Content-Type: text/html'));
    expect(htmlPart).toContain('Content-Transfer-Encoding: quoted-printable');
    const body = htmlPart.slice(htmlPart.indexOf('\r\n\r\n') + 4, htmlPart.lastIndexOf('\r\n--'));
    for (const line of body.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    expect(qpDecode(body)).toBe(html);
  });

  it('cannot be given a header line: line breaks in a value become spaces, a bad name is refused', () => {
    const head = headerBlock(raw({ subject: 'Hi\r\nBcc: x@evil.example', headers: { 'X-A': 'b\nc' } }));
    expect(head).not.toMatch(/^Bcc:/m);
    expect(head).toContain('Subject: Hi Bcc: x@evil.example');
    expect(() => raw({ headers: { 'X-A: b\r\nBcc': 'x' } })).toThrow(/Bad header name/);
  });

  it('gives every message a boundary of its own', () => {
    const b = (s: string) => /boundary="([^"]+)"/.exec(s)![1];
    expect(b(raw())).not.toBe(b(raw()));
  });

  it('leaves attachments and addresses that are not ASCII to the full composer', () => {
    expect(canComposeMime(base)).toBe(true);
    expect(canComposeMime({ ...base, attachments: [{}] })).toBe(false);
    expect(canComposeMime({ ...base, to: 'zoë@example.org' })).toBe(false);
  });
});
