// The QR codes' schemas, one file per part of the feature. Zod and pure functions only: the QR
// dialog validates and checks contrast with this same code.

export * from './qr-codes/limits.js';
export * from './qr-codes/colours.js';
export { createQrCodeSchema, updateQrCodeSchema, qrCodeIdSchema, type QrCodeFields } from './qr-codes/code-fields.js';
export * from './qr-codes/images.js';
export * from './qr-codes/qr-code.js';
export * from './qr-codes/destinations.js';
