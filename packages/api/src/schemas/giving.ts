// Giving that recurs, one file per part of the feature. Zod only: the staff screens and the public
// giving page read the same schemas. Money is whole cents (integers) everywhere: no float error.

export * from './giving/funds.js';
export * from './giving/amounts.js';
export * from './giving/dates.js';
export {
  giftLineInputSchema,
  postalAddressSchema,
  type PostalAddressInput,
  donorSchema,
  prepareGiftSchema,
  type PrepareGiftInput,
  preparedGiftSchema,
  demoCompleteGiftSchema,
  GIFT_STATUSES,
  GIFT_METHODS,
  giftLineSchema,
  giftSchema,
  findGiftsSchema,
  giftPageSchema,
} from './giving/gifts.js';
export * from './giving/schedules.js';
export * from './giving/batches.js';
export * from './giving/overview.js';
