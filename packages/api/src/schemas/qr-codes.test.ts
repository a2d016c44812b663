import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { QR_BYTE_CAPACITY, QR_ERROR_CORRECTION, createQrCodeSchema, qrPreviewSchema } from './qr-codes.js';
import {
  checkQrColours,
  contrastRatio,
  destinationAt,
  nextDestinationChange,
  normalizeHex,
} from '../shared/qr-codes.js';

const urlOf = (length: number) => {
  const start = 'https://example.org/';
  return start + 'a'.repeat(length - start.length);
};

describe('QR capacity', () => {
  it.each(QR_ERROR_CORRECTION)('holds what the qrcode package holds at %s, and no more', (level) => {
    const max = QR_BYTE_CAPACITY[level];
    expect(() => QRCode.create(urlOf(max), { errorCorrectionLevel: level })).not.toThrow();
    expect(() => QRCode.create(urlOf(max + 1), { errorCorrectionLevel: level })).toThrow(/too big/);
  });

  it('refuses a URL too long for the chosen level (H with a logo), naming the field and the limit', () => {
    const base = { name: 'Flyer' };
    expect(createQrCodeSchema.safeParse({ ...base, url: urlOf(1273), errorCorrection: 'L' }).success).toBe(true);
    const withLogo = createQrCodeSchema.safeParse({
      ...base,
      url: urlOf(1320),
      errorCorrection: 'L',
      logoUrl: 'https://example.org/logo.png',
    });
    expect(withLogo.error?.issues).toEqual([
      expect.objectContaining({
        path: ['url'],
        message: 'URL is too long for a QR code at error correction H (at most 1,273 characters)',
      }),
    ]);
    // The UTM parameters are part of what the code holds.
    const utm = { ...base, url: urlOf(1600), errorCorrection: 'Q' };
    expect(createQrCodeSchema.safeParse(utm).success).toBe(true);
    expect(createQrCodeSchema.safeParse({ ...utm, utmSource: 'x'.repeat(80) }).error?.issues[0]?.message).toBe(
      'URL is too long for a QR code at error correction Q (at most 1,663 characters)',
    );
    // With a short link the code holds the short link, whatever the destination's length.
    expect(
      createQrCodeSchema.safeParse({ ...base, url: urlOf(2040), errorCorrection: 'H', isShortUrl: true }).success,
    ).toBe(true);
    const preview = qrPreviewSchema.safeParse({ data: urlOf(1700), errorCorrection: 'Q' });
    expect(preview.error?.issues[0]).toMatchObject({
      path: ['data'],
      message: 'Data is too long for a QR code at error correction Q (at most 1,663 characters)',
    });
  });
});

describe('QR colours', () => {
  it('measures WCAG contrast', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#FFFFFF')).toBeCloseTo(1, 5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    expect(normalizeHex('1a2b3c')).toBe('#1A2B3C');
    expect(normalizeHex('#fff')).toBeNull();
  });

  it('refuses pairs under 3:1 and light on dark unless confirmed', () => {
    expect(checkQrColours({ foregroundColor: '#000000', backgroundColor: '#FFFFFF' })).toBeNull();
    expect(checkQrColours({ foregroundColor: '#949494', backgroundColor: '#FFFFFF' })).toBeNull(); // 3.03:1
    expect(checkQrColours({ foregroundColor: '#959595', backgroundColor: '#FFFFFF' })).toMatchObject({
      field: 'foregroundColor',
      needsConfirmation: false,
    });
    expect(
      checkQrColours({ foregroundColor: '#000000', backgroundColor: '#FFFFFF', cornerDotColor: '#F0F0F0' }),
    ).toMatchObject({ field: 'cornerDotColor' });
    expect(checkQrColours({ foregroundColor: '#FFFFFF', backgroundColor: '#000000' })).toMatchObject({
      needsConfirmation: true,
    });
    expect(
      checkQrColours({ foregroundColor: '#FFFFFF', backgroundColor: '#000000', lightOnDarkConfirmed: true }),
    ).toBeNull();
  });
});

describe('scheduled destinations', () => {
  const code = {
    url: 'https://x.org/sunday',
    schedule: [
      { url: 'https://x.org/christmas', startsAt: '2030-12-01T00:00:00Z', endsAt: '2030-12-26T00:00:00Z' },
      { url: 'https://x.org/easter', startsAt: '2031-04-01T00:00:00Z', endsAt: '2031-04-21T00:00:00Z' },
    ],
  };
  it('applies the window in force, else the base URL', () => {
    expect(destinationAt(code, new Date('2030-11-30T23:59:59Z'))).toBe('https://x.org/sunday');
    expect(destinationAt(code, new Date('2030-12-01T00:00:00Z'))).toBe('https://x.org/christmas');
    expect(destinationAt(code, new Date('2030-12-26T00:00:00Z'))).toBe('https://x.org/sunday');
  });
  it('finds the next change', () => {
    expect(nextDestinationChange(code, new Date('2030-06-01T00:00:00Z'))).toEqual({
      at: '2030-12-01T00:00:00.000Z',
      url: 'https://x.org/christmas',
    });
    expect(nextDestinationChange(code, new Date('2030-12-10T00:00:00Z'))).toEqual({
      at: '2030-12-26T00:00:00.000Z',
      url: 'https://x.org/sunday',
    });
    expect(nextDestinationChange(code, new Date('2031-05-01T00:00:00Z'))).toBeNull();
  });
});
