import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { Resvg } from '@resvg/resvg-js';
import { buildQrSvg, logoPlate, qrMatrix, svgToPng, type QrRenderOptions } from './render.js';

function decode(svg: string, size: number): string | null {
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render();
  const res = jsQR(new Uint8ClampedArray(img.pixels), img.width, img.height, { inversionAttempts: 'attemptBoth' });
  return res?.data ?? null;
}

const base: QrRenderOptions = {
  data: 'https://lampstand.example/s/k7m3pq9?src=qr',
  size: 300,
  margin: 4,
  errorCorrection: 'M',
  foregroundColor: '#000000',
  backgroundColor: '#FFFFFF',
};

// A 2×2 PNG logo (red), as an upload or a fetched URL would give.
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR4nGP4z8DwHwyhDAYGAF3oB/nLKO1hAAAAAElFTkSuQmCC',
  'base64',
);
const SVG_LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#4c6ef5"/></svg>',
);

describe('QR SVG', () => {
  it('draws modules, styled finder patterns in their colours, the margin in modules, and the size in pixels', () => {
    const svg = buildQrSvg({ ...base, cornerSquareColor: '#1E3A8A', cornerDotColor: '#B91C1C', margin: 2 });
    const n = qrMatrix(base.data, 'M', false).size;
    // Whole pixels per module: the rest of the 300 px widens the quiet zone evenly.
    const k = Math.floor(300 / (n + 4));
    const offset = Math.round((Math.floor((300 - k * (n + 4)) / 2) / k) * 10_000) / 10_000;
    const view = Math.round((300 / k) * 10_000) / 10_000;
    expect(svg).toContain(`width="300" height="300" viewBox="${-offset} ${-offset} ${view} ${view}"`);
    expect(svg).toContain(`<rect x="${-offset}" y="${-offset}" width="${view}" height="${view}" fill="#FFFFFF"/>`);
    expect(svg.match(/fill="#1E3A8A" fill-rule="evenodd"/g)).toHaveLength(3);
    expect(svg.match(/width="3" height="3" rx="0.8" fill="#B91C1C"/g)).toHaveLength(3);
    // Finder patterns start at the margin.
    expect(svg).toContain('<rect x="4" y="4" width="3" height="3"');
    expect(svg).not.toContain('<image');
  });

  it('raises error correction to H and leaves a clear plate when a logo is set', () => {
    expect(qrMatrix(base.data, 'L', true).errorCorrection).toBe('H');
    const svg = buildQrSvg({ ...base, errorCorrection: 'L', logo: { contentType: 'image/png', data: RED_PNG } });
    const n = qrMatrix(base.data, 'H', true).size;
    const plate = logoPlate(n);
    expect((n - plate.size) % 2).toBe(0);
    expect(svg).toContain(`<rect x="${plate.start + 4}" y="${plate.start + 4}" width="${plate.size}"`);
    expect(svg).toContain('xlink:href="data:image/png;base64,');
    // No module run starts inside the plate.
    for (const m of svg.matchAll(/M(\d+) (\d+)h/g)) {
      const x = Number(m[1]) - 4;
      const y = Number(m[2]) - 4;
      const inside =
        x >= plate.start && x < plate.start + plate.size && y >= plate.start && y < plate.start + plate.size;
      expect(inside).toBe(false);
    }
  });

  it('refuses a size too small for the modules and the margin', () => {
    const long = 'https://example.org/' + 'a'.repeat(400);
    expect(() => buildQrSvg({ ...base, data: long, size: 100, margin: 20 })).toThrow(/needs at least \d+ pixels/);
  });

  it('renders a PNG of the asked size', () => {
    const png = svgToPng(buildQrSvg(base), 420);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(420);
    expect(png.readUInt32BE(20)).toBe(420);
  });
});

describe('every code decodes back to its data (jsQR on the PNG pixels from resvg)', () => {
  const datas = [
    'https://lampstand.example/s/k7m3pq9?src=qr',
    'https://gracechurch.example.org/easter-services-2027?utm_source=flyer&utm_medium=print&utm_campaign=easter',
  ];
  const sizes = [100, 150, 300, 640, 1000];
  const margins = [0, 1, 4, 10, 20];
  const levels = ['L', 'M', 'Q', 'H'] as const;
  const colours: [string, string, string | null, string | null][] = [
    ['#000000', '#FFFFFF', null, null],
    ['#1E3A8A', '#FFFFFF', '#B91C1C', '#047857'],
    ['#5F3DC4', '#FFF3BF', null, '#C92A2A'],
    ['#2B2B2B', '#E9ECEF', '#000000', null],
    ['#FFFFFF', '#1A1B1E', null, null], // light on dark (confirmed by the user)
  ];

  for (const data of datas)
    for (const size of sizes)
      for (const margin of margins)
        it(`size ${size}, margin ${margin}, ${data.length} characters`, () => {
          for (const errorCorrection of levels) {
            const total = qrMatrix(data, errorCorrection, false).size + 2 * margin;
            if (size < 2 * total) {
              // Too small to scan: refused with a clear message instead of drawn.
              expect(() => buildQrSvg({ ...base, data, size, margin, errorCorrection })).toThrow(
                `needs at least ${2 * total} pixels`,
              );
              continue;
            }
            const svg = buildQrSvg({ ...base, data, size, margin, errorCorrection });
            expect(decode(svg, size), `level ${errorCorrection}`).toBe(data);
          }
        });

  for (const [fg, bg, cs, cd] of colours)
    it(`colours ${fg} on ${bg} (corners ${cs ?? 'same'}, ${cd ?? 'same'})`, () => {
      for (const errorCorrection of levels) {
        const svg = buildQrSvg({
          ...base,
          errorCorrection,
          foregroundColor: fg,
          backgroundColor: bg,
          cornerSquareColor: cs,
          cornerDotColor: cd,
        });
        expect(decode(svg, 300), `level ${errorCorrection}`).toBe(base.data);
      }
    });

  for (const size of [150, 300, 1000])
    for (const logo of [
      { contentType: 'image/png', data: RED_PNG },
      { contentType: 'image/svg+xml', data: SVG_LOGO },
    ])
      it(`with a ${logo.contentType} logo at ${size} px`, () => {
        for (const data of datas) {
          const svg = buildQrSvg({ ...base, data, size, errorCorrection: 'L', logo });
          expect(decode(svg, size)).toBe(data);
        }
      });
});
