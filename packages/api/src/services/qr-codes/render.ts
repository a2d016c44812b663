import QRCode from 'qrcode';
import { Resvg } from '@resvg/resvg-js';
import { QR_BYTE_CAPACITY, type QrErrorCorrectionLevel } from '../../schemas/qr-codes.js';
import { badRequest } from '../../errors.js';

/** A logo ready to embed: bytes already checked (and an SVG already sanitized). */
export interface QrLogo {
  contentType: string;
  data: Buffer;
}

export interface QrRenderOptions {
  data: string;
  /** Width and height in pixels. */
  size: number;
  /** Quiet zone, in modules. */
  margin: number;
  errorCorrection: QrErrorCorrectionLevel;
  foregroundColor: string;
  backgroundColor: string;
  cornerSquareColor?: string | null;
  cornerDotColor?: string | null;
  logo?: QrLogo | null;
}

/** Share of the code's width the logo plate takes (about 5% of the area, well inside H's 30%). */
const PLATE_SHARE = 0.22;

export interface QrMatrix {
  size: number;
  dark(row: number, col: number): boolean;
  errorCorrection: QrErrorCorrectionLevel;
}

/** The module matrix from the `qrcode` package; a logo raises error correction to H. */
export function qrMatrix(data: string, errorCorrection: QrErrorCorrectionLevel, hasLogo: boolean): QrMatrix {
  const level = hasLogo ? 'H' : errorCorrection;
  let qr: QRCode.QRCode;
  try {
    qr = QRCode.create(data, { errorCorrectionLevel: level });
  } catch (err) {
    // The schemas check the URL against the capacity; what is added on top (an `lsrc` mark) can still tip it over.
    if (err instanceof Error && /too big/.test(err.message))
      throw badRequest(
        `URL is too long for a QR code at error correction ${level} (at most ${QR_BYTE_CAPACITY[level].toLocaleString('en-US')} characters, with what is added to it)`,
        'url',
      );
    throw err;
  }
  const { size, data: bits } = qr.modules;
  return { size, dark: (r, c) => bits[r * size + c] === 1, errorCorrection: level };
}

/** The three 7×7 finder patterns: top left, top right, bottom left. */
function finderOrigins(n: number): [number, number][] {
  return [
    [0, 0],
    [0, n - 7],
    [n - 7, 0],
  ];
}

function inFinder(n: number, r: number, c: number): boolean {
  return finderOrigins(n).some(([fr, fc]) => r >= fr && r < fr + 7 && c >= fc && c < fc + 7);
}

/** The centred square of modules left clear for the logo: odd or even like the matrix, so it sits on the grid. */
export function logoPlate(n: number): { start: number; size: number } {
  let p = Math.floor(n * PLATE_SHARE);
  if ((n - p) % 2 !== 0) p += 1;
  return { start: (n - p) / 2, size: p };
}

/** Below 2 pixels a module, phones (and decoders) stop reading the code. */
const MIN_MODULE_PIXELS = 2;
const round = (v: number) => Math.round(v * 10_000) / 10_000;

/** A rounded rectangle as a path (clockwise). */
function roundedRect(x: number, y: number, w: number, h: number, r: number): string {
  return (
    `M${x + r} ${y}h${w - 2 * r}a${r} ${r} 0 0 1 ${r} ${r}v${h - 2 * r}a${r} ${r} 0 0 1 -${r} ${r}` +
    `h-${w - 2 * r}a${r} ${r} 0 0 1 -${r} -${r}v-${h - 2 * r}a${r} ${r} 0 0 1 ${r} -${r}z`
  );
}

/**
 * Our own SVG of the code: the background, the data modules in the foreground colour (one path,
 * a rectangle per run of dark modules), the three finder patterns drawn as rounded corner squares
 * and corner dots in their own colours, the quiet zone `margin` modules wide, and a centred logo
 * on a clear plate (error correction raised to H).
 */
