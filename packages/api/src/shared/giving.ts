import { DEFAULT_CARD_FEE, type CardFee } from '../schemas/giving/amounts.js';

// Giving's money in numbers and words: the giving page, statements and the server share them.

/**
 * The fee added when the donor covers it: enough that, after the card fee on the whole charge,
 * the church receives `cents` (gross = (cents + fixed) / (1 - percent), rounded up to the cent).
 * Integer arithmetic: no float error.
 */
export function coverFeeCents(cents: number, fee: CardFee = DEFAULT_CARD_FEE): number {
  const denominator = 10_000 - fee.percentBasisPoints;
  const gross = Math.ceil(((cents + fee.fixedCents) * 10_000) / denominator);
  return gross - cents;
}

/**
 * What a donor received for a gift, as statements and receipts name it: 'Mission dinner ticket
 * (value $15.00)'.
 */
export function goodsServicesText(description: string, cents: number | null): string {
  return cents === null ? description : `${description} (value ${formatCents(cents)})`;
}

/** '$1,234.50' from cents. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
