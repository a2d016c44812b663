import jsQR from 'jsqr';

// Reading a QR code (an event's ticket, a family's check-in card): the browser's BarcodeDetector
// where it has one, jsQR (plain JavaScript) otherwise, from a camera frame or a chosen picture.

interface Detector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (o: { formats: string[] }) => Detector;

let detector: Detector | null | undefined;

/** The browser's QR detector, or null where there is none (Firefox, Safari on a desktop). */
async function nativeDetector(): Promise<Detector | null> {
  if (detector !== undefined) return detector;
  const Native = (globalThis as { BarcodeDetector?: DetectorClass & { getSupportedFormats?: () => Promise<string[]> } })
    .BarcodeDetector;
  try {
    const formats = Native ? ((await Native.getSupportedFormats?.()) ?? ['qr_code']) : [];
    detector = Native && formats.includes('qr_code') ? new Native({ formats: ['qr_code'] }) : null;
  } catch {
    detector = null;
  }
  return detector;
}

const canvas = () => document.createElement('canvas');

/** The text of the first QR code in an image, a video frame or a canvas; null when none is found. */
export async function readQr(source: HTMLVideoElement | ImageBitmap): Promise<string | null> {
  const native = await nativeDetector();
  if (native) {
    try {
      const found = await native.detect(source);
      if (found[0]) return found[0].rawValue;
    } catch {
      // Fall through to jsQR: a detector may refuse a source it does not support.
    }
  }
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
  if (!width || !height) return null;
  const scale = Math.min(1, 1024 / Math.max(width, height));
  const c = canvas();
  c.width = Math.round(width * scale);
  c.height = Math.round(height * scale);
  const ctx = c.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(source, 0, 0, c.width, c.height);
  const img = ctx.getImageData(0, 0, c.width, c.height);
  return jsQR(img.data, img.width, img.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/** The text of the QR code in a picture file (a screenshot of a ticket). */
export async function readQrFile(file: File): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    return await readQr(bitmap);
  } finally {
    bitmap.close();
  }
}
