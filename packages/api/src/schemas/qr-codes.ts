// The QR codes' schemas, one file per part of the feature. Zod only: the QR dialog validates with
// this same code (and checks contrast with shared/qr-codes.ts).

export * from './qr-codes/limits.js';
export { createQrCodeSchema, updateQrCodeSchema, qrCodeIdSchema, type QrCodeFields } from './qr-codes/code-fields.js';
export * from './qr-codes/images.js';
export * from './qr-codes/qr-code.js';
export * from './qr-codes/destinations.js';
