/**
 * The three encodings `composeMime` needs: quoted-printable bodies (RFC 2045 §6.7), RFC 2047
 * encoded-words for headers that are not ASCII, and header folding. They write what nodemailer
 * writes (its `qp.encode`/`qp.wrap`, `encodeWords(…, 'Q', 52)` and `foldLines`, byte for byte, as
 * mime-encoding.test.ts checks), kept here because those live in nodemailer's private modules.
 */

const HEX = '0123456789ABCDEF';
const isBlank = (b: number | undefined) => b === 0x20 || b === 0x09;

/** Bytes quoted-printable writes as they are: TAB, CR, LF and printable ASCII but `=`. */
function qpLiteral(b: number): boolean {
  return b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b <= 0x7e && b !== 0x3d);
}

/** Every byte that is not literal, and a space or tab that ends a line (or the text), as `=XX`. */
function qpEncode(bytes: Buffer): string {
  const out = Buffer.allocUnsafe(bytes.length * 3);
  let pos = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const next = bytes[i + 1];
    if (qpLiteral(b) && !(isBlank(b) && (next === undefined || next === 0x0a || next === 0x0d))) {
      out[pos++] = b;
      continue;
    }
    out[pos++] = 0x3d;
    out[pos++] = HEX.charCodeAt(b >> 4);
    out[pos++] = HEX.charCodeAt(b & 15);
  }
  return out.toString('latin1', 0, pos);
}

const ESCAPE_AT_END = /=[\dA-F]{2}$/i;
const BREAK_NEAR_END = /[ \t.,!?][^ \t.,!?]*$/;

/**
 * Soft line breaks (`=` CRLF) so no line is longer than `lineLength`: a line breaks after the last
 * space or punctuation of its last third when it has one, else as late as it can without cutting
 * an `=XX` escape or a UTF-8 character's escapes apart. Hard line breaks (CRLF) are kept.
 */
function qpWrap(qp: string, lineLength: number): string {
  if (qp.length <= lineLength) return qp;
  const margin = Math.floor(lineLength / 3);
  let result = '';
  let pos = 0;
  while (pos < qp.length) {
    let line = qp.substr(pos, lineLength);
    const crlf = line.indexOf('\r\n');
    if (crlf !== -1) {
      line = line.slice(0, crlf + 2);
      result += line;
      pos += line.length;
      continue;
    }
    const breakAt = line.length > lineLength - margin ? BREAK_NEAR_END.exec(line.slice(-margin)) : null;
    if (breakAt) {
      line = line.slice(0, line.length - breakAt[0].length + 1);
    } else if (/=[\dA-F]{0,2}$/i.test(line)) {
      line = line.replace(/=[\dA-F]?$/i, ''); // an escape cut short goes to the next line
      // Nor are a character's bytes split: back off over continuation bytes to the lead byte.
      while (line.length > 3 && line.length < qp.length - pos && !/^(?:=[\dA-F]{2}){1,4}$/i.test(line)) {
        const escape = ESCAPE_AT_END.exec(line);
        if (!escape) break;
        const code = parseInt(escape[0].slice(1), 16);
        if (code < 0x80) break;
        line = line.slice(0, -3);
        if (code >= 0xc0) break;
      }
    }
    if (!line.length) line = qp.substr(pos, lineLength);
    if (pos + line.length < qp.length && !line.endsWith('\n')) {
      if (line.length === lineLength) line = line.slice(0, ESCAPE_AT_END.test(line) ? -3 : -1);
      pos += line.length;
      line += '=\r\n';
    } else {
      pos += line.length;
    }
    result += line;
  }
  return result;
}

/**
 * A text as quoted-printable (its UTF-8 bytes), lines at most `lineLength` (76) long. Its line
 * breaks must be CRLF already: a lone CR or LF is not treated as a line end.
 */
export function quotedPrintable(text: string, lineLength = 76): string {
  return qpWrap(qpEncode(Buffer.from(text, 'utf8')), lineLength);
}

/** RFC 2047 §5 (3): the bytes a Q encoded-word in a phrase may carry as they are. */
const Q_LITERAL = /[A-Za-z0-9!*+\-/]/;

/**
 * `=?UTF-8?Q?…?=` words for a text, each at most `maxLength` long (so `maxLength - 12` characters
 * of encoded text; at least one whole character) and holding only whole characters (RFC 2047
 * §6.3), joined by a space.
 */
function qWords(text: string, maxLength: number): string {
  const budget = maxLength - '=?UTF-8?Q??='.length;
  const chunks: string[] = [];
  let chunk = '';
  let char = '';
  const flush = () => {
    if (chunk.length + char.length > budget && chunk) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk += char;
    char = '';
  };
  for (const b of Buffer.from(text, 'utf8')) {
    // A byte that starts a character ends the one before it.
    if ((b & 0xc0) !== 0x80 && char) flush();
    const c = String.fromCharCode(b);
    char += b === 0x20 ? '_' : b < 0x80 && Q_LITERAL.test(c) ? c : `=${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  if (char) flush();
  chunks.push(chunk);
  return chunks.map((c) => `=?UTF-8?Q?${c}?=`).join(' ');
}

/**
 * A header value with its words that are not ASCII (and any quote between them) as encoded-words:
 * from the start of the first such word to the end of the last, so the plain words around them
 * keep the whitespace that separates them. A word holding `=?` is encoded too, so a receiver
 * never reads typed text as an encoded-word.
 */
export function encodeWords(value: string, maxLength: number): string {
  let first = -1;
  let last = -1;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x22 || code >= 0x80 || (code === 0x3d && value[i + 1] === '?')) {
      if (first < 0) first = i;
      last = code === 0x3d ? i + 1 : i;
    }
  }
  if (first < 0) return value;
  while (first > 0 && !/\s/.test(value.charAt(first - 1))) first--;
  let end = last + 1;
  while (end < value.length && !/\s/.test(value.charAt(end))) end++;
  return value.slice(0, first) + qWords(value.slice(first, end), maxLength) + value.slice(end);
}

/**
 * A header line folded (RFC 5322 §2.2.3) to lines of at most `lineLength` where it can: before the
 * last whitespace of each stretch, and a word longer than a line kept whole. The line must not
 * hold line breaks.
 */
export function foldHeader(line: string, lineLength = 76): string {
  let result = '';
  let pos = 0;
  while (pos < line.length) {
    let part = line.substr(pos, lineLength);
    if (part.length < lineLength) {
      result += part;
      break;
    }
    const lastWord = /(\s+)\S*$/.exec(part);
    if (lastWord && lastWord[0].length < part.length) {
      part = part.slice(0, part.length - lastWord[0].length);
    } else {
      const rest = /^\S+/.exec(line.slice(pos + part.length));
      if (rest) part += rest[0];
    }
    result += part;
    pos += part.length;
    if (pos < line.length) result += '\r\n';
  }
  return result;
}
