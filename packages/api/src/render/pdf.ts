import fs from 'node:fs';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

/**
 * The one PDF helper (giving statements): pdfkit documents with Inter embedded (a subset per
 * document, so any reader shows the same letters), from the `@fontsource/inter` package.
 *
 * Speed (`pnpm bench:statements`): the fonts are read once per process, not per document —
 * fontsource ships WOFF, unpacked here with node's zlib (fontkit's own inflate in JavaScript took
 * 100 ms a document) — and the shaping of a word (Inter's OpenType features) is kept across
 * documents: a statement's words (dates, funds, amounts) repeat from donor to donor.
 */

const require = createRequire(import.meta.url);
const fontFile = (weight: 400 | 700) => require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`);

/** WOFF 1.0 → the TrueType/OpenType file it wraps (each table zlib-compressed or stored). */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('Not a WOFF font');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const o = 44 + i * 20;
    const offset = woff.readUInt32BE(o + 4);
    const compLength = woff.readUInt32BE(o + 8);
    const origLength = woff.readUInt32BE(o + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.readUInt32BE(o),
      checksum: woff.readUInt32BE(o + 16),
      data: compLength < origLength ? zlib.inflateSync(raw) : raw,
    };
  });
  let size = 12 + 16 * numTables;
  const offsets = tables.map((t) => {
    const at = size;
    size += (t.data.length + 3) & ~3;
    return at;
  });
  const out = Buffer.alloc(size);
  let power = 0;
  while (1 << (power + 1) <= numTables) power++;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE((1 << power) * 16, 6);
  out.writeUInt16BE(power, 8);
  out.writeUInt16BE(numTables * 16 - (1 << power) * 16, 10);
  tables.forEach((t, i) => {
    const o = 12 + i * 16;
    out.writeUInt32BE(t.tag, o);
    out.writeUInt32BE(t.checksum, o + 4);
    out.writeUInt32BE(offsets[i]!, o + 8);
    out.writeUInt32BE(t.data.length, o + 12);
    t.data.copy(out, offsets[i]);
  });
  return out;
}

interface Run {
  glyphs: unknown[];
  positions: Record<string, number>[];
  advanceWidth: number;
}
interface LayoutFont {
  layout(text: string, features?: unknown): Run;
}

/**
 * A fontkit font whose shaping is remembered per text. pdfkit scales the positions it gets in
 * place, so each caller gets its own copy of them (and a width computed from them).
 */
function withLayoutCache(font: LayoutFont): LayoutFont {
  const cache = new Map<string, Run>();
  const wrapped = Object.create(font) as LayoutFont;
  wrapped.layout = (text, features) => {
    if (features) return font.layout(text, features);
    let run = cache.get(text);
    if (!run) {
      run = font.layout(text);
      // Dates, amounts and funds repeat, names and addresses do not: the cache stays small.
      if (cache.size > 5_000) cache.clear();
      cache.set(text, run);
    }
    const positions = run.positions.map((p) => ({ ...p }));
    // Like fontkit's run: the width is the sum of the (by then scaled) advances.
    return {
      glyphs: run.glyphs,
      positions,
      get advanceWidth() {
        return positions.reduce((sum, p) => sum + (p.xAdvance ?? 0), 0);
      },
    };
  };
  return wrapped;
}

interface GlyphFont extends LayoutFont {
  characterSet: number[];
  numGlyphs: number;
  glyphForCodePoint(codePoint: number): { id: number; codePoints: number[] };
  getGlyph(id: number): { id: number; codePoints: number[] };
}

/**
 * A font whose every glyph knows its character before anything else asks for it. fontkit makes a
 * glyph once, with the characters of whoever asked first: a glyph first reached by its id (as an
 * OpenType substitution does) has none, for the rest of the process, and pdfkit then leaves it out
 * of the PDF's character map, so the text read back from any later PDF lost it ('$2500' for
 * '$25.00', to a copy and paste or a screen reader as to the tests).
 */
function withCharacters(font: GlyphFont): GlyphFont {
  for (const codePoint of font.characterSet) font.glyphForCodePoint(codePoint);
  return font;
}

function openFont(weight: 400 | 700): GlyphFont {
  return withCharacters(fontkit.create(woffToSfnt(fs.readFileSync(fontFile(weight)))) as GlyphFont);
}

let fonts: { regular: LayoutFont; bold: LayoutFont; glyphs: GlyphFont[] } | null = null;
function loadFonts() {
  if (!fonts) {
    const [regular, bold] = [openFont(400), openFont(700)];
    fonts = { regular: withLayoutCache(regular), bold: withLayoutCache(bold), glyphs: [regular, bold] };
  }
  return fonts;
}

/** The documents' two fonts (Regular, Bold) as fontkit holds them, for the test of their glyphs. */
export function pdfFontsForTests(): GlyphFont[] {
  return loadFonts().glyphs;
}

export type Pdf = PDFKit.PDFDocument;

/**
 * A new document (US Letter, or `size` in points with `margin`, e.g. a 2.25″×1.25″ label) with the
 * fonts 'Regular' and 'Bold' (Regular is current). `draw` fills
 * it (one statement, or many, page after page; pdfkit writes each page out when the next starts,
 * so an async `draw` can fetch as it goes); the PDF's bytes are returned.
 */
export function renderPdf(
  opts: { title: string; author: string; size?: [number, number]; margin?: number },
  draw: (doc: Pdf) => void | Promise<void>,
): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  // pdfkit opens its default font (Helvetica, parsed from its AFM file) unless given one.
  const doc = new PDFDocument({
    size: opts.size ?? 'LETTER',
    margin: opts.margin ?? 54,
    font: regular as unknown as string,
    info: { Title: opts.title, Author: opts.author, Producer: 'Lampstand', Creator: 'Lampstand' },
  });
  doc.registerFont('Regular', regular as unknown as Buffer);
  doc.registerFont('Bold', bold as unknown as Buffer);
  doc.font('Regular');
  // pdfkit writes many small buffers, each a slice of a shared 8 KiB slab that it keeps alive:
  // they are copied into one buffer every 512, so a long PDF holds its own bytes, not the slabs.
  const blocks: Buffer[] = [];
  let pending: Buffer[] = [];
  const compact = () => {
    if (pending.length) blocks.push(Buffer.concat(pending));
    pending = [];
  };
  return new Promise((resolve, reject) => {
    doc.on('data', (c: Buffer) => {
      pending.push(c);
      if (pending.length >= 512) compact();
    });
    doc.on('end', () => {
      compact();
      resolve(Buffer.concat(blocks));
    });
    doc.on('error', reject);
    (async () => draw(doc))().then(
      () => doc.end(),
      (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
    );
  });
}
