import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeWords, foldHeader, quotedPrintable } from './mime-encoding.js';

/** Quoted-printable back to text: soft breaks dropped, `=XX` to its byte. */
const qpDecode = (s: string) =>
  Buffer.from(
    s.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 back to text: Q words decoded, the whitespace between two adjacent words dropped (§6.2). */
const wordsDecode = (s: string) =>
  s.replace(/(\?=)\s+(?==\?)/g, '$1').replace(/=\?UTF-8\?Q\?([^?]*)\?=/g, (_, q: string) =>
    Buffer.from(
      q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/g, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );

describe('quotedPrintable', () => {
  it('writes printable ASCII as it is, and `=`, non-ASCII bytes and blanks that end a line as =XX', () => {
    expect(quotedPrintable('Hello, world!')).toBe('Hello, world!');
    expect(quotedPrintable('a=b')).toBe('a=3Db');
    expect(quotedPrintable('café')).toBe('caf=C3=A9');
    expect(quotedPrintable('Zoë 😀')).toBe('Zo=C3=AB =F0=9F=98=80');
    expect(quotedPrintable('end \r\nnext\t\r\nlast ')).toBe('end=20\r\nnext=09\r\nlast=20');
    expect(quotedPrintable('a \tb')).toBe('a \tb');
  });

  it('breaks long lines softly at 76, before a space near the end when there is one', () => {
    const words = 'The quick brown fox jumps over the lazy dog. '.repeat(4).trim();
    expect(quotedPrintable(words)).toBe(
      'The quick brown fox jumps over the lazy dog. The quick brown fox jumps over=\r\n' +
        ' the lazy dog. The quick brown fox jumps over the lazy dog. The quick brown=\r\n' +
        ' fox jumps over the lazy dog.',
    );
    expect(quotedPrintable('x'.repeat(100))).toBe(`${'x'.repeat(75)}=\r\n${'x'.repeat(25)}`);
  });

  it('never cuts an escape or a character apart at a soft break', () => {
    expect(quotedPrintable(`${'x'.repeat(74)}é${'x'.repeat(10)}`)).toBe(
      `${'x'.repeat(74)}=\r\n=C3=A9${'x'.repeat(10)}`,
    );
    expect(quotedPrintable('é'.repeat(30))).toBe(
      `${'=C3=A9'.repeat(12)}=\r\n${'=C3=A9'.repeat(12)}=\r\n${'=C3=A9'.repeat(6)}`,
    );
    expect(quotedPrintable(`${'x'.repeat(70)}😀😀`)).toBe(`${'x'.repeat(70)}=\r\n=F0=9F=98=80=F0=9F=98=80`);
  });

  it('keeps hard line breaks and leaves short lines alone', () => {
    expect(quotedPrintable('one\r\ntwo\r\n\r\nthree')).toBe('one\r\ntwo\r\n\r\nthree');
    expect(quotedPrintable(`${'a'.repeat(76)}\r\nb`)).toBe(`${'a'.repeat(75)}=\r\na\r\nb`);
  });
});

describe('encodeWords', () => {
  it('encodes from the first word that is not ASCII to the last, as Q words (RFC 2047 §4.2, §5)', () => {
    expect(encodeWords('Welcome', 52)).toBe('Welcome');
    expect(encodeWords('Bienvenue Zoë', 52)).toBe('Bienvenue =?UTF-8?Q?Zo=C3=AB?=');
    expect(encodeWords('Zoë and Noé, welcome', 52)).toBe('=?UTF-8?Q?Zo=C3=AB_and_No=C3=A9=2C?= welcome');
    expect(encodeWords('Église "Sainte" Anne', 52)).toBe('=?UTF-8?Q?=C3=89glise_=22Sainte=22?= Anne');
    expect(encodeWords('a_b=c?d é', 52)).toBe('a_b=c?d =?UTF-8?Q?=C3=A9?=');
    expect(encodeWords('é_(a=b)?', 52)).toBe('=?UTF-8?Q?=C3=A9=5F=28a=3Db=29=3F?=');
  });

  it('splits into words of at most 52 characters, each holding whole characters', () => {
    const value = `Grüße ${'ü'.repeat(20)}`;
    const encoded = encodeWords(value, 52);
    expect(encoded).toBe(
      '=?UTF-8?Q?Gr=C3=BC=C3=9Fe_=C3=BC=C3=BC=C3=BC=C3=BC?= =?UTF-8?Q?=C3=BC=C3=BC=C3=BC=C3=BC=C3=BC=C3=BC?= ' +
        '=?UTF-8?Q?=C3=BC=C3=BC=C3=BC=C3=BC=C3=BC=C3=BC?= =?UTF-8?Q?=C3=BC=C3=BC=C3=BC=C3=BC?=',
    );
    for (const word of encoded.split(' ')) expect(word.length).toBeLessThanOrEqual(52);
    expect(wordsDecode(encoded)).toBe(value);
    expect(encodeWords('😀'.repeat(4), 52)).toBe(
      '=?UTF-8?Q?=F0=9F=98=80=F0=9F=98=80=F0=9F=98=80?= =?UTF-8?Q?=F0=9F=98=80?=',
    );
  });

  it('encodes typed text that looks like an encoded-word, so it reads as typed', () => {
    const value = 'Zoë =?UTF-8?Q?x?= =?bad';
    const encoded = encodeWords(value, 52);
    expect(encoded).not.toContain('=?UTF-8?Q?x?=');
    expect(wordsDecode(encoded)).toBe(value);
  });
});

describe('foldHeader', () => {
  it('folds before the last whitespace that fits in 76, the whitespace starting the next line', () => {
    const subject = `Subject: ${'Sunday service and the potluck after it, '.repeat(3).trim()}`;
    expect(foldHeader(subject)).toBe(
      'Subject: Sunday service and the potluck after it, Sunday service and the\r\n' +
        ' potluck after it, Sunday service and the potluck after it,',
    );
    expect(foldHeader('Subject: short')).toBe('Subject: short');
  });

  it('keeps a word longer than a line whole', () => {
    const long = `X-Token: ${'a'.repeat(100)} b`;
    expect(foldHeader(long)).toBe(`X-Token:\r\n ${'a'.repeat(100)}\r\n b`);
  });
});

/** A seeded generator (mulberry32), so the inputs below are the same on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** Pieces the inputs are built of: ASCII, `=`, blanks (trailing ones too), non-ASCII, long runs. */
const PIECES = [
  ...['a', 'Z', '0', ' ', '  ', '\t', '=', '.', ',', '!', '_', '"', '-', 'word ', 'ab cd ef', '=C3'],
  ...['é', 'ë', '中', '😀', '\uD800', 'ü'.repeat(30), 'é'.repeat(37), '😀'.repeat(20)],
  ...['x'.repeat(80), ' '.repeat(77), 'a'.repeat(73), 'a'.repeat(74), 'a'.repeat(75), 'a'.repeat(76)],
];
const BREAKS = ['\r\n', '\r\n\r\n', '   \r\n', '\t\r\n'];
function inputs(seed: number, count: number, maxLength: number, pieces: string[]): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * maxLength);
    let s = '';
    while (s.length < length) s += pieces[Math.floor(next() * pieces.length)];
    return s;
  });
}
const digest = (outputs: string[]) => crypto.createHash('sha256').update(outputs.join('\0')).digest('hex').slice(0, 32);