export function buildQrSvg(o: QrRenderOptions): string {
  const m = qrMatrix(o.data, o.errorCorrection, !!o.logo);
  const n = m.size;
  const total = n + 2 * o.margin;
  // Whole pixels per module (at least 2), so every module is sharp in the PNG; what is left of
  // `size` widens the quiet zone evenly.
  const k = Math.floor(o.size / total);
  if (k < MIN_MODULE_PIXELS)
    throw badRequest(
      `This code needs at least ${total * MIN_MODULE_PIXELS} pixels at this margin: make it larger, reduce the margin or shorten the URL`,
      'size',
    );
  const offset = round(Math.floor((o.size - k * total) / 2) / k);
  const view = round(o.size / k);
  const plate = o.logo ? logoPlate(n) : null;
  const inPlate = (r: number, c: number) =>
    !!plate && r >= plate.start && r < plate.start + plate.size && c >= plate.start && c < plate.start + plate.size;

  let d = '';
  for (let r = 0; r < n; r++) {
    let c = 0;
    while (c < n) {
      if (!m.dark(r, c) || inFinder(n, r, c) || inPlate(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && m.dark(r, c) && !inFinder(n, r, c) && !inPlate(r, c)) c++;
      d += `M${start + o.margin} ${r + o.margin}h${c - start}v1h-${c - start}z`;
    }
  }

  const square = o.cornerSquareColor ?? o.foregroundColor;
  const dot = o.cornerDotColor ?? o.cornerSquareColor ?? o.foregroundColor;
  let finders = '';
  for (const [fr, fc] of finderOrigins(n)) {
    const x = fc + o.margin;
    const y = fr + o.margin;
    finders +=
      `<path fill="${square}" fill-rule="evenodd" d="${roundedRect(x, y, 7, 7, 1.6)}${roundedRect(x + 1, y + 1, 5, 5, 1)}"/>` +
      `<rect x="${x + 2}" y="${y + 2}" width="3" height="3" rx="0.8" fill="${dot}"/>`;
  }

  let logo = '';
  if (plate && o.logo) {
    const px = plate.start + o.margin;
    const pad = 0.5;
    const href = `data:${o.logo.contentType};base64,${o.logo.data.toString('base64')}`;
    logo =
      `<rect x="${px}" y="${px}" width="${plate.size}" height="${plate.size}" rx="1" fill="${o.backgroundColor}"/>` +
      `<image x="${px + pad}" y="${px + pad}" width="${plate.size - 2 * pad}" height="${plate.size - 2 * pad}" ` +
      `preserveAspectRatio="xMidYMid meet" xlink:href="${href}"/>`;
  }

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `width="${o.size}" height="${o.size}" viewBox="${-offset} ${-offset} ${view} ${view}">` +
    `<rect x="${-offset}" y="${-offset}" width="${view}" height="${view}" fill="${o.backgroundColor}"/>` +
    `<path fill="${o.foregroundColor}" shape-rendering="crispEdges" d="${d}"/>` +
    finders +
    logo +
    `</svg>`
  );
}

/** How resvg draws a code `size` pixels wide (here and in the render pool's workers). */
export function resvgOptions(size: number) {
  return { fitTo: { mode: 'width' as const, value: size }, font: { loadSystemFonts: false } };
}

/** The same SVG as a PNG of `size` pixels, drawn by resvg on this thread (the server uses the render pool). */
export function svgToPng(svg: string, size: number): Buffer {
  return new Resvg(svg, resvgOptions(size)).render().asPng();
}

/** The smallest size in pixels at which this code draws (2 pixels a module, the margin included). */
export function minimumQrSize(o: Pick<QrRenderOptions, 'data' | 'margin' | 'errorCorrection'> & { hasLogo: boolean }) {
  return (qrMatrix(o.data, o.errorCorrection, o.hasLogo).size + 2 * o.margin) * MIN_MODULE_PIXELS;
}