// What nodemailer 10.6.0 wrote for the same inputs (`wrap(encode(body), 76)` of `nodemailer/lib/qp`,
// `encodeWords(value, 'Q', 52)` and `foldLines(header, 76)` of `nodemailer/lib/mime-funcs`), which
// composeMime used before these functions replaced them. A change here changes the bytes of every
// message with a non-ASCII subject or body.
describe("the same bytes as nodemailer's encoders, over 500 generated inputs each", () => {
  const bodies = inputs(44, 500, 600, [...PIECES, ...BREAKS]);
  const values = inputs(2047, 500, 200, PIECES);

  it('quoted-printable: decodes to the text, lines at most 76', () => {
    const outputs = bodies.map((body) => quotedPrintable(body));
    outputs.forEach((qp, i) => {
      expect(qpDecode(qp)).toBe(bodies[i]!.replace(/\uD800/g, '\uFFFD'));
      for (const line of qp.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    });
    expect(digest(outputs)).toBe('ec89f8944d4301501fe1745d58241632');
  });

  it('encoded-words: decode to the value, each word at most 52', () => {
    const outputs = values.map((value) => encodeWords(value, 52));
    outputs.forEach((encoded, i) => {
      expect(wordsDecode(encoded)).toBe(values[i]!.replace(/\uD800/g, '\uFFFD'));
      for (const word of encoded.match(/=\?UTF-8\?Q\?[^?]*\?=/g) ?? []) expect(word.length).toBeLessThanOrEqual(52);
    });
    expect(digest(outputs)).toBe('3d51a6ee00dd80d8883c22f683c806a4');
  });

  it('folding: unfolds to the header', () => {
    const headers = values.map((value) => `Subject: ${encodeWords(value, 52)}`);
    const outputs = headers.map((h) => foldHeader(h));
    outputs.forEach((folded, i) => expect(folded.replace(/\r\n/g, '')).toBe(headers[i]));
    expect(digest(outputs)).toBe('0d13e455bae8ccc7de867d06656a7ac2');
  });
});
